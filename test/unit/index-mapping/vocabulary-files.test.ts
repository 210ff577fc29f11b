/**
 * The shipped vocabulary: every file parses, declares its version, and every borrowed source sits
 * in its own folder with its licence file and a README naming the source.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseVocabulary,
  VocabularyError,
  vocabularyVersion,
} from '../../../src/index-mapping/vocabulary.ts';
import {
  SHIPPED_VOCABULARY_FILES,
  shippedVocabulary,
  vocabularyDir,
} from '../../../src/index-mapping/vocabulary-files.ts';

const read = (path: string) => readFileSync(new URL(path, vocabularyDir), 'utf8');

describe('the shipped vocabulary files', () => {
  it.each(SHIPPED_VOCABULARY_FILES)('%s parses and declares its version', (file) => {
    const text = read(file);
    expect(vocabularyVersion(text)).toMatch(/^\d+$/);
    expect(parseVocabulary(text, file).length).toBeGreaterThan(10);
  });

  it.each(SHIPPED_VOCABULARY_FILES.filter((file) => file.includes('/')))(
    '%s has its licence file and a README beside it',
    (file) => {
      const folder = `${dirname(file)}/`;
      expect(existsSync(new URL(`${folder}LICENSE`, vocabularyDir))).toBe(true);
      expect(read(`${folder}README.md`)).toMatch(/Licence:/);
      expect(read(file)).toMatch(/licen[cs]e/i);
    },
  );

  it('holds each rule once', () => {
    const rules = shippedVocabulary();
    expect(new Set(rules).size).toBe(rules.length);
  });
});

describe('parseVocabulary', () => {
  it('reads equivalences and one-way rules, skipping comments and blank lines', () => {
    expect(parseVocabulary('# c\n\n foodbank ,food bank \ncab => cab, citizens advice\n')).toEqual([
      'foodbank, food bank',
      'cab => cab, citizens advice',
    ]);
  });

  it('names the line of each malformed rule', () => {
    const bad = () => parseVocabulary('ok, fine\nalone\na, , b\nx => y => z\n', 'mine.txt');
    expect(bad).toThrow(VocabularyError);
    expect(bad).toThrow(/line 2.*\n.*line 3.*\n.*line 4/);
  });
});
