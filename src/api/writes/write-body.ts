/**
 * A write's body read from its bytes: UTF-8 (RFC 8259 8.1) and JSON, or a 400 saying where it is
 * not. A body decoded leniently would store U+FFFD in place of what the client sent; a write is
 * refused instead, naming the byte offset of the first invalid sequence, so the client can find it.
 */
import { ApiProblem } from '../http/problem.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const continuation = (byte: number | undefined) => byte !== undefined && byte >= 0x80 && byte <= 0xbf;

/**
 * The offset of the first byte of the first ill-formed UTF-8 sequence (Unicode 15, table 3-7:
 * no overlong forms, no surrogates, nothing above U+10FFFF), or -1 when the bytes are well formed.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    // The allowed range of the second byte, by lead byte; then how many continuation bytes follow.
    let low = 0x80;
    let high = 0xbf;
    let length: number;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k < length; k++) if (!continuation(bytes[i + k])) return i;
    i += length;
  }
  return -1;
}

const refused = (detail: string, reason: string) =>
  new ApiProblem(400, detail, { errors: [{ parameter: '(body)', in: 'body', reason }] });

/** The JSON value of a write's body; ApiProblem 400 when it is not UTF-8 or not JSON. */
export function parseWriteBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    throw refused(
      `the body is not UTF-8: the bytes from byte ${offset} (counted from 0) are not a UTF-8 character`,
      `must be UTF-8 (an invalid sequence at byte ${offset})`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw refused(
      `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      'must be a JSON object',
    );
  }
}
