/**
 * Duplicate detection's pure parts (src/duplicates): the normal forms records are compared in,
 * name similarity, the score and its evidence, and blocking.
 */
import { describe, expect, it } from 'vitest';
import {
  type DuplicateCandidate,
  detectDuplicates,
  pairKey,
  scorePair,
  toCandidate,
} from '../../../src/duplicates/index.ts';
import {
  nameSimilarity,
  nameWords,
  normaliseEmail,
  normalisePhone,
  normalisePostcode,
  websiteHost,
} from '../../../src/duplicates/normalize.ts';

describe('normal forms', () => {
  it('reads postcodes, phones, e-mails and websites as publishers differ on them', () => {
    expect(['ab101ab', 'AB10  1AB', 'ab10 1ab'].map(normalisePostcode)).toEqual([
      'AB10 1AB',
      'AB10 1AB',
      'AB10 1AB',
    ]);
    expect(
      ['01224 123456', '+44 1224 123456', '+44 (0)1224 123-456', '(01224) 123456', '0044 1224 123456'].map(
        normalisePhone,
      ),
    ).toEqual(Array(5).fill('01224123456'));
    expect(normalisePhone('01224 123456 ext. 12')).toBe('01224123456');
    expect(normalisePhone('ext 12')).toBeUndefined();
    expect(normaliseEmail(' Help@Example.ORG ')).toBe('help@example.org');
    expect(normaliseEmail('not an address')).toBeUndefined();
    expect(websiteHost('http://www.Example.org/services')).toBe('example.org');
    expect(websiteHost('example.org')).toBe('example.org');
  });

  it('compares names by their words: case, filler, plurals, typos and run-together words forgiven', () => {
    const sim = (a: string, b: string) => nameSimilarity(nameWords(a), nameWords(b));
    expect(sim('The Food Bank Ltd', 'FOOD BANK')).toBe(1);
    expect(sim('Advice Services', 'advice service')).toBe(1);
    expect(sim('Community Centre', 'Community Center')).toBe(1);
    expect(sim('Ruthrieston Outreach', 'Ruthriestno Outreach')).toBe(1);
    expect(sim('Torry Foodbank', 'Torry Food Bank')).toBe(1);
    // Each name has a word the other lacks: two places, not one name said more or less fully.
    expect(sim('Citizens Advice Mastrick', 'Citizens Advice Altens')).toBeLessThan(0.5);
    expect(sim('Food Bank', 'Debt Advice')).toBe(0);
  });
});

const record = (id: string, source: string, fields: Partial<Record<string, unknown>>) =>
  toCandidate(
    'service',
    {
      id,
      name: fields.name,
      email: fields.email,
      url: fields.url,
      phones: fields.phone ? [{ number: fields.phone }] : [],
      service_at_locations: [
        {
          location: {
            addresses: [{ address_1: fields.line, postal_code: fields.postcode, city: fields.city }],
          },
        },
      ],
    },
    [source],
  );

const foodBank = record('a', 'council', {
  name: 'Torry Food Bank',
  postcode: 'AB11 9QA',
  phone: '01224 123456',
  email: 'help@food.example.org',
  url: 'https://food.example.org',
  line: '12 Victoria Road',
});

describe('scoring a pair', () => {
  it('scores the same service, reworded and reformatted, high, and says why', () => {
    const copy = record('b', 'charity', {
      name: 'THE TORRY FOOD BANK (Aberdeen)',
      postcode: 'ab119qa',
      phone: '+44 (0)1224 123-456',
      email: 'HELP@food.example.org',
      url: 'http://www.food.example.org/',
      line: '12 Victoria Rd',
    });
    const { score, evidence } = scorePair(foodBank, copy);
    expect(score).toBeGreaterThanOrEqual(0.9);
    expect(evidence.map((e) => [e.field, e.outcome])).toEqual([
      ['name', 'similar'],
      ['postcode', 'same'],
      ['address', 'same'],
      ['phone', 'same'],
      ['email', 'same'],
      ['website', 'same'],
    ]);
  });

  it('scores a branch of the same charity in another town low: same name and website, another place', () => {
    const branch = record('c', 'charity', {
      name: 'Torry Food Bank',
      postcode: 'AB51 3UR',
      phone: '01467 654321',
      email: 'help@food.example.org',
      url: 'https://food.example.org',
      line: '3 Market Place',
    });
    const { score, evidence } = scorePair(foodBank, branch);
    expect(score).toBeLessThan(0.6);
    expect(evidence.find((e) => e.field === 'postcode')).toMatchObject({
      outcome: 'different',
      weight: -0.35,
    });
  });

  it('never calls two services of one building the same when their names differ', () => {
    const other = record('d', 'charity', {
      name: 'Debt Advice Clinic',
      postcode: 'AB11 9QA',
      phone: '01224 123456',
      email: 'help@food.example.org',
      line: '12 Victoria Road',
    });
    expect(scorePair(foodBank, other).score).toBeLessThan(0.5);
  });
});

describe('detecting pairs', () => {
  const copy = (id: string, source: string) => ({ ...foodBank, id, sources: [source] });

  it('lists pairs across sources only, in id order, and leaves out marked pairs', () => {
    const candidates: DuplicateCandidate[] = [foodBank, copy('z', 'council'), copy('b', 'charity')];
    const { pairs } = detectDuplicates(candidates);
    // a and z come from the council alone: not a pair across sources.
    expect(pairs.map((p) => p.ids)).toEqual([
      ['a', 'b'],
      ['b', 'z'],
    ]);
    expect(pairs[0]!.records.map((r) => r.sources)).toEqual([['council'], ['charity']]);
    const skip = new Set([pairKey('service', 'b', 'a')]);
    expect(detectDuplicates(candidates, { skip }).pairs.map((p) => p.ids)).toEqual([['b', 'z']]);
  });

  it('does not pair by a key too many records share, and still pairs them by another', () => {
    // 60 records share a postcode and two name words; each pair has its own phone and name word.
    const many = Array.from({ length: 60 }, (_, i) =>
      record(`r${i}`, i % 2 ? 'charity' : 'council', {
        name: `Busy Hub Number${i >> 1}`,
        postcode: 'AB10 1AB',
        phone: `01224 5${String(i >> 1).padStart(5, '0')}`,
      }),
    );
    const report = detectDuplicates(many, { maxBlock: 50 });
    expect(report.skippedBlocks).toBeGreaterThan(0);
    // Only the 30 pairs that share a phone and a name word are compared, not 60 × 59 / 2.
    expect(report.compared).toBe(30);
    expect(report.pairs.length).toBe(30);
  });
});
