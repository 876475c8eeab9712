import { crc32, deflateSync } from 'node:zlib';

/**
 * Encodes an 8-bit RGBA image as PNG (one IDAT, filter 0 on every row).
 * `rgba` holds width × height × 4 bytes, row 0 at the top.
 *
 * @example
 * const png = encodePng(256, 256, pixels);
 */
export function encodePng(width: number, height: number, rgba: Uint8Array, level = 6): Buffer {
  const stride = width * 4;
  const raw = Buffer.allocUnsafe((stride + 1) * height);
  for (let r = 0; r < height; r++) {
    raw[r * (stride + 1)] = 0;
    raw.set(rgba.subarray(r * stride, (r + 1) * stride), r * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  const chunks = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level })),
    pngChunk('IEND', Buffer.alloc(0)),
  ];
  return Buffer.concat(chunks);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}
