import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { INLINE_DECODE, terrainUnits } from '../products/product-values.js';
import { openPointCloud } from '../readers/index.js';
import { findBuildings, findBuildingsParallel } from './buildings.js';
import { classifyCloud } from './classify.filter.js';
import { gatherCloud } from './cloud.js';

describe.runIf(hasRealData())('roof plane fits in worker threads', () => {
  it('give the buildings of one thread, point for point (fusa.laz)', async () => {
    const reader = await openPointCloud(realFile('fusa.laz'));
    const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
    await reader.close();
    const units = terrainUnits(reader.crs);
    const { classification, hag, ground } = classifyCloud(cloud, units);
    const noise = Uint8Array.from(classification, (c) => (c === 7 || c === 18 ? c : 0));
    const isGround = Uint8Array.from(ground);
    const options = {
      minHeight: 2,
      minArea: 10,
      roofPlanarity: 0.1,
      unitToMetre: units.unitToMetre,
      verticalUnitToMetre: units.verticalUnitToMetre,
    };
    const one = findBuildings(cloud, isGround.slice(), noise, hag, options);
    // Every candidate in threads (the default waits for 400 k), in 2 and in 3 threads' ranges.
    const two = await findBuildingsParallel(cloud, isGround.slice(), noise, hag, options, 2, 0);
    const three = await findBuildingsParallel(cloud, isGround.slice(), noise, hag, options, 3, 0);
    let buildingPoints = 0;
    for (let i = 0; i < cloud.count; i++) buildingPoints += one[i]!;
    expect(buildingPoints).toBeGreaterThan(20_000);
    expect(two).toEqual(one);
    expect(three).toEqual(one);
  }, 180_000);
});
