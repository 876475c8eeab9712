import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { DIMENSIONS, type DimensionName } from '../core/dimensions.js';
import { footprintAgreement } from '../products/buildings.metrics.js';
import { extractBuildings } from '../products/buildings.product.js';
import { buildDtm } from '../products/dtm.product.js';
import { INLINE_DECODE, rasterCrsOf, terrainUnits } from '../products/product-values.js';
import { openPointCloud } from '../readers/index.js';
import { classifyCloud } from './classify.filter.js';
import { gatherCloud } from './cloud.js';

/**
 * False buildings in real forests and in sparse copies of real clouds: the
 * guard of every rule that adds building points (sparse clouds, low roofs,
 * returns of many on roof faces, small clusters).
 *
 * A false building point is one we label 6 where the vendor does not. The
 * forests hold no vendor class 6 (bcts_*, Megaplot, MixedConifer: classes
 * 1, 2 and 11 only), so all our building points there are false. wires.laz
 * is a transmission corridor the vendor left unclassified (1, 2, 5, 9): its
 * figures are a ceiling, not all false. The false footprint area is the area
 * of our footprints (RURAL, from our class 6) off the vendor's building
 * occupancy (`footprintAgreement`, 0.5 m cells, closed like the footprints).
 * Thinned copies keep every k-th point in file order (k = 4, 8, 16: down to
 * 0.2–2 points/m², like the IGN LiDAR HD file); the bcts tiles (0.5–0.9 M
 * points) and wires.laz run thinned only, to keep the test short. On the
 * thinned fusa and Williams copies the footprint IoU against the vendor has
 * a floor too (sparse recall).
 *
 * Ceilings: the figures measured on 2026-11-28 (default options) plus
 * max(3, 10 %) points and max(10 m², 10 %); IoU floors: measured − 0.01.
 * Measured (false points, false area m²; IoU where the vendor has buildings):
 * MixedConifer 0, 0 | 1/4 25, 15 | 1/8 25, 25; Megaplot 30, 30 | 1/4 43, 46 |
 * 1/8 11, 0; bcts_1 1/16 22, 0; bcts_2 1/16 45, 13; bcts_3 1/16 99, 44;
 * bcts_4 1/8 24, 15; wires 1/16 712, 497; fusa 1/4 505, 565, 0.889 | 1/8
 * 675, 1282, 0.831; Williams 1/8 155, 333, 0.566 | 1/16 90, 301, 0.604.
 *
 * Rules tried on 2026-11-28 for the IGN file and left out by this guard or
 * for no gain (IGN IoU RURAL / URBAN 0.753 / 0.764 before):
 * - small roofs (`smallRoofs`) of any candidate height (2–2.5 m, low roofs):
 *   0.752 / 0.763;
 * - `smallRoofs` beside a building with 75 % of inliers instead of 90 %:
 *   0.757 / 0.768, but fusa 1/8 +27 false points, 0 true, IoU 0.831 → 0.826
 *   (limited to clusters no higher than the building touched or with under
 *   10 % of pulses of many returns: 0.754 / 0.765–0.766, fusa still +3–7);
 * - `smallRoofs` with 3 points beside a building, 6 alone, 400 at most, or
 *   50 % of pulses of many beside a building: ±0.000;
 * - a sparse minimum roof height of 2 m instead of 2.5 m: IGN point
 *   precision 0.954 → 0.944, fusa 1/8 +97 false points;
 * - `growRoofs`: first returns of many on a kept face's plane among up to
 *   40 % of pulses of many: ±0.000; single returns up to 3 m below the
 *   building in reach with under 10 % (or none) of pulses of many around:
 *   0.757 / 0.768 (0.754 / 0.766), but fusa 1/8 +19 (+16) false points and
 *   IoU 0.831 → 0.828;
 * - `growRoofs` continuing faces over points within 0.25 m (0.4 m) of their
 *   planes instead of 0.1 m: 0.755 / 0.766 (0.757 / 0.769, IGN point
 *   precision 0.951), Williams 1/16 0.604 → 0.608 (0.613), but fusa 1/8 +4
 *   (+17) false points, IoU 0.831 → 0.830 (0.829).
 * On the IGN file 60 % of the vendor occupancy our class-6 occupancy misses
 * lies within 2 m (one point spacing) of it: the outer row of roof points.
 */
interface Case {
  file: string;
  /** Keep every `thin`-th point (1: all). */
  thin: number;
  /** Ceilings: false building points, false footprint area in m². */
  points: number;
  areaM2: number;
  /** Floor of the footprint IoU against the vendor's class 6 (files with vendor buildings). */
  iou?: number;
}

const CASES: Case[] = [
  { file: 'MixedConifer.laz', thin: 1, points: 3, areaM2: 10 },
  { file: 'MixedConifer.laz', thin: 4, points: 28, areaM2: 25 },
  { file: 'MixedConifer.laz', thin: 8, points: 28, areaM2: 35 },
  { file: 'Megaplot.laz', thin: 1, points: 33, areaM2: 40 },
  { file: 'Megaplot.laz', thin: 4, points: 48, areaM2: 56 },
  { file: 'Megaplot.laz', thin: 8, points: 14, areaM2: 10 },
  { file: 'bcts_1.laz', thin: 16, points: 25, areaM2: 10 },
  { file: 'bcts_2.laz', thin: 16, points: 50, areaM2: 23 },
  { file: 'bcts_3.laz', thin: 16, points: 109, areaM2: 54 },
  { file: 'bcts_4.laz', thin: 8, points: 27, areaM2: 25 },
  { file: 'wires.laz', thin: 16, points: 784, areaM2: 547 },
  { file: 'fusa.laz', thin: 4, points: 556, areaM2: 622, iou: 0.879 },
  { file: 'fusa.laz', thin: 8, points: 743, areaM2: 1411, iou: 0.821 },
  { file: 'building_WilliamsAZ_Urban_normalized.laz', thin: 8, points: 171, areaM2: 367, iou: 0.556 },
  { file: 'building_WilliamsAZ_Urban_normalized.laz', thin: 16, points: 99, areaM2: 332, iou: 0.594 },
];

/** Every `k`-th point of a cloud, all dimensions kept. */
function thinCloud(cloud: PointChunk, k: number): PointChunk {
  if (k === 1) return cloud;
  const n = Math.ceil(cloud.count / k);
  const out: Record<string, unknown> = { count: n };
  for (const name of Object.keys(DIMENSIONS) as DimensionName[]) {
    const src = cloud[name] as Float64Array | Uint8Array | undefined;
    if (!src) continue;
    const dst: Float64Array | Uint8Array = new (src.constructor as new (size: number) => Float64Array | Uint8Array)(n);
    for (let i = 0; i < n; i++) dst[i] = src[i * k]!;
    out[name] = dst;
  }
  return out as unknown as PointChunk;
}

interface Loaded {
  cloud: PointChunk;
  crs: Awaited<ReturnType<typeof openPointCloud>>['crs'];
}

/** Each file read once for its cases. */
const clouds = new Map<string, Promise<Loaded>>();
function load(file: string): Promise<Loaded> {
  let p = clouds.get(file);
  if (!p) {
    p = (async () => {
      const reader = await openPointCloud(realFile(file));
      const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
      await reader.close();
      return { cloud, crs: reader.crs };
    })();
    clouds.set(file, p);
  }
  return p;
}

describe.runIf(hasRealData())('no false buildings in real forests and sparse copies', () => {
  for (const c of CASES) {
    it(`${c.file} 1/${c.thin}: false building points <= ${c.points}, false footprint <= ${c.areaM2} m²`, async () => {
      const { cloud: full, crs } = await load(c.file);
      const cloud = thinCloud(full, c.thin);
      const vendor = cloud.classification!.slice();
      const units = terrainUnits(crs);
      const { classification } = classifyCloud(cloud, units);
      let falsePoints = 0;
      let truePoints = 0;
      let vendorPoints = 0;
      for (let i = 0; i < cloud.count; i++) {
        if (vendor[i] === 6) vendorPoints++;
        if (classification[i] !== 6) continue;
        if (vendor[i] === 6) truePoints++;
        else falsePoints++;
      }
      const dtm = await buildDtm(
        { chunks: [{ ...cloud, classification }], crs: rasterCrsOf(crs) },
        { resolutionCm: 50, unitToMetre: units.unitToMetre },
      );
      const res = extractBuildings(cloud, classification, dtm, units, { simplification: 'RURAL' });
      const f = footprintAgreement(
        cloud,
        vendor,
        res.buildings.map((b) => b.rings),
        units.unitToMetre,
        res.closingCells,
      );
      const falseArea = f.falseAreaM2;
      console.log(
        `FOREST ${c.file} 1/${c.thin}: ${cloud.count} pts, false points ${falsePoints}, ` +
          `false area ${falseArea.toFixed(0)} m², footprints ${f.footprintBuildings}/${f.referenceBuildings}` +
          (vendorPoints > 0 ? `, true points ${truePoints}/${vendorPoints}, IoU ${f.iou.toFixed(3)}` : ''),
      );
      expect(falsePoints).toBeLessThanOrEqual(c.points);
      expect(falseArea).toBeLessThanOrEqual(c.areaM2);
      if (c.iou !== undefined) expect(f.iou).toBeGreaterThanOrEqual(c.iou);
      else expect(vendorPoints).toBe(0);
    }, 120_000);
  }
});
