import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { footprintAgreement } from '../products/buildings.metrics.js';
import { extractBuildings } from '../products/buildings.product.js';
import { buildDtm } from '../products/dtm.product.js';
import { INLINE_DECODE, rasterCrsOf, terrainUnits } from '../products/product-values.js';
import { buildingAgreement } from '../products/quality.metrics.js';
import { openPointCloud } from '../readers/index.js';
import { classifyCloud } from './classify.filter.js';
import { gatherCloud } from './cloud.js';

/**
 * Buildings (class 6) of the whole classification, default options (ONE
 * parameter set), against the vendor's class 6 on real files: point recall
 * and precision, and the footprints the BUILDINGS product draws from our
 * class 6 against the vendor's class 6 rasterised at 0.5 m (IoU, building
 * count error, mean outline error; see `footprintAgreement`). Floors are the
 * figures measured on 2026-11-26 (Williams and IGN: 2026-11-27, with the
 * roof edges of `roofEdges`) less about 0.01–0.02, a regression guard.
 *
 * Measured (points R / P; footprints RURAL and URBAN: IoU, count, outline):
 * - AHN3: 0.879 / 0.978; 0.905 35/34 0.38 m, 0.907 35/34 0.38 m (sheds of
 *   10–20 m² and 2–2.5 m high now found: 22 of 34 buildings before; 0.873 /
 *   0.978, 0.902 35/34, 0.905 37/34 before the roof edges).
 * - IGN: 0.819 / 0.951 (0.2–0.4 points/m², a handful per roof face: the
 *   sparse end of what roof faces can be fitted on). Against the vendor
 *   occupancy closed over the footprints' own closing (4 cells; the one-cell
 *   closing leaves it a speckle): 0.713 696/700 0.46 m, 0.724 714/700 0.43 m
 *   (2026-11-27, roofs continued by `growRoofs`; 0.753 / 0.955, 0.625
 *   755/700 0.56 m, 0.625 762/700 0.53 m before; 0.744 / 0.956, 0.611
 *   754/700, 0.610 755/700 before the roof edges). From the vendor's classes
 *   the footprints reach 0.874 / 0.910.
 * - fusa: 0.994 / 0.962; 0.933 16/16 0.35 m, 0.935 17/16 0.36 m (tree crowns
 *   dropped by the canopy test: 21/16 before).
 * - Williams: 0.901 / 0.953; 0.831 90/89 0.37 m, 0.839 90/89 0.36 m (0.871 /
 *   0.955; 0.818 89/89 0.40 m, 0.823 92/89 0.40 m before the roof edges;
 *   from the vendor's classes the footprints reach 0.902 / 0.923).
 *
 * 2026-11-27, RURAL edges refitted through the traced boundary they replace
 * (instead of Douglas–Peucker's outer corners) and two passes of roof edges:
 * - AHN3: 0.880 / 0.978; 0.924 35/34 0.30 m, 0.907 36/34 0.39 m.
 * - IGN: 0.819 / 0.951; 0.726 713/700 0.42 m, 0.724 714/700 0.43 m (from the
 *   vendor's classes 0.912 / 0.910).
 * - fusa: 0.994 / 0.962; 0.941 16/16 0.32 m, 0.934 16/16 0.36 m.
 * - Williams: 0.908 / 0.952; 0.850 89/89 0.33 m, 0.843 89/89 0.35 m (from
 *   the vendor's classes 0.928 / 0.923).
 *
 * 2026-11-27, `growRoofs` keeps the single returns of kept roof faces among
 * up to 40 % of pulses of many returns (30 % for the rest) and grows returns
 * of many only among 15 % (25 % before): IGN 0.827 / 0.952; 0.736 724/700
 * 0.41 m, 0.734 724/700 0.41 m (a copy thinned to every other point: 0.569
 * / 0.564, 0.567 / 0.563 before). AHN3, fusa and Williams unchanged (not
 * sparse).
 *
 * 2026-11-27, `growRoofs` continues kept roof faces over the points within
 * 10 cm of their planes (among up to 30 % of pulses of many returns, at any
 * height), and URBAN snaps within 15° and merges parallel edges within 0.3 m
 * (25° and 0.6 m before):
 * - AHN3: 0.880 / 0.978; 0.924 35/34 0.30 m, 0.916 36/34 0.34 m.
 * - IGN: 0.831 / 0.952; 0.740 725/700 0.40 m, 0.751 717/700 0.38 m.
 * - fusa: 0.994 / 0.962; 0.941 16/16 0.32 m, 0.942 16/16 0.33 m.
 * - Williams: 0.908 / 0.952; 0.850 89/89 0.33 m, 0.850 89/89 0.33 m.
 * Measured with the classification as it was before the wire changes of
 * the same day (these label some 3,000 IGN building points as wire).
 *
 * 2026-11-27, sparse clouds: small groups dropped when many points lie just
 * off their planes (`SPARSE_NEAR_RATIO`), and roof-face points among many
 * pulses of many returns kept when no foliage lies around them at their
 * level, under them or over them (`growRoofs`): IGN 0.8369 / 0.9521 →
 * 0.8388 / 0.9538; 0.746 718/700 0.39 m → 0.749 705/700 0.39 m, 0.757
 * 710/700 0.37 m → 0.760 698/700 0.37 m. AHN3, fusa and Williams unchanged
 * (not sparse).
 *
 * 2026-11-27, sparse clouds: small roofs fitted whole (`smallRoofs`:
 * clusters of single returns on one plane or two meeting in a ridge, alone
 * with 8 points and 20 m², or of 4 points beside a building): IGN 0.8388 /
 * 0.9538 → 0.8422 / 0.9536; 0.749 705/700 0.39 m → 0.753 707/700 0.38 m,
 * 0.760 698/700 0.37 m → 0.764 699/700 0.37 m. AHN3, fusa and Williams
 * unchanged (not sparse). A gable model in the per-point robust fit was
 * tried and left out: +7 IGN roof points only, and 31 false ones in the
 * crowns of fusa thinned to 1/8.
 *
 * 2026-11-28, unchanged (AHN3 0.880 / 0.978, 0.924 / 0.916; IGN 0.842 /
 * 0.954, 0.753 707/700 0.38 m, 0.764 699/700 0.37 m; fusa 0.994 / 0.962,
 * 0.941 / 0.942; Williams 0.908 / 0.952, 0.850 / 0.850). The log now splits
 * the footprint error (`falseAreaM2`, `missedAreaM2`; "alone": in buildings
 * the other side does not touch). IGN RURAL: of 102,373 m² of vendor
 * occupancy 20,471 m² missed, only 3,697 m² of it in buildings we miss
 * whole; 6,442 m² false, 340 m² of it in footprints on no vendor building.
 * Our class-6 occupancy closed like the footprints reaches 0.798 against the
 * vendor's (the polygons 0.753). The rules tried that day for the rest (low
 * roofs, returns of many on face planes, small clusters beside buildings)
 * and why they were left out: see buildings-forest.slow.test.ts.
 */
interface Case {
  file: string;
  epsg?: number;
  recall: number;
  precision: number;
  /** Footprint floors (IoU) and ceilings (count error, outline error in metres). */
  iou: number;
  countError: number;
  outline: number;
  /** Compare against the vendor occupancy closed like the footprints (sparse clouds). */
  adapted?: boolean;
}

const CASES: Case[] = [
  {
    file: 'ahn3_cropped_1.laz',
    epsg: 28992,
    recall: 0.86,
    precision: 0.97,
    iou: 0.89,
    countError: 0.1,
    outline: 0.42,
  },
  {
    file: 'test_semis_2021_0382_6565_LA93_IGN69_cropped.laz',
    recall: 0.83,
    precision: 0.95,
    iou: 0.74,
    countError: 0.05,
    outline: 0.48,
    adapted: true,
  },
  { file: 'fusa.laz', recall: 0.98, precision: 0.95, iou: 0.92, countError: 0.07, outline: 0.4 },
  {
    file: 'building_WilliamsAZ_Urban_normalized.laz',
    recall: 0.89,
    precision: 0.95,
    iou: 0.83,
    countError: 0.05,
    outline: 0.4,
  },
];

describe.runIf(hasRealData())('buildings against vendor class 6 on real files (one parameter set)', () => {
  for (const c of CASES) {
    it(`${c.file}: recall >= ${c.recall}, precision >= ${c.precision}, footprint IoU >= ${c.iou}`, async () => {
      const reader = await openPointCloud(realFile(c.file), c.epsg ? { epsg: c.epsg } : {});
      const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
      await reader.close();
      const vendor = cloud.classification!.slice();
      const units = terrainUnits(reader.crs);
      const { classification } = classifyCloud(cloud, units);
      const q = buildingAgreement(classification, vendor, cloud.count);
      expect(q.referenceBuilding).toBeGreaterThan(40_000);
      expect(q.recall).toBeGreaterThanOrEqual(c.recall);
      expect(q.precision).toBeGreaterThanOrEqual(c.precision);

      // Footprints from our class 6 only (the vendor's is the reference).
      const dtm = await buildDtm(
        { chunks: [{ ...cloud, classification }], crs: rasterCrsOf(reader.crs) },
        { resolutionCm: 50, unitToMetre: units.unitToMetre },
      );
      const figures: Record<string, string> = {};
      for (const mode of ['RURAL', 'URBAN'] as const) {
        const res = extractBuildings(cloud, classification, dtm, units, { simplification: mode });
        const polygons = res.buildings.map((b) => b.rings);
        const f = footprintAgreement(cloud, vendor, polygons, units.unitToMetre, c.adapted ? res.closingCells : 1);
        figures[mode] =
          `IoU ${f.iou.toFixed(3)}, ${f.footprintBuildings}/${f.referenceBuildings}, ` +
          `outline ${f.outlineErrorM.toFixed(2)} m`;
        figures[mode] +=
          `, false ${f.falseAreaM2.toFixed(0)} (alone ${f.falseAloneAreaM2.toFixed(0)}), ` +
          `missed ${f.missedAreaM2.toFixed(0)} (alone ${f.missedAloneAreaM2.toFixed(0)}) of ${f.referenceAreaM2.toFixed(0)} m²`;
        expect(f.iou, `${mode} IoU`).toBeGreaterThanOrEqual(c.iou);
        expect(f.countError, `${mode} count error`).toBeLessThanOrEqual(c.countError);
        expect(f.outlineErrorM, `${mode} outline`).toBeLessThanOrEqual(c.outline);
      }
      console.log(c.file, `points R ${q.recall.toFixed(3)} P ${q.precision.toFixed(3)}`, JSON.stringify(figures));
    }, 300_000);
  }
});
