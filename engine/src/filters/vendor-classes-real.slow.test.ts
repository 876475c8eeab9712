import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { INLINE_DECODE, terrainUnits } from '../products/product-values.js';
import { openPointCloud } from '../readers/index.js';
import { classifyCloudTiled } from './classify.filter.js';
import { gatherCloud } from './cloud.js';

/**
 * Input classes that are not ours to change stay as they are: `wires.laz`
 * carries 2,412 vendor water points (class 9); after the default
 * classification (the one `nuage process` runs) every one is still 9, and
 * none of them is counted as ground.
 */
describe.runIf(hasRealData())('vendor classes kept on a real file', () => {
  it('wires.laz: its 2,412 water points (class 9) stay class 9', async () => {
    const reader = await openPointCloud(realFile('wires.laz'));
    const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
    await reader.close();
    const vendor = cloud.classification!.slice();
    let water = 0;
    for (let i = 0; i < cloud.count; i++) water += vendor[i] === 9 ? 1 : 0;
    expect(water).toBe(2412);
    const result = await classifyCloudTiled(cloud, terrainUnits(reader.crs));
    let kept = 0;
    let waterGround = 0;
    for (let i = 0; i < cloud.count; i++) {
      if (vendor[i] !== 9) continue;
      kept += result.classification[i] === 9 ? 1 : 0;
      waterGround += result.ground[i]!;
    }
    expect(kept).toBe(2412);
    expect(waterGround).toBe(0);
    expect(result.counts[9]).toBe(2412);
    expect(result.counts[2]).toBeGreaterThan(100_000);
  }, 600_000);
});
