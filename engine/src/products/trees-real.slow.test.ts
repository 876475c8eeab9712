import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { openPointCloud } from '../readers/index.js';
import { writeMosaic } from '../writers/mosaic.writer.js';
import { processingOptionsSchema } from './options.js';
import { runProducts } from './run-products.js';
import type { TreeCrownsValue } from './tree-crowns.product.js';

const TILES = ['bcts_1.laz', 'bcts_2.laz', 'bcts_3.laz', 'bcts_4.laz'];

describe.runIf(hasRealData())('forestry on the four bcts tiles as one project', () => {
  it('splits no tree along the tile seams', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-bcts-trees-'));
    // The tiles are stacked south to north: their shared edges are the seams.
    const seams: number[] = [];
    for (const name of TILES.slice(1)) {
      const reader = await openPointCloud(realFile(name));
      seams.push(reader.header.min[1]);
      await reader.close();
    }
    expect(seams).toEqual([629400, 629700, 630000]);
    const mosaic = await writeMosaic(TILES.map(realFile), dir);
    let value: TreeCrownsValue | undefined;
    const { runs } = await runProducts({
      input: { path: mosaic },
      options: processingOptionsSchema.parse({ products: ['tree-crowns'] }),
      outDir: path.join(dir, 'out'),
      hooks: {
        finished: async (p, r) => {
          if (p.id === 'tree-crowns') value = r.value as TreeCrownsValue;
        },
      },
    });
    expect(runs.every((r) => r.status === 'READY')).toBe(true);
    const { crowns, tops } = value!;
    expect(tops.tops.length).toBeGreaterThan(3000);
    for (const seam of seams) {
      // Crowns reaching well across the seam on both sides: trees were grown across it, not cut by it.
      const across = crowns.filter((c) => {
        const ys = c.ring?.map((p) => p[1]!) ?? [];
        return Math.min(...ys) < seam - 1 && Math.max(...ys) > seam + 1;
      });
      expect(across.length, `seam y = ${seam}`).toBeGreaterThanOrEqual(10);
      // And no two tops face each other across it, as the two halves of one split tree would.
      const near = tops.tops.filter((t) => Math.abs(t.y - seam) < 2);
      for (const a of near) {
        for (const b of near) {
          if (a.y < seam && b.y >= seam) expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(1.5);
        }
      }
    }
  }, 120_000);
});
