/**
 * A deterministic ZIP writer for the store package (`npm run package`): the same files give the
 * same bytes, so SHA256SUMS can be checked against a rebuild. Entries are sorted, deflated, and
 * stamped with one fixed DOS time (1980-01-01 00:00); no extra fields, no directories, no ZIP64
 * (the package is far below 4 GiB). The layout follows PKWARE's APPNOTE (local headers, then the
 * central directory, then its end record).
 */
import { deflateRawSync } from 'node:zlib';

export interface ZipFile {
  /** Forward-slash path inside the archive. */
  path: string;
  data: Buffer;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const DEFLATE = 8;
const UTF8_NAMES = 1 << 11;

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

function localHeader(entry: Written): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(UTF8_NAMES, 6);
  h.writeUInt16LE(DEFLATE, 8);
  h.writeUInt16LE(DOS_TIME, 10);
  h.writeUInt16LE(DOS_DATE, 12);
  h.writeUInt32LE(entry.crc, 14);
  h.writeUInt32LE(entry.compressed, 18);
  h.writeUInt32LE(entry.size, 22);
  h.writeUInt16LE(entry.name.length, 26);
  h.writeUInt16LE(0, 28);
  return Buffer.concat([h, entry.name]);
}

function centralHeader(entry: Written): Buffer {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(UTF8_NAMES, 8);
  h.writeUInt16LE(DEFLATE, 10);
  h.writeUInt16LE(DOS_TIME, 12);
  h.writeUInt16LE(DOS_DATE, 14);
  h.writeUInt32LE(entry.crc, 16);
  h.writeUInt32LE(entry.compressed, 20);
  h.writeUInt32LE(entry.size, 24);
  h.writeUInt16LE(entry.name.length, 28);
  h.writeUInt32LE(entry.offset, 42);
  return Buffer.concat([h, entry.name]);
}

function endRecord(count: number, size: number, offset: number): Buffer {
  const e = Buffer.alloc(22);
  e.writeUInt32LE(0x06054b50, 0);
  e.writeUInt16LE(count, 8);
  e.writeUInt16LE(count, 10);
  e.writeUInt32LE(size, 12);
  e.writeUInt32LE(offset, 16);
  return e;
}

export function zip(files: ZipFile[]): Buffer {
  const parts: Buffer[] = [];
  const written: Written[] = [];
  let offset = 0;
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const body = deflateRawSync(file.data, { level: 9 });
    const entry = { name: Buffer.from(file.path, 'utf8'), crc: crc32(file.data), compressed: body.length, size: file.data.length, offset };
    const header = localHeader(entry);
    parts.push(header, body);
    written.push(entry);
    offset += header.length + body.length;
  }
  const central = Buffer.concat(written.map(centralHeader));
  return Buffer.concat([...parts, central, endRecord(written.length, central.length, offset)]);
}
