// Draws the toolbar icons (a rounded square with a plug-like "M" mark) as PNGs without any
// image dependency. Run once; the PNGs are committed under static/icons/.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const c = Buffer.alloc(4);
  c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
};

function icon(size) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  const r = size * 0.2;
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const dx = Math.max(r - x, 0, x - (size - 1 - r));
      const dy = Math.max(r - y, 0, y - (size - 1 - r));
      const inside = dx * dx + dy * dy <= r * r;
      const u = x / size,
        v = y / size;
      // An "M": two verticals and a V between them.
      const stroke = 0.11;
      const inBand = v > 0.25 && v < 0.75;
      const left = Math.abs(u - 0.27) < stroke / 2;
      const right = Math.abs(u - 0.73) < stroke / 2;
      const vY = 0.25 + Math.abs(u - 0.5) * -1 + 0.23;
      const diag = u > 0.27 && u < 0.73 && Math.abs(v - (0.25 + (0.23 - Math.abs(u - 0.5)))) < stroke / 1.4;
      const mark = inBand && (left || right || diag) && vY;
      const o = y * (size * 4 + 1) + 1 + x * 4;
      const [R, G, B] = mark ? [255, 255, 255] : [26, 115, 232];
      raw[o] = R;
      raw[o + 1] = G;
      raw[o + 2] = B;
      raw[o + 3] = inside ? 255 : 0;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

for (const size of [16, 32, 48, 128]) writeFileSync(new URL(`../static/icons/icon-${size}.png`, import.meta.url), icon(size));
