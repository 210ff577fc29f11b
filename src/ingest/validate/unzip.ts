/**
 * A zipped tabular data package, unpacked to a folder: enough of the ZIP format (APPNOTE 6.3) for
 * what spreadsheet tools and `zip` write: the central directory, entries stored or deflated. A
 * body is untrusted, so: names that climb out of the folder (`../`, absolute paths) are refused,
 * and the unpacked size is bounded (a small body may inflate to gigabytes), by `maxBytes`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';

export class ZipError extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Unpacks `zip` into `folder`; throws ZipError when it is no ZIP or breaks a bound. */
export async function unzipTo(zip: Uint8Array, folder: string, maxBytes = 512 * 1024 * 1024): Promise<void> {
  const buf = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('not a ZIP archive (no end of central directory)');
  const entries = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  let total = 0;
  await mkdir(folder, { recursive: true });
  for (let n = 0; n < entries; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL)
      throw new ZipError('a broken ZIP directory');
    const method = buf.readUInt16LE(at + 10);
    const compressed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/') || name.startsWith('__MACOSX/')) continue;
    const target = normalize(join(folder, name));
    if (!target.startsWith(folder + sep) || name.includes('\\') || name.startsWith('/'))
      throw new ZipError(`${name}: a name outside the package is refused`);
    total += size;
    if (total > maxBytes) throw new ZipError(`the package unpacks to more than ${maxBytes} bytes`);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL)
      throw new ZipError(`${name}: a broken entry`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + compressed);
    let content: Buffer;
    if (method === 0) content = data;
    else if (method === 8) content = inflateRawSync(data, { maxOutputLength: Math.max(size, 1) });
    else throw new ZipError(`${name}: compression method ${method} is not read (stored or deflated only)`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}
