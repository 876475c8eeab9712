import { loadCloud } from '@nuage/engine/edit/edit-file.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, describe, expect, it } from 'vitest';
import { closePreviewThread, previewInThread } from './edit-preview.thread.js';

/** The whole world as a map polygon: every point is inside, the class and Z filters decide. */
const WORLD = {
  kind: 'map' as const,
  polygon: [
    [-179, -85],
    [179, -85],
    [179, 85],
    [-179, 85],
  ] as [number, number][],
};

describe('classification-edit previews in a worker thread (MixedConifer.laz)', () => {
  const file = realFile('MixedConifer.laz');
  afterAll(() => closePreviewThread());

  it('counts exactly what the edit would change, reads the file once per key, and again for a new key', async () => {
    const { cloud } = await loadCloud(file);
    const count = (cls: number, minZ = -Infinity, maxZ = Infinity) => {
      let n = 0;
      for (let i = 0; i < cloud.count; i++) {
        const z = cloud.z[i]!;
        if (cloud.classification![i] === cls && z >= minZ && z <= maxZ) n++;
      }
      return n;
    };
    let fetches = 0;
    const fetch = async () => {
      fetches++;
      return { path: file, done: async () => {} };
    };

    const ground = await previewInThread('run-1/cloud.las', { region: WORLD, fromClasses: [2], toClass: 6 }, fetch);
    expect(ground.total).toBe(count(2));
    expect(ground.byClass).toEqual({ '2': count(2) });
    expect(fetches).toBe(1);

    // The next preview of the same file is counted on the cloud the thread kept.
    const zs = [...cloud.z.subarray(0, cloud.count)].sort((a, b) => a - b);
    const mid = zs[Math.floor(zs.length / 2)]!;
    const other = cloud.classification!.find((c) => c !== 2)!; // the file's other class
    const high = await previewInThread(
      'run-1/cloud.las',
      { region: WORLD, fromClasses: [other], minZ: mid, toClass: 6 },
      fetch,
    );
    expect(high.total).toBe(count(other, mid));
    expect(high.total).toBeGreaterThan(0);
    expect(fetches).toBe(1);

    // Another run's file: read again.
    const again = await previewInThread('run-2/cloud.las', { region: WORLD, fromClasses: [2], toClass: 6 }, fetch);
    expect(again.total).toBe(count(2));
    expect(fetches).toBe(2);
  }, 120_000);

  it("passes on the engine's refusal of a file that is not a point cloud", async () => {
    const err = await previewInThread('run-3/cloud.las', { region: WORLD, toClass: 6 }, async () => ({
      path: import.meta.filename,
      done: async () => {},
    })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/LAS|signature|LASF/i);
  }, 60_000);
});
