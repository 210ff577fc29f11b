/**
 * The character encoding of a CSV file. Packages are UTF-8 by the data package default, but a CSV
 * saved by Excel on Windows is Windows-1252: read as UTF-8, `Café` becomes `Caf\uFFFD` with no
 * error. A file is checked as UTF-8 first (a streaming, fatal decoder over the whole file, so an
 * accent on the last line is found too); one that is not UTF-8 but is plausible Windows-1252 text
 * is decoded as such and reported; anything else (UTF-16, binary) is refused with what it seems
 * to be. A UTF-8 byte order mark is dropped by the CSV parser (`bom: true`).
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';

export type CsvEncoding = { encoding: 'utf-8' } | { encoding: 'windows-1252' } | { refused: string };

// Bytes Windows-1252 leaves undefined: text in that encoding never has them.
const undefinedIn1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/** Which encoding a file is in: UTF-8, Windows-1252, or neither (with why). */
export async function detectCsvEncoding(file: string): Promise<CsvEncoding> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  let invalid = false;
  let start = true;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    if (start) {
      start = false;
      const [a, b] = chunk;
      if ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff))
        return {
          refused: 'the file is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8 CSV',
        };
    }
    if (chunk.includes(0))
      return {
        refused: 'the file holds NUL bytes: it is UTF-16 or binary, not CSV text; save it as UTF-8 CSV',
      };
    if (!invalid) {
      try {
        utf8.decode(chunk, { stream: true });
      } catch {
        invalid = true;
      }
    }
    if (invalid) {
      const undefinedByte = chunk.findIndex((byte) => undefinedIn1252.has(byte));
      if (undefinedByte >= 0)
        return {
          refused: `neither UTF-8 nor Windows-1252 (byte 0x${chunk[undefinedByte]!.toString(16)} at offset ${offset + undefinedByte}); save it as UTF-8 CSV`,
        };
    }
    offset += chunk.length;
  }
  if (!invalid) {
    try {
      utf8.decode(); // a multi-byte character cut off at the end of the file
    } catch {
      invalid = true;
    }
  }
  return invalid ? { encoding: 'windows-1252' } : { encoding: 'utf-8' };
}

/** The file as a stream the CSV parser reads: bytes for UTF-8, decoded text for Windows-1252. */
export function openCsvText(file: string, encoding: 'utf-8' | 'windows-1252'): Readable {
  const bytes = createReadStream(file);
  if (encoding === 'utf-8') return bytes;
  const decoder = new TextDecoder('windows-1252');
  return bytes.pipe(
    new Transform({
      readableObjectMode: false,
      decodeStrings: true,
      transform(chunk: Buffer, _encoding, done) {
        done(null, decoder.decode(chunk, { stream: true }));
      },
      flush(done) {
        done(null, decoder.decode());
      },
    }),
  );
}
