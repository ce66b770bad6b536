/**
 * Reads a ZIP archive back (the store package's test): walks the central directory, checks each
 * entry's CRC-32 and returns path → bytes. Deflate and stored entries only, as `zip-writer.ts`
 * writes; anything else is an error, so a malformed package fails the test loudly.
 */
import { inflateRawSync } from 'node:zlib';
import { crc32 } from '../../scripts/zip-writer.js';

export function unzip(archive: Buffer): Map<string, Buffer> {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('No end-of-central-directory record');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error(`Bad central header at ${at}`);
    const method = archive.readUInt16LE(at + 10);
    const crc = archive.readUInt32LE(at + 16);
    const compressed = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extra = archive.readUInt16LE(at + 30);
    const comment = archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const raw = archive.subarray(dataStart, dataStart + compressed);
    const data = method === 8 ? inflateRawSync(raw) : method === 0 ? Buffer.from(raw) : undefined;
    if (!data) throw new Error(`${name}: compression method ${method} is not supported`);
    if (crc32(data) !== crc) throw new Error(`${name}: CRC mismatch`);
    files.set(name, data);
    at += 46 + nameLength + extra + comment;
  }
  return files;
}
