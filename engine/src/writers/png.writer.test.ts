import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodePng } from './png.writer.js';

describe('encodePng', () => {
  it('writes a valid RGBA PNG whose pixels decode back', () => {
    const w = 3;
    const h = 2;
    const rgba = Uint8Array.from({ length: w * h * 4 }, (_, i) => (i * 37) % 256);
    const png = encodePng(w, h, rgba);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.toString('latin1', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(w);
    expect(png.readUInt32BE(20)).toBe(h);
    const idatLength = png.readUInt32BE(33);
    expect(png.toString('latin1', 37, 41)).toBe('IDAT');
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    expect(raw.length).toBe((w * 4 + 1) * h);
    expect([...raw.subarray(1, 1 + w * 4)]).toEqual([...rgba.subarray(0, w * 4)]);
    expect(png.toString('latin1', png.length - 8, png.length - 4)).toBe('IEND');
  });
});
