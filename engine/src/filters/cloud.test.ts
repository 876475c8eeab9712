import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { gatherCloud, gatherCloudSpilled } from './cloud.js';

/** Chunks of a cloud with times, angles, colours and an extra attribute; arrays longer than `count`, as readers reuse them. */
function* chunksOf(total: number, size: number): Iterable<PointChunk> {
  for (let s = 0; s < total; s += size) {
    const n = Math.min(size, total - s);
    const pad = n + 7;
    const chunk: PointChunk = {
      count: n,
      x: new Float64Array(pad),
      y: new Float64Array(pad),
      z: new Float64Array(pad),
      classification: new Uint8Array(pad),
      returnNumber: new Uint8Array(pad),
      intensity: new Uint16Array(pad),
      gpsTime: new Float64Array(pad),
      scanAngle: new Float32Array(pad),
      red: new Uint16Array(pad),
      green: new Uint16Array(pad),
      blue: new Uint16Array(pad),
      extra: { amplitude: new Float64Array(pad) },
    };
    for (let i = 0; i < pad; i++) {
      const p = s + i;
      chunk.x[i] = p * 0.5;
      chunk.y[i] = -p;
      chunk.z[i] = p % 97;
      chunk.classification![i] = p % 7;
      chunk.returnNumber![i] = 1 + (p % 3);
      chunk.intensity![i] = (p * 31) % 65536;
      chunk.gpsTime![i] = 1e9 + p / 1000;
      chunk.scanAngle![i] = (p % 180) - 90;
      chunk.red![i] = p % 65536;
      chunk.green![i] = (p * 7) % 65536;
      chunk.blue![i] = (p * 13) % 65536;
      chunk.extra!.amplitude![i] = p * 0.25;
    }
    yield chunk;
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nuage-spill-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('gatherCloudSpilled', () => {
  it('keeps only the named columns in memory and gives every other one back, point for point', async () => {
    const whole = await gatherCloud(chunksOf(10_003, 1000));
    const { cloud, spilled } = await gatherCloudSpilled(
      chunksOf(10_003, 1000),
      {},
      {
        expected: 10_003,
        spill: { dir, keep: ['classification', 'returnNumber'] },
      },
    );
    try {
      expect(cloud.count).toBe(10_003);
      expect(Object.keys(cloud).sort()).toEqual(['classification', 'count', 'returnNumber', 'x', 'y', 'z']);
      expect(spilled.names.sort()).toEqual(['amplitude', 'blue', 'gpsTime', 'green', 'intensity', 'red', 'scanAngle']);
      expect(await readdir(dir)).toHaveLength(7);

      const back = [...spilled.chunks(cloud, 4096)];
      expect(back.map((c) => c.count)).toEqual([4096, 4096, 1811]);
      const joined = await gatherCloud(back);
      for (const name of ['x', 'y', 'z', 'classification', 'returnNumber', 'intensity', 'gpsTime', 'scanAngle']) {
        expect(joined[name as 'x'], name).toEqual(whole[name as 'x']);
      }
      expect(joined.red).toEqual(whole.red);
      expect(joined.blue).toEqual(whole.blue);
      expect(joined.extra?.amplitude).toEqual(whole.extra?.amplitude);
      expect(joined.gpsTime![10_002]).toBe(1e9 + 10.002);
    } finally {
      spilled.close();
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('reads back only the dimensions asked for, and a column set on the cloud wins over its spilled copy', async () => {
    const { cloud, spilled } = await gatherCloudSpilled(chunksOf(3000, 512), {}, { spill: { dir, keep: [] } });
    try {
      const [first] = spilled.chunks(cloud, 1000, new Set(['intensity']));
      expect(first!.intensity![999]).toBe((999 * 31) % 65536);
      expect(first!.gpsTime).toBeUndefined();
      expect(first!.extra).toBeUndefined();
      expect(cloud.classification).toBeUndefined();
      expect(spilled.read(2998, 3000).classification).toEqual(new Uint8Array([2998 % 7, 2999 % 7]));

      const red = new Uint16Array(3000).fill(7);
      const coloured = [...spilled.chunks({ ...cloud, red }, 1000)];
      expect(coloured[2]!.red![999]).toBe(7);
      expect(coloured[2]!.green![999]).toBe((2999 * 7) % 65536);
      expect(() => [...spilled.chunks({ ...cloud, count: 2999 })]).toThrow(/3000 points/);
    } finally {
      spilled.close();
      spilled.close();
    }
  });

  it('deletes its files when the gathering fails', async () => {
    async function* failing(): AsyncIterable<PointChunk> {
      yield* chunksOf(2000, 1000);
      throw new Error('unreadable chunk');
    }
    await expect(gatherCloudSpilled(failing(), {}, { spill: { dir, keep: ['classification'] } })).rejects.toThrow(
      'unreadable chunk',
    );
    expect(await readdir(dir)).toEqual([]);
  });
});
