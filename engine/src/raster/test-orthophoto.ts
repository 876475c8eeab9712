import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gdal } from '../products/test-gdal.js';

/** Colour of pixel (col, row) of the synthetic orthophotos: it encodes the position. */
const R = (c: number, _r: number) => c % 251;
const G = (_c: number, r: number) => r % 241;
const B = (c: number, r: number) => (3 * c + 5 * r) % 256;

/** fusa.laz (EPSG:32754) spans lon 138.56415–138.56695, lat -35.01799 – -35.01579. */
export const STEP = 5e-6;

/**
 * An RGB GeoTIFF in EPSG:4326 (raw bands through GDAL's ENVI driver, then
 * gdal_translate), 8-bit or 16-bit (16-bit values are the 8-bit ones × 200);
 * `solid`: every pixel of that colour instead of the position pattern.
 */
export function orthophoto(
  dir: string,
  name: string,
  west: number,
  north: number,
  width: number,
  height: number,
  bits = 8,
  solid?: readonly [number, number, number],
) {
  const bytes = bits / 8;
  const raw = Buffer.alloc(width * height * 3 * bytes);
  const bands = [R, G, B];
  for (let b = 0; b < 3; b++) {
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        const at = ((b * height + r) * width + c) * bytes;
        const v = solid ? solid[b]! : bands[b]!(c, r);
        if (bits === 8) raw[at] = v;
        else raw.writeUInt16LE(v * 200, at);
      }
    }
  }
  const base = path.join(dir, `${name}.raw`);
  writeFileSync(base, raw);
  writeFileSync(
    path.join(dir, `${name}.hdr`),
    `ENVI\nsamples = ${width}\nlines = ${height}\nbands = 3\nheader offset = 0\nfile type = ENVI Standard\n` +
      `data type = ${bits === 8 ? 1 : 12}\ninterleave = bsq\nbyte order = 0\n`,
  );
  const out = path.join(dir, `${name}.tif`);
  const ullr = [west, north, west + width * STEP, north - height * STEP].map(String);
  gdal('gdal_translate', [
    '-q',
    '-of',
    'GTiff',
    '-a_srs',
    'EPSG:4326',
    '-a_ullr',
    ...ullr,
    '-co',
    'TILED=YES',
    '-co',
    'COMPRESS=DEFLATE',
    base,
    out,
  ]);
  return out;
}
