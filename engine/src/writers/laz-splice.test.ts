import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import { memorySource, openPointCloud } from '../readers/index.js';
import { type LazChunk, readLazChunkTable } from '../readers/laz-chunk-table.js';
import { encodeLazChunkTable, spliceLaz } from './laz-splice.js';

async function readAll(file: string): Promise<{ x: number[]; y: number[]; z: number[]; c: number[]; t: number[] }> {
  const reader = await openPointCloud(file);
  const all = { x: [] as number[], y: [] as number[], z: [] as number[], c: [] as number[], t: [] as number[] };
  for await (const chunk of reader.read({ workers: 0 }) as AsyncIterable<PointChunk>) {
    for (let i = 0; i < chunk.count; i++) {
      all.x.push(chunk.x[i]!);
      all.y.push(chunk.y[i]!);
      all.z.push(chunk.z[i]!);
      all.c.push(chunk.classification![i]!);
      all.t.push(chunk.gpsTime![i]!);
    }
  }
  await reader.close();
  return all;
}

describe('encodeLazChunkTable', () => {
  it('writes tables our LASzip-compatible reader decodes back exactly', async () => {
    // A fake file: header bytes are irrelevant to the table reader except the
    // facts passed in; chunk sizes cover small, large and repeated values.
    const chunks: LazChunk[] = [];
    let offset = 8;
    const sizes = [50_000, 50_000, 12_345, 1, 49_999, 50_000, 3, 250_000];
    for (const [i, n] of sizes.entries()) {
      const bytes = [180_000, 180_001, 40_000, 20, 9_999_999, 181_000, 60, 1_000_000][i]!;
      chunks.push({ offset, byteLength: bytes, pointCount: n });
      offset += bytes;
    }
    for (const variable of [true, false]) {
      const table = encodeLazChunkTable(variable ? chunks : chunks.slice(0, 2), variable);
      const used = variable ? chunks : chunks.slice(0, 2);
      const end = used.at(-1)!.offset + used.at(-1)!.byteLength;
      const file = new Uint8Array(end + table.length);
      new DataView(file.buffer).setBigInt64(0, BigInt(end), true);
      file.set(table, end);
      const header = {
        pointDataOffset: 0,
        pointCount: used.reduce((s, c) => s + c.pointCount, 0),
        recordLength: 1,
        versionMinor: 2,
        evlrCount: 0,
        evlrOffset: 0,
        laszip: { compressor: 2, chunkSize: variable ? 0xffffffff : 50_000 },
      } as unknown as Parameters<typeof readLazChunkTable>[1];
      expect(await readLazChunkTable(memorySource(file), header)).toEqual(used);
    }
  });
});

describe.skipIf(!hasRealData())('spliceLaz', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nuage-splice-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lays copies of real LAZ files side by side, every point shifted exactly', async () => {
    const out = path.join(dir, 'mosaic.laz');
    const result = await spliceLaz(
      [
        { path: realFile('Megaplot.laz'), dx: 0, dy: 0 },
        { path: realFile('Megaplot.laz'), dx: 250, dy: -40.5 },
      ],
      out,
    );
    expect(result.pointCount).toBe(81_590 * 2);
    const megaplot = await readAll(realFile('Megaplot.laz'));
    const mosaic = await readAll(out);
    expect(mosaic.x.length).toBe(result.pointCount);
    const n = megaplot.x.length;
    for (let i = 0; i < n; i += 97) {
      expect(mosaic.x[i]).toBe(megaplot.x[i]);
      expect(mosaic.x[n + i]).toBeCloseTo(megaplot.x[i]! + 250, 6);
      expect(mosaic.y[n + i]).toBeCloseTo(megaplot.y[i]! - 40.5, 6);
      expect(mosaic.z[n + i]).toBe(megaplot.z[i]);
      expect(mosaic.c[n + i]).toBe(megaplot.c[i]);
      expect(mosaic.t[n + i]).toBe(megaplot.t[i]);
    }
    const reader = await openPointCloud(out);
    expect(reader.header.pointCount).toBe(result.pointCount);
    expect(reader.header.laszip?.chunkSize).toBe(0xffffffff);
    expect(reader.header.max[0]).toBeCloseTo(Math.max(...megaplot.x) + 250, 2);
    expect(reader.header.min[1]).toBeCloseTo(Math.min(...megaplot.y) - 40.5, 2);
    await reader.close();
  });

  it('splices different tiles of one survey, and the worker path reads them whole', async () => {
    const out = path.join(dir, 'bcts.laz');
    const result = await spliceLaz(
      [
        { path: realFile('bcts_1.laz'), dx: 0, dy: 0 },
        { path: realFile('bcts_4.laz'), dx: 250, dy: 0 },
      ],
      out,
    );
    expect(result.pointCount).toBe(531_662 + 591_489);
    expect(result.chunks).toBe(11 + 12);
    const tile4 = await readAll(realFile('bcts_4.laz'));
    const reader = await openPointCloud(out);
    let seen = 0;
    let checked = 0;
    for await (const chunk of reader.read({ workers: 2 })) {
      for (let i = 0; i < chunk.count; i += 211) {
        const k = seen + i - 531_662;
        if (k < 0) continue;
        expect(chunk.x[i]).toBeCloseTo(tile4.x[k]! + 250, 6);
        expect(chunk.y[i]).toBe(tile4.y[k]);
        checked++;
      }
      seen += chunk.count;
    }
    await reader.close();
    expect(seen).toBe(result.pointCount);
    expect(checked).toBeGreaterThan(2000);
  });

  it('refuses pieces it cannot splice without recompressing', async () => {
    const out = path.join(dir, 'bad.laz');
    await expect(
      spliceLaz(
        [
          { path: realFile('fusa.laz'), dx: 0, dy: 0 },
          { path: realFile('MixedConifer.laz'), dx: 0, dy: 0 },
        ],
        out,
      ),
    ).rejects.toBeInstanceOf(InvalidInput);
    await expect(spliceLaz([{ path: realFile('fusa.laz'), dx: 0.001, dy: 0 }], out)).rejects.toBeInstanceOf(
      InvalidInput,
    );
    await expect(spliceLaz([{ path: realFile('autzen_trim.las'), dx: 0, dy: 0 }], out)).rejects.toBeInstanceOf(
      InvalidInput,
    );
  });
});
