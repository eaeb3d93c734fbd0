// Draws the app's icons (an indigo ring, anti-aliased) as PNG files in resources/: icon.png at 1024 px, which
// electron-builder turns into the macOS .icns, the Windows .ico and the Linux icon set, plus the tray icons (16 px and
// the macOS template pair at 16 and 32 px, black on transparent so that macOS tints them). No dependencies.
// Run: node scripts/make-icons.mjs
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const INDIGO = [79, 70, 229];
const BLACK = [0, 0, 0];
// Radii as shares of the size: the ring of the first icon (outer 108/256, inner 60/256).
const OUTER = 108 / 256;
const INNER = 60 / 256;

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** RGBA PNG of a ring; coverage by 4×4 supersampling. */
function ring(size, [r, g, b]) {
  const rows = [];
  const c = size / 2;
  const outer = OUTER * size;
  const inner = INNER * size;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter 0
    for (let x = 0; x < size; x++) {
      let hits = 0;
      for (let sy = 0; sy < 4; sy++) {
        for (let sx = 0; sx < 4; sx++) {
          const d = Math.hypot(x + (sx + 0.5) / 4 - c, y + (sy + 0.5) / 4 - c);
          if (d <= outer && d >= inner) hits++;
        }
      }
      row.set([r, g, b, Math.round((255 * hits) / 16)], 1 + x * 4);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = path.resolve(import.meta.dirname, '..', 'resources');
const files = {
  'icon.png': ring(1024, INDIGO),
  'tray.png': ring(16, INDIGO),
  'trayTemplate.png': ring(16, BLACK),
  'trayTemplate@2x.png': ring(32, BLACK),
};
for (const [name, png] of Object.entries(files)) {
  fs.writeFileSync(path.join(out, name), png);
  console.log(`${name}: ${png.length} bytes`);
}
