import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PointChunk } from '../src/core/chunk.js';
import { openPointCloud } from '../src/readers/index.js';
import { writeLas } from '../src/writers/las.writer.js';

const COLUMNS = [
  'x',
  'y',
  'z',
  'intensity',
  'returnNumber',
  'numberOfReturns',
  'classification',
  'classFlags',
  'scanDirection',
  'edgeOfFlightLine',
  'userData',
  'pointSourceId',
  'gpsTime',
  'red',
  'green',
  'blue',
  'nir',
] as const;

/** Reads a whole (small) file into one chunk, columns concatenated. */
async function readAll(file: string): Promise<PointChunk> {
  const reader = await openPointCloud(file);
  const parts: PointChunk[] = [];
  for await (const chunk of reader.read({ workers: 0 })) parts.push(chunk);
  await reader.close();
  const count = parts.reduce((n, c) => n + c.count, 0);
  const merged: Record<string, unknown> = { count };
  const first = parts[0]! as unknown as Record<string, unknown>;
  for (const key of Object.keys(first)) {
    if (key === 'count' || key === 'extra') continue;
    const Ctor = (first[key] as Float64Array).constructor as new (n: number) => Float64Array;
    const out = new Ctor(count);
    let at = 0;
    for (const p of parts) {
      out.set((p as unknown as Record<string, Float64Array>)[key]!.subarray(0, p.count), at);
      at += p.count;
    }
    merged[key] = out;
  }
  if (parts[0]!.extra) {
    const extra: Record<string, Float64Array> = {};
    for (const name of Object.keys(parts[0]!.extra)) {
      const out = new Float64Array(count);
      let at = 0;
      for (const p of parts) {
        out.set(p.extra![name]!.subarray(0, p.count), at);
        at += p.count;
      }
      extra[name] = out;
    }
    merged.extra = extra;
  }
  return merged as unknown as PointChunk;
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nuage-writer-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasRealData())('LAS 1.4 writer: read -> write -> read round trips', () => {
  it.each([
    ['autzen_trim.las', 7],
    ['file_with_both_wkt_and_geotiff_vlrs.las', 6],
    ['las_with_several_extra_byte_bloc.laz', 8],
    ['MixedConifer.laz', 6],
    ['mvk-thin.las', 6],
  ] as const)('%s -> point format %i', async (name, expectedFormat) => {
    const input = await openPointCloud(realFile(name));
    const out = path.join(dir, `${name}.las`);
    const record = await writeLas(out, input.read({ workers: 0 }), {
      crs: input.crs,
      scale: input.header.scale,
      offset: input.header.offset,
      extraBytes: input.header.extraBytes,
    });
    const inputHeader = input.header;
    const inputCrs = input.crs;
    await input.close();
    expect(record.pointCount).toBe(inputHeader.pointCount);

    const written = await openPointCloud(out);
    const h = written.header;
    expect(h.lasVersion).toBe('1.4');
    expect(h.pointFormat).toBe(expectedFormat);
    expect(h.pointCount).toBe(inputHeader.pointCount);
    expect(h.globalEncoding & 16).toBe(16);
    expect(written.crs?.epsg).toBe(inputCrs?.epsg);
    expect(written.crs?.horizontalUnitToMetre).toBeCloseTo(inputCrs!.horizontalUnitToMetre, 12);
    expect(h.extraBytes.map((f) => f.name)).toEqual(inputHeader.extraBytes.map((f) => f.name));
    await written.close();

    const a = await readAll(realFile(name));
    const b = await readAll(out);
    expect(b.count).toBe(a.count);
    const ca = a as unknown as Record<string, ArrayLike<number> | undefined>;
    const cb = b as unknown as Record<string, ArrayLike<number> | undefined>;
    for (const col of COLUMNS) {
      if (!ca[col]) continue;
      expect(cb[col], col).toBeDefined();
      expect(Array.from(cb[col]!), col).toEqual(Array.from(ca[col]!));
    }
    // Scan angles go from whole degrees to 0.006° steps: equal within one step.
    let worst = 0;
    for (let i = 0; i < a.count; i++) worst = Math.max(worst, Math.abs(b.scanAngle![i]! - a.scanAngle![i]!));
    expect(worst).toBeLessThan(0.006);
    for (const [field, column] of Object.entries(a.extra ?? {}))
      expect(Array.from(b.extra![field]!), field).toEqual(Array.from(column));
    const byReturn = new Array(16).fill(0);
    for (let i = 0; i < a.count; i++) byReturn[a.returnNumber![i]!]++;
    // Header statistics are recomputed from the points.
    const reread = await openPointCloud(out);
    for (let r = 1; r <= 15; r++) expect(reread.header.pointsByReturn[r - 1]).toBe(byReturn[r]);
    expect(reread.header.min[0]).toBeCloseTo(
      a.x.reduce((m, v) => Math.min(m, v), Infinity),
      9,
    );
    expect(reread.header.max[2]).toBeCloseTo(
      a.z.reduce((m, v) => Math.max(m, v), -Infinity),
      9,
    );
    await reread.close();
  });
});
