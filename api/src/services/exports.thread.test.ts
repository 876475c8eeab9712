import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crsFromEpsg } from '@nuage/engine/crs/index.js';
import { exportFeatures, readGeoJsonFeatures } from '@nuage/engine/writers/export.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { exportInThread } from './exports.thread.js';

/** A GeoJSON of `n` 3D points around Delft (EPSG:4326), with two attributes. */
function points(n: number): string {
  const features = [];
  for (let i = 0; i < n; i++) {
    features.push({
      type: 'Feature',
      geometry: {
        type: 'Point',
        coordinates: [4.35 + (i % 500) * 1e-5, 52.0 + Math.floor(i / 500) * 1e-5, 1 + (i % 7)],
      },
      properties: { id: i, height: 1 + (i % 7) },
    });
  }
  return JSON.stringify({ type: 'FeatureCollection', features });
}

describe('exports in a worker thread', () => {
  let dir: string;
  let input: string;
  const crs = crsFromEpsg(28992);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nuage-export-thread-'));
    input = path.join(dir, 'in.geojson');
    await writeFile(input, points(150_000));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the same bytes as the writer run in place, and the main thread keeps turning meanwhile', async () => {
    /** Runs `work` while a 5 ms timer measures the longest pause of the main thread. */
    const longestPause = async (work: () => Promise<unknown>) => {
      let longest = 0;
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }, 5);
      await work();
      clearInterval(timer);
      return longest;
    };
    // The reference, in the same run: the writer in place holds the main thread while it parses.
    const inPlace = path.join(dir, 'in-place.dxf');
    const inPlacePause = await longestPause(async () =>
      exportFeatures(await readGeoJsonFeatures(input), 'dxf', crs, inPlace, { assetType: 'TREE_TOPS' }),
    );
    const out = path.join(dir, 'thread.dxf');
    let written: Awaited<ReturnType<typeof exportInThread>> | undefined;
    const threadPause = await longestPause(async () => {
      written = await exportInThread({ input, format: 'dxf', crs, out, options: { assetType: 'TREE_TOPS' } });
    });

    expect(written?.features).toBe(150_000);
    expect(written?.epsg).toBe(28992);
    expect(Buffer.compare(await readFile(out), await readFile(inPlace))).toBe(0);
    console.log(
      `longest main-thread pause: in place ${inPlacePause.toFixed(0)} ms, in a thread ${threadPause.toFixed(0)} ms`,
    );
    expect(threadPause).toBeLessThan(inPlacePause / 2);
  }, 120_000);

  it("answers the writer's refusal as the API's error (CRS_REQUIRED, 409)", async () => {
    const err = await exportInThread({
      input,
      format: 'shp',
      crs: null,
      out: path.join(dir, 'no-crs.zip'),
      options: {},
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(409);
    expect((err as AppError).code).toBe('CRS_REQUIRED');
  }, 60_000);

  it('passes on an error that is not the writer refusing the input as it is (the output folder is gone)', async () => {
    const err = await exportInThread({
      input,
      format: 'geojson',
      crs: null,
      out: path.join(dir, 'gone', 'x.geojson'),
      options: {},
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(AppError);
    expect((err as Error).message).toMatch(/ENOENT/);
  }, 60_000);

  it('answers an unreadable input as the writer does in place (422 EXPORT_NOT_POSSIBLE)', async () => {
    const err = await exportInThread({
      input: path.join(dir, 'missing.geojson'),
      format: 'geojson',
      crs: null,
      out: path.join(dir, 'x.geojson'),
      options: {},
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(422);
    expect((err as AppError).message).toMatch(/missing\.geojson/);
  }, 60_000);
});
