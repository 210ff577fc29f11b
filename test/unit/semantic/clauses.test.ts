import { describe, expect, it } from 'vitest';
import { clausesOf } from '../../../src/semantic/understanding.ts';

describe('the clauses of a search', () => {
  it('splits a longer situation at the words and marks that join its parts', () => {
    expect(clausesOf("my husband has dementia and I'm worn out looking after him")).toEqual([
      'my husband has dementia',
      "I'm worn out looking after him",
    ]);
    expect(clausesOf('lost my job, the rent is due; no food in the house')).toEqual([
      'lost my job',
      'the rent is due',
      'no food in the house',
    ]);
  });

  it('leaves out a part too short to mean anything on its own', () => {
    expect(clausesOf('I have not eaten since yesterday and my kids are hungry')).toEqual([
      'I have not eaten',
      'my kids are hungry',
    ]);
  });

  it('does not split a short search, or one with a single clause', () => {
    expect(clausesOf('food and clothes')).toEqual([]);
    expect(clausesOf('bread and butter pudding cookery class for older people')).toEqual([]);
    expect(clausesOf('I have nowhere to sleep tonight at all')).toEqual([]);
  });

  it('understands at most three clauses', () => {
    expect(clausesOf('one two three, four five six, seven eight nine, ten eleven twelve')).toHaveLength(3);
  });
});
