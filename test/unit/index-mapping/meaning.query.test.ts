import { describe, expect, it } from 'vitest';
import { CRISIS_BOOST, type Meaning, withMeaning } from '../../../src/index-mapping/meaning.query.ts';
import { SERVICE_TEXT_FIELDS } from '../../../src/index-mapping/service-search.query.ts';
import { textQuery } from '../../../src/index-mapping/text.query.ts';
import { parseNeeds, shippedNeeds } from '../../../src/semantic/needs.ts';

const words = textQuery('ending it all', SERVICE_TEXT_FIELDS);
const meaning: Meaning = {
  needs: [{ name: 'suicide', phrases: ['crisis line', 'suicide'], similarity: 0.7 }],
  terms: [{ id: 'term-1', similarity: 0.5 }],
};

describe('withMeaning', () => {
  it('is the words query alone when the search means nothing known', () => {
    expect(withMeaning(words, undefined, SERVICE_TEXT_FIELDS)).toBe(words);
  });

  it('lets the words, each need and each term match, any one of them', () => {
    const query = withMeaning(words, meaning, SERVICE_TEXT_FIELDS) as {
      bool: { should: Record<string, unknown>[]; minimum_should_match: number };
    };
    expect(query.bool.minimum_should_match).toBe(1);
    expect(query.bool.should[0]).toBe(words);
    expect(query.bool.should[1]).toMatchObject({ dis_max: { boost: expect.any(Number) } });
    expect(query.bool.should[2]).toEqual({
      constant_score: { filter: { terms: { taxonomy_term_ids: ['term-1'] } }, boost: expect.any(Number) },
    });
  });

  it("counts the services filed below a term as the term's, in its match and a crisis's", () => {
    const branch: Meaning = {
      needs: [],
      terms: [{ id: 'BD-1800', similarity: 0.9, within: ['BD-1800.2250'] }],
    };
    const query = withMeaning(words, branch, SERVICE_TEXT_FIELDS) as { bool: { should: unknown[] } };
    expect(query.bool.should[1]).toEqual({
      constant_score: {
        filter: { terms: { taxonomy_term_ids: ['BD-1800', 'BD-1800.2250'] } },
        boost: expect.any(Number),
      },
    });
    const crisis = withMeaning(
      words,
      { ...branch, crisis: { need: 'hunger', phrases: ['food'], onlyTermIds: [], restricted: false } },
      SERVICE_TEXT_FIELDS,
    );
    expect(JSON.stringify(crisis)).toContain('{"terms":{"taxonomy_term_ids":["BD-1800","BD-1800.2250"]}}');
  });

  it('puts the crisis services above every other match, only under the operator terms when named', () => {
    const crisis = (restricted: boolean, onlyTermIds: string[]) =>
      JSON.stringify(
        withMeaning(
          words,
          { ...meaning, crisis: { need: 'suicide', phrases: ['crisis line'], onlyTermIds, restricted } },
          SERVICE_TEXT_FIELDS,
        ),
      );
    expect(crisis(false, [])).toContain(`"boost":${CRISIS_BOOST}`);
    expect(crisis(true, ['crisis-term'])).toContain('"crisis-term"');
    // Named terms none of which is served: no service counts as a crisis service.
    expect(crisis(true, [])).not.toContain(`"boost":${CRISIS_BOOST}`);
  });
});

describe('the needs file', () => {
  it('parses names, crisis marks, phrasings and phrases', () => {
    expect(parseNeeds('# c\nsuicide !crisis | I want to die; no hope | crisis line, suicide\n')).toEqual([
      {
        name: 'suicide',
        crisis: true,
        phrasings: ['I want to die', 'no hope'],
        phrases: ['crisis line', 'suicide'],
      },
    ]);
    expect(() => parseNeeds('just a name')).toThrow(/line 1/);
  });

  it('ships needs for each kind of crisis the issue names', () => {
    const crises = shippedNeeds()
      .filter((n) => n.crisis)
      .map((n) => n.name);
    expect(crises).toEqual(
      expect.arrayContaining(['suicide', 'domestic abuse', 'child at risk', 'homeless tonight']),
    );
  });
});
