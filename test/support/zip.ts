/**
 * ZIP archives built in a test, with the sizes its directory declares chosen by the test: an
 * honest archive, or one whose entry unpacks to more than it declares. A bomb (hundreds of MB
 * unpacked) is deflated as a stream, so the test never holds what it unpacks to.
 */
import { once } from 'node:events';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

export type ZipEntry = {
  name: string;
  /** Deflated (raw) bytes. */
  data: Buffer;
  /** The unpacked size the directory declares. */
  size: number;
  crc: number;
};

/** `times` copies of `chunk`, deflated (raw) at level 9, with the whole's size and CRC-32. */
export async function deflatedRepeat(chunk: Buffer, times: number): Promise<Omit<ZipEntry, 'name'>> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  let crc = 0;
  for (let i = 0; i < times; i++) {
    crc = crc32(chunk, crc);
    if (!deflate.write(chunk)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return { data: Buffer.concat(out), size: chunk.length * times, crc };
}

/** A ZIP archive of deflated entries, as `zip` writes one. */
export function zipOf(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, size, crc } of entries) {
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A ZIP archive of whole files, each deflated, with honest sizes: a package as `zip` packs one. */
export function zipFiles(files: Record<string, Buffer>): Buffer {
  return zipOf(
    Object.entries(files).map(([name, content]) => ({
      name,
      data: deflateRawSync(content),
      size: content.length,
      crc: crc32(content),
    })),
  );
}
