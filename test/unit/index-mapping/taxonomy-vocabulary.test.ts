import { describe, expect, it } from 'vitest';
import {
  cleanAlternateNames,
  MAX_ALTERNATE_NAMES_PER_TERM,
  taxonomySynonymRules,
} from '../../../src/index-mapping/taxonomy-vocabulary.ts';
import { flattenRow } from '../../../src/ingest/records/flatten.ts';

const TERM = '22222222-2222-4222-8222-222222222222';

describe("a taxonomy term's alternate names", () => {
  it('keeps names as published when they are clean', () => {
    expect(cleanAlternateNames(['Food shelf', 'Food cupboard'], 'Food Pantries')).toEqual({
      names: ['Food shelf', 'Food cupboard'],
      problems: [],
      lost: false,
    });
  });

  it('cleans HTML and the rule syntax, drops blanks, duplicates and the term name, and says so', () => {
    const { names, problems, lost } = cleanAlternateNames(
      [
        '<b>Soup &amp; sandwich</b>',
        'soup & SANDWICH',
        '',
        ' ',
        '<br/>',
        'food pantries',
        'a, b => c',
        '#1 # help',
      ],
      'Food Pantries',
    );
    expect(names).toEqual(['Soup & sandwich', 'a b c', '1 help']);
    expect(problems.join('; ')).toMatch(/3 blank names dropped.*2 duplicates.*3 names cleaned/);
    expect(lost).toBe(false);
  });

  it('drops what is not a name and caps a term at 50 names, as a loss', () => {
    const many = Array.from({ length: 70 }, (_, i) => `name ${i}`);
    const result = cleanAlternateNames([{ a: 1 }, ['x'], 'x'.repeat(101), 7, ...many]);
    expect(result.names).toHaveLength(MAX_ALTERNATE_NAMES_PER_TERM);
    expect(result.names[0]).toBe('7');
    expect(result.problems.join('; ')).toMatch(
      /2 values not text.*1 name over 100 characters.*21 names beyond the first 50/,
    );
    expect(result.lost).toBe(true);
    expect(cleanAlternateNames({ names: ['a'] }).names).toEqual([]);
  });

  it('splits one text at ; or | (a CSV cell)', () => {
    expect(cleanAlternateNames('Food shelf; Food cupboard | Larder\n').names).toEqual([
      'Food shelf',
      'Food cupboard',
      'Larder',
    ]);
  });

  it('are one one-way rule per term, capped in all', () => {
    const { rules, leftOut } = taxonomySynonymRules(
      [
        { name: 'Food Pantries', alternates: ['Food shelf', 'Larder'] },
        { name: 'No alternates', alternates: [] },
        { name: '<i>Debt, advice</i>', alternates: 'Money help' },
        { name: 42, alternates: ['ignored: no name'] },
        { name: 'Over the cap', alternates: ['one', 'two'] },
      ],
      4,
    );
    expect(rules).toEqual([
      'Food shelf, Larder => Food shelf, Larder, Food Pantries',
      'Money help => Money help, Debt advice',
      'one => one, Over the cap',
    ]);
    expect(leftOut).toBe(1);
  });

  it('are repaired at import and reported, the term kept (tabular row)', () => {
    const row = flattenRow(
      'taxonomy_term',
      {
        id: TERM,
        name: 'Food Pantries',
        description: 'Food.',
        'x-alternate_names': 'Food shelf;;food pantries',
      },
      'taxonomy_terms.csv:2',
    );
    expect(row.records[0]!.record['x-alternate_names']).toEqual(['Food shelf']);
    expect(row.records[0]!.notes.map((n) => [n.severity, n.path])).toEqual([['info', 'x-alternate_names']]);
    const blank = flattenRow(
      'taxonomy_term',
      { id: TERM, name: 'Food', description: 'F', 'x-alternate_names': '' },
      'x',
    );
    expect(blank.records[0]!.record).not.toHaveProperty('x-alternate_names');
    expect(blank.records[0]!.notes).toEqual([]);
  });
});
