import { describe, expect, it } from 'vitest';
import { OperatorRuleError, parseOperatorRule } from '../../../src/engine/operator-vocabulary.ts';
import { VocabularyError } from '../../../src/index-mapping/vocabulary.ts';

describe('parseOperatorRule', () => {
  it('gives one rule in the normal form SYNONYMS_FILE lines get', () => {
    expect(parseOperatorRule('  scran ,grub=>food bank ')).toBe('scran, grub => food bank');
    expect(parseOperatorRule('gp,\tdoctor')).toBe('gp, doctor');
  });

  it("refuses what a file's line would be refused for, with the parser's reason", () => {
    for (const [rule, reason] of [
      ['a => b => c', 'more than one "=>"'],
      ['a, , b', 'an empty term'],
      ['alone', 'one term alone says nothing'],
      ['a, b\u0007', 'control character'],
    ]) {
      expect(() => parseOperatorRule(rule as string), rule).toThrow(VocabularyError);
      try {
        parseOperatorRule(rule as string);
      } catch (error) {
        expect((error as VocabularyError).problems[0]?.reason).toBe(reason);
      }
    }
  });

  it('refuses what is not one rule: a blank, a comment, several lines', () => {
    for (const text of ['', '   ', '# a comment', 'a, b\nc, d', 'a, b\r\n'])
      expect(() => parseOperatorRule(text), JSON.stringify(text)).toThrow(OperatorRuleError);
  });
});
