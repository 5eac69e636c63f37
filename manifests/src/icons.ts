// The add-in's icons, drawn here so that no binary needs hand-editing: a magnifier ("scout") in
// white on the brand blue (color icons) or on transparency (the unified manifest's outline icon).
// A minimal PNG encoder (RGBA, one IDAT, zlib from Node).
import zlib from 'node:zlib';

const BRAND: [number, number, number] = [0x0f, 0x6c, 0xbd];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function encodePng(size: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x, y);
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = a;
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
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** How much of the pixel (0..1) the magnifier covers, sampled 4x4 for smooth edges. */
function glyph(size: number, x: number, y: number): number {
  let hit = 0;
  for (let sy = 0; sy < 4; sy++) {
    for (let sx = 0; sx < 4; sx++) {
      const u = (x + (sx + 0.5) / 4) / size;
      const v = (y + (sy + 0.5) / 4) / size;
      const d = Math.hypot(u - 0.43, v - 0.43);
      const ring = d > 0.19 && d < 0.27;
      // The handle: a thick segment from the ring towards the lower right.
      const t = (u - 0.6 + (v - 0.6)) / 2;
      const off = Math.abs(u - 0.6 - (v - 0.6)) / Math.SQRT2;
      const handle = t > 0 && t < 0.17 && off < 0.055;
      if (ring || handle) hit++;
    }
  }
  return hit / 16;
}

/** A color icon: the white magnifier on a rounded brand-blue square. */
export function colorIcon(size: number): Buffer {
  const r = size * 0.18;
  return encodePng(size, (x, y) => {
    const cx = Math.min(Math.max(x + 0.5, r), size - r);
    const cy = Math.min(Math.max(y + 0.5, r), size - r);
    const inside = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= r;
    if (!inside) return [0, 0, 0, 0];
    const g = glyph(size, x, y);
    return [
      Math.round(BRAND[0] + (255 - BRAND[0]) * g),
      Math.round(BRAND[1] + (255 - BRAND[1]) * g),
      Math.round(BRAND[2] + (255 - BRAND[2]) * g),
      255,
    ];
  });
}

/** The outline icon of the unified manifest: white on transparency, 32 x 32. */
export function outlineIcon(size = 32): Buffer {
  return encodePng(size, (x, y) => [255, 255, 255, Math.round(255 * glyph(size, x, y))]);
}
