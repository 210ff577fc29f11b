/**
 * A zipped tabular data package, unpacked to a folder: enough of the ZIP format (APPNOTE 6.3) for
 * what spreadsheet tools and `zip` write: the central directory, entries stored or deflated. A
 * body is untrusted, so: names that climb out of the folder (`../`, absolute paths) are refused,
 * and the unpacked size is bounded (a small body may inflate to gigabytes), by `maxBytes`:
 *
 * - the sizes the directory declares are added up before anything is inflated, and a package
 *   declaring more is refused at once (ZipTooLargeError, the API's 413);
 * - each entry is inflated as a stream to its file, counting what comes out, and stopped as soon
 *   as it passes the size its entry declares (a lying directory: ZipError naming the entry), so
 *   what is written never passes the declared total, and memory holds one stream's buffers, never
 *   an entry.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';

/** The archive is not one this reads, or is broken, or breaks a bound: the API's 400. */
export class ZipError extends Error {}

/** The package declares more unpacked bytes than the bound: the API's 413. */
export class ZipTooLargeError extends ZipError {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Within the API the bound is VALIDATE_MAX_BODY_BYTES (validate.routes.ts); this is the command line's. */
export const DEFAULT_MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

type Entry = {
  name: string;
  target: string;
  method: number;
  compressed: number;
  size: number;
  local: number;
};

/** The central directory's file entries (folders and macOS resource forks left out). */
function readDirectory(buf: Buffer, folder: string): Entry[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('not a ZIP archive (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL)
      throw new ZipError('a broken ZIP directory');
    const nameLength = buf.readUInt16LE(at + 28);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    const entry = {
      name,
      target: normalize(join(folder, name)),
      method: buf.readUInt16LE(at + 10),
      compressed: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      local: buf.readUInt32LE(at + 42),
    };
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    if (name.endsWith('/') || name.startsWith('__MACOSX/')) continue;
    if (!entry.target.startsWith(folder + sep) || name.includes('\\') || name.startsWith('/'))
      throw new ZipError(`${name}: a name outside the package is refused`);
    entries.push(entry);
  }
  return entries;
}

/** Passes bytes on until more than `size` have come: then fails, naming the entry. */
function atMost(size: number, name: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > size)
        done(new ZipError(`${name}: unpacks to more than the ${size} bytes its directory entry declares`));
      else done(null, chunk);
    },
  });
}

/** Unpacks `zip` into `folder`; throws ZipError when it is no ZIP or breaks a bound. */
export async function unzipTo(
  zip: Uint8Array,
  folder: string,
  maxBytes = DEFAULT_MAX_UNPACKED_BYTES,
): Promise<void> {
  const buf = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const entries = readDirectory(buf, folder);
  const declared = entries.reduce((sum, e) => sum + e.size, 0);
  if (declared > maxBytes)
    throw new ZipTooLargeError(
      `the package unpacks to ${declared} bytes: more than ${maxBytes} bytes, the most a package may unpack to`,
    );
  await mkdir(folder, { recursive: true });
  for (const { name, target, method, compressed, size, local } of entries) {
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL)
      throw new ZipError(`${name}: a broken entry`);
    if (method !== 0 && method !== 8)
      throw new ZipError(`${name}: compression method ${method} is not read (stored or deflated only)`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + compressed);
    await mkdir(dirname(target), { recursive: true });
    try {
      const source = Readable.from([data]);
      const written = createWriteStream(target);
      if (method === 8) await pipeline(source, createInflateRaw(), atMost(size, name), written);
      else await pipeline(source, atMost(size, name), written);
    } catch (error) {
      if (error instanceof ZipError) throw error;
      // zlib's own refusal (not deflate data, a stream cut short).
      throw new ZipError(`${name}: a broken entry (${(error as Error).message})`);
    }
  }
}
