/**
 * A write's body read from its bytes (src/api/writes/write-body.ts): the offset of the first invalid
 * UTF-8 byte agrees with what a strict decoder refuses, for every kind of ill-formed sequence.
 */
import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../../../src/api/http/problem.ts';
import { firstInvalidUtf8, parseWriteBody } from '../../../../src/api/writes/write-body.ts';

const strict = new TextDecoder('utf-8', { fatal: true });
const wellFormed = (bytes: Uint8Array) => {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('firstInvalidUtf8', () => {
  it.each([
    ['a lone continuation byte', [0x61, 0x80], 1],
    ['a byte never in UTF-8', [0x61, 0x62, 0xff], 2],
    ['an overlong two-byte form', [0xc0, 0xaf], 0],
    ['an overlong three-byte form', [0x61, 0xe0, 0x80, 0xaf], 1],
    ['a surrogate', [0xed, 0xa0, 0x80], 0],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a sequence cut short', [0xe2, 0x82, 0x41], 0],
    ['a sequence cut by the end', [0x41, 0xf0, 0x9f, 0x98], 1],
    ['a well-formed text', [...Buffer.from('Café ☕ 😀')], -1],
  ])('%s', (_, bytes, offset) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(offset);
    expect(wellFormed(Uint8Array.from(bytes))).toBe(offset === -1);
  });

  it('agrees with a strict decoder on random bytes', () => {
    let seed = 35;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 5000; n++) {
      const bytes = Uint8Array.from({ length: 1 + (next() % 8) }, () => next() % 256);
      const offset = firstInvalidUtf8(bytes);
      expect(offset === -1, `${[...bytes]}`).toBe(wellFormed(bytes));
      // Everything before the offset is well formed.
      if (offset > 0) expect(wellFormed(bytes.subarray(0, offset))).toBe(true);
    }
  });
});

describe('parseWriteBody', () => {
  it('names the byte offset of the first invalid byte in a 400', () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"Café '), Buffer.from([0xff]), Buffer.from('"}')]);
    try {
      parseWriteBody(bytes);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiProblem);
      expect((error as ApiProblem).status).toBe(400);
      expect((error as ApiProblem).detail).toContain('byte 15');
    }
  });

  it('parses UTF-8 JSON, and refuses what is not JSON', () => {
    expect(parseWriteBody(Buffer.from('{"name":"Café"}'))).toEqual({ name: 'Café' });
    expect(() => parseWriteBody(Buffer.from('{"name":'))).toThrow(/not JSON/);
  });
});
