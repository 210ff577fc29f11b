import { describe, expect, it } from 'vitest';
import { readConstraints } from '../../../src/semantic/constraints.ts';

const MIAMI = new Set(['hialeah', 'miami', 'miami beach', 'key west', 'homestead', 'naples', '33157']);
const BRISTOL = new Set(['bristol', 'fishponds', 'bs16', 'bs16 3ab', 'scunthorpe']);

const place = (text: string, places: ReadonlySet<string>) =>
  readConstraints(text, places)?.constraints.find((c) => c.kind === 'place');

describe('readConstraints: places the directory serves', () => {
  it('reads a place after "in" or "near", and the need without it', () => {
    expect(readConstraints('food in Hialeah', MIAMI)).toEqual({
      constraints: [{ kind: 'place', text: 'in Hialeah', place: 'hialeah', words: 'Hialeah', known: true }],
      needText: 'food',
    });
    expect(readConstraints('memory cafe near Fishponds', BRISTOL)?.needText).toBe('memory cafe');
  });

  it('reads a place closing a need, the longest name first', () => {
    expect(place('food bank Homestead', MIAMI)).toMatchObject({ place: 'homestead' });
    expect(place('senior center Miami Beach', MIAMI)).toMatchObject({ place: 'miami beach' });
    expect(readConstraints('homeless shelter in Key West', MIAMI)?.needText).toBe('homeless shelter');
  });

  it('reads a search that is only a place', () => {
    expect(readConstraints('Scunthorpe', BRISTOL)).toEqual({
      constraints: [
        { kind: 'place', text: 'Scunthorpe', place: 'scunthorpe', words: 'Scunthorpe', known: true },
      ],
      needText: '',
    });
  });

  it('does not read a place that opens a name', () => {
    expect(readConstraints('Hialeah Hospital', MIAMI)).toBeUndefined();
    expect(readConstraints('Homestead exemption help', MIAMI)).toBeUndefined();
  });

  it('reads a place the directory does not serve only where the text says it is one, to rank by', () => {
    expect(readConstraints('memory cafe in Fishponds', new Set())).toEqual({
      constraints: [
        { kind: 'place', text: 'in Fishponds', place: 'fishponds', words: 'Fishponds', known: false },
      ],
      needText: 'memory cafe',
    });
    expect(place('food in Orlando', MIAMI)).toMatchObject({ place: 'orlando', known: false });
    expect(place('food bank Bedminster', BRISTOL)).toMatchObject({ place: 'bedminster', known: false });
    expect(place('warm space Bradley Stoke', BRISTOL)).toMatchObject({
      place: 'bradley stoke',
      known: false,
    });
    expect(readConstraints('food in orlando', MIAMI)).toBeUndefined();
    expect(readConstraints('Bristol Drugs Project', BRISTOL)).toBeUndefined();
    expect(readConstraints('help with PIP', BRISTOL)).toBeUndefined();
    expect(readConstraints('help in Crisis now', MIAMI)).toBeUndefined();
    expect(readConstraints('Fishponds', new Set())).toBeUndefined();
  });

  it('reads UK postcodes (full or outward) and US ZIP codes', () => {
    expect(place('food bank BS16 3AB', BRISTOL)).toMatchObject({ place: 'bs16 3ab' });
    expect(place('food bank bs163ab', BRISTOL)).toMatchObject({ place: 'bs16 3ab' });
    expect(place('food bank BS16 9ZZ', BRISTOL)).toMatchObject({ place: 'bs16' });
    expect(place('food pantry 33157', MIAMI)).toMatchObject({ place: '33157' });
    expect(place('food pantry 33157-1234', MIAMI)).toMatchObject({ place: '33157' });
  });
});

describe('readConstraints: languages', () => {
  it.each([
    ['Creole speaking food pantry', 'creole', 'food pantry'],
    ['counselor who speaks Creole', 'creole', 'counselor'],
    ['legal advice in Spanish', 'spanish', 'legal advice'],
    ['Polish speaker advice', 'polish', 'advice'],
    ['Spanish-speaking lawyer', 'spanish', 'lawyer'],
  ])('%s', (text, language, needText) => {
    const read = readConstraints(text, MIAMI);
    expect(read?.constraints[0]).toMatchObject({ kind: 'language', language });
    expect(read?.needText).toBe(needText);
  });

  it('reads "in Spanish" as a language, whatever the directory calls a place', () => {
    expect(readConstraints('help in Spanish', new Set(['spanish']))?.constraints).toEqual([
      expect.objectContaining({ kind: 'language', language: 'spanish' }),
    ]);
  });

  it('leaves a group named by its language as words', () => {
    expect(readConstraints('Somali community centre', MIAMI)).toBeUndefined();
    expect(readConstraints('Chinese community support', MIAMI)).toBeUndefined();
  });
});

describe('readConstraints: ages and cost', () => {
  it.each([
    ['exercise for over 60s', 60, 120],
    ['lunch club over-50s', 50, 120],
    ['food for seniors', 60, 120],
    ['mental health support for young people', 11, 25],
    ['drop in for teenagers', 13, 19],
    ['dentist for kids', 0, 12],
    ['playgroup for under 5s', 0, 4],
  ])('%s', (text, from, to) => {
    const read = readConstraints(text, MIAMI);
    expect(read?.constraints[0]).toMatchObject({ kind: 'age', from, to });
    // An age's words stay the need's: records say ages in words far more often than in fields.
    expect(read?.needText).toBe(text);
  });

  it('reads "free" as a request, not inside "drug free"', () => {
    expect(readConstraints('free clinic in Naples', MIAMI)).toEqual({
      constraints: [
        { kind: 'cost', text: 'free', words: 'free' },
        { kind: 'place', text: 'in Naples', place: 'naples', words: 'Naples', known: true },
      ],
      needText: 'free clinic',
    });
    expect(readConstraints('eye test for free', MIAMI)?.constraints[0]).toMatchObject({ kind: 'cost' });
    expect(readConstraints('drug free housing', MIAMI)).toBeUndefined();
  });

  it('reads nothing the person removed', () => {
    expect(readConstraints('food in Hialeah', MIAMI, new Set(['place']))).toBeUndefined();
  });

  it('reads nothing from a plain need or a first-person situation', () => {
    expect(readConstraints('debt advice', MIAMI)).toBeUndefined();
    expect(readConstraints("I can't afford food for my kids", MIAMI)).toBeUndefined();
  });
});
