import { describe, expect, it } from 'vitest';
import { expectedPrecision, parsePostalCode } from '../../../src/geo/postal-code.ts';

describe('parsePostalCode', () => {
  it.each([
    ['AB10 1AB', 'AB10 1AB', 'AB10'],
    ['ab101ab', 'AB10 1AB', 'AB10'],
    ['  Ab10   1aB ', 'AB10 1AB', 'AB10'],
    ['SW1A 2AA', 'SW1A 2AA', 'SW1A'],
    ['m11aa', 'M1 1AA', 'M1'],
    ['SE1P 5ZZ', 'SE1P 5ZZ', 'SE1P'],
  ])('normalises the full UK postcode %j', (input, normalised, outcode) => {
    expect(parsePostalCode(input)).toEqual({ ok: true, value: { kind: 'uk-postcode', normalised, outcode } });
  });

  it.each([
    ['AB10', 'AB10'],
    ['ab1', 'AB1'],
    [' sw1a ', 'SW1A'],
    ['M1', 'M1'],
  ])('reads %j as a UK outcode', (input, outcode) => {
    expect(parsePostalCode(input)).toEqual({
      ok: true,
      value: { kind: 'uk-outcode', normalised: outcode, outcode },
    });
  });

  it.each([
    ['12345', '12345'],
    ['02134', '02134'],
    ['12345-6789', '12345'],
    [' 90210 ', '90210'],
  ])('reads %j as a US ZIP code', (input, normalised) => {
    expect(parsePostalCode(input)).toEqual({ ok: true, value: { kind: 'us-zip', normalised } });
  });

  it.each([
    'AB10 1A',
    'AB10 IAB', // letter I for one: reported, not guessed
    'AB1 01AB',
    'AB10 1',
    '1234',
    '123456',
    '12345-678',
    'hello',
    'AB10-1AB',
    'DROP TABLE',
  ])('rejects %j with a reason naming it', (input) => {
    const result = parsePostalCode(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(input.trim().toUpperCase());
  });

  it('rejects empty and overlong input without echoing it', () => {
    expect(parsePostalCode('   ')).toEqual({ ok: false, reason: 'postal code is empty' });
    const long = parsePostalCode('AB10 1AB'.repeat(20));
    expect(long).toEqual({ ok: false, reason: 'postal code is too long (160 characters)' });
  });

  it('gives the precision an exact answer needs', () => {
    const precisionOf = (input: string) => {
      const parsed = parsePostalCode(input);
      if (!parsed.ok) throw new Error(parsed.reason);
      return expectedPrecision(parsed.value);
    };
    expect([precisionOf('AB10 1AB'), precisionOf('AB10'), precisionOf('12345')]).toEqual([
      'postcode',
      'outcode',
      'zip',
    ]);
  });
});
