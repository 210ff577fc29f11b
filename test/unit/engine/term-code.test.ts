import { describe, expect, it } from 'vitest';
import { termCode } from '../../../src/engine/term-texts.ts';

describe('termCode', () => {
  it("reads a term's own code first", () => {
    expect(termCode({ code: 'BD-1800', metadata: [{ field_name: 'id', previous_value: 'x' }] })).toBe(
      'BD-1800',
    );
  });

  it('reads the id its publisher gave it, kept in metadata when the import mapped it to a UUID', () => {
    const metadata = [
      { field_name: 'name', previous_value: 'Food' },
      { field_name: 'id', previous_value: 'BD-1800.2250' },
    ];
    expect(termCode({ metadata })).toBe('BD-1800.2250');
  });

  it('has none otherwise', () => {
    expect(termCode({ metadata: 'no' })).toBeUndefined();
    expect(termCode({ code: '', metadata: [null, { field_name: 'id', previous_value: 3 }] })).toBeUndefined();
  });
});
