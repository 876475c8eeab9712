import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { corridorScene } from '@nuage/fixtures/synthetic/corridor-scene.js';
import { describe, expect, it } from 'vitest';
import { openPointCloud } from '../readers/index.js';
import { classifyCloud, classifyCloudTiled } from './classify.filter.js';
import { gatherCloud } from './cloud.js';
import { findWires, VoxelIndex } from './wires.filter.js';

describe('VoxelIndex', () => {
  it('finds every point within a radius, cell by cell in (dx, dy, dz) order and index order within a cell', () => {
    // Deterministic pseudo-random points around the origin (negative cells too), some stacked in one cell.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const n = 3000;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    const z = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = i % 10 === 0 ? 0.5 : random() * 40 - 20;
      y[i] = i % 10 === 0 ? 0.5 : random() * 40 - 20;
      z[i] = i % 10 === 0 ? 0.5 : random() * 10 - 5;
    }
    const cell = 2;
    const index = new VoxelIndex(x, y, z, cell);
    const c = (v: number) => Math.floor(v / cell);
    for (const [q, r] of [
      [0, 2],
      [17, 3],
      [123, 1.2],
      [2999, 2],
    ] as const) {
      const found: number[] = [];
      index.near(x[q]!, y[q]!, z[q]!, r, (j) => {
        found.push(j);
      });
      const expected: number[] = [];
      for (let j = 0; j < n; j++) {
        if ((x[j]! - x[q]!) ** 2 + (y[j]! - y[q]!) ** 2 + (z[j]! - z[q]!) ** 2 <= r * r) expected.push(j);
      }
      // The same points, in the order of a scan of cells (dx, then dy, then dz) and of indices within a cell.
      const rank = (j: number) => [c(x[j]!), c(y[j]!), c(z[j]!), j];
      expected.sort((a, b) => {
        const [ra, rb] = [rank(a), rank(b)];
        for (let k = 0; k < 4; k++) if (ra[k] !== rb[k]) return ra[k]! - rb[k]!;
        return 0;
      });
      expect(found).toEqual(expected);
    }
    // cells(): every point of the block of cells, and a stop when the callback returns true.
    const inBlock: number[] = [];
    index.cells(0, 0, 0, 1, 0, (j) => {
      inBlock.push(j);
    });
    const block = [...Array(n).keys()].filter(
      (j) => Math.abs(c(x[j]!)) <= 1 && Math.abs(c(y[j]!)) <= 1 && c(z[j]!) === 0,
    );
    expect(inBlock.sort((a, b) => a - b)).toEqual(block);
    let calls = 0;
    index.cells(0, 0, 0, 1, 0, () => ++calls === 5);
    expect(calls).toBe(5);
  });
});

/** Point F1 of class `code` against a reference, and the recall and precision of `other`. */
function agreement(ours: Uint8Array, reference: Uint8Array, code: number, other: number) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let otherTp = 0;
  let otherAll = 0;
  let otherOurs = 0;
  for (let i = 0; i < ours.length; i++) {
    if (ours[i] === code && reference[i] === code) tp++;
    else if (ours[i] === code) fp++;
    else if (reference[i] === code) fn++;
    if (ours[i] === other) otherOurs++;
    if (reference[i] === other) {
      otherAll++;
      if (ours[i] === other) otherTp++;
    }
  }
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  return {
    f1: (2 * precision * recall) / (precision + recall),
    precision,
    recall,
    otherRecall: otherTp / otherAll,
    otherPrecision: otherTp / otherOurs,
  };
}

/** A real cloud with its input classes hidden from the classifier (all 1), and those classes as the reference. */
async function readHidden(file: string, epsg?: number) {
  const reader = await openPointCloud(realFile(file), epsg === undefined ? {} : { epsg });
  const cloud = await gatherCloud(reader.read({ workers: 0 }));
  await reader.close();
  const vendor = cloud.classification!.slice();
  cloud.classification!.fill(1);
  return { cloud, vendor };
}

describe('wire and tower classification', () => {
  it('finds the conductors and towers of a synthetic corridor, and nothing in the trees', () => {
    const scene = corridorScene();
    const { classification } = classifyCloud(scene.chunk, { unitToMetre: 1 });
    const a = agreement(classification, scene.truth, 14, 15);
    expect(a.f1).toBeGreaterThan(0.97);
    expect(a.otherRecall).toBeGreaterThan(0.6);
    let treesAsWire = 0;
    for (let i = 0; i < scene.truth.length; i++) if (scene.truth[i] === 5 && classification[i] === 14) treesAsWire++;
    expect(treesAsWire).toBe(0);
  });

  it.runIf(hasRealData())(
    'labels the AHN corridor’s conductors (F1 ≥ 0.93) and towers (recall ≥ 0.9, precision ≥ 0.8) as AHN did',
    async () => {
      const { cloud, vendor } = await readHidden('ahn_corridor_12AN2_20.laz', 28992);
      const { classification } = await classifyCloudTiled(cloud, { unitToMetre: 1 });
      const a = agreement(classification, vendor, 14, 15);
      // Measured (input classes hidden): precision 0.995, recall 0.93, F1 0.96; towers recall 0.95, precision
      // 0.84 (0.12 when the ends of runs cut by crowns under the line counted as pylons, crowns and all).
      // What is left over is unlabelled (1) or wire (14) on the pylon's cross-arms, 20 to 40 m up.
      expect(a.f1).toBeGreaterThanOrEqual(0.93);
      expect(a.otherRecall).toBeGreaterThanOrEqual(0.9);
      expect(a.otherPrecision).toBeGreaterThanOrEqual(0.8);
    },
    60_000,
  );

  it.runIf(hasRealData())(
    'finds part of the distribution lines in Williams (below the 0.8 F1 target: see the issue note)',
    async () => {
      const { cloud, vendor } = await readHidden('building_WilliamsAZ_Urban_normalized.laz');
      const { classification } = await classifyCloudTiled(cloud, { unitToMetre: 1 });
      const a = agreement(classification, vendor, 14, 15);
      // Measured (input classes hidden): precision 0.803, recall 0.256 (F1 0.388); 0.85 / 0.15 / 0.26 before the
      // tube test ran by default. Of the vendor's 4,799 class-14 returns, 3,082 lie in groups (returns linked
      // within 2.5 m) spanning less than 5 m, mostly lone returns on the rims of crowns and roofs: on no line.
      expect(a.precision).toBeGreaterThan(0.8);
      expect(a.recall).toBeGreaterThan(0.25);
      expect(a.f1).toBeGreaterThan(0.38);
    },
    60_000,
  );

  it.runIf(hasRealData())(
    'labels few returns of the IGN tile (no wire) as wire: nothing is seen under its sparsely scanned roofs',
    async () => {
      const { cloud } = await readHidden('test_semis_2021_0382_6565_LA93_IGN69_cropped.laz');
      const { classification } = await classifyCloudTiled(cloud, { unitToMetre: 1 });
      let wires = 0;
      for (const c of classification) wires += c === 14 ? 1 : 0;
      // Measured: 98 (406 before the opacity test, 372 of them on the vendor's roofs: rows of returns along the
      // scan lines, with no return under them).
      expect(wires).toBeLessThan(150);
    },
    60_000,
  );

  it.runIf(hasRealData())(
    'finds more of the sparse distribution lines in Williams with the tube tests (`sparse`, `besideWires`)',
    async () => {
      const { cloud, vendor } = await readHidden('building_WilliamsAZ_Urban_normalized.laz');
      // The classifier's ground, noise and heights, then the wires as classifyCloud finds them, without and with
      // the tube tests.
      const { classification, hag } = await classifyCloudTiled(cloud, { unitToMetre: 1, wires: false });
      const excluded = classification.map((c) => (c === 2 || c === 7 || c === 18 ? 1 : 0));
      const plain = findWires(cloud, hag, excluded, { unitToMetre: 1, sparse: false });
      const beside = findWires(cloud, hag, excluded, { unitToMetre: 1, besideWires: true });
      const before = agreement(plain.classes, vendor, 14, 15);
      const a = agreement(beside.classes, vendor, 14, 15);
      // Measured: precision 0.776, recall 0.274, F1 0.404 (0.85 / 0.15 / 0.26 without the tube tests; 0.803 /
      // 0.256 / 0.388 without `besideWires`, the default). Most of the rest missed runs through street trees;
      // the returns `besideWires` adds wrongly are mostly leaves within 2 m of a conductor.
      expect(a.f1).toBeGreaterThan(before.f1 + 0.1);
      expect(a.precision).toBeGreaterThan(0.77);
      expect(a.recall).toBeGreaterThan(0.27);
      expect(a.f1).toBeGreaterThan(0.4);
    },
    120_000,
  );
});

describe('wires wherever they lie', () => {
  /**
   * A lone straight line of returns `spacing` apart, 9 m above the ground (HAG), starting (dx, dy) from a
   * first, excluded return that is the filter's origin, along `angle`, with an excluded ground return under
   * each (unless `opaque`: nothing seen under it, as a row of returns on a roof); the wire returns found.
   */
  function lineFound(dx: number, dy: number, angle: number, length: number, spacing: number, opaque = false): number {
    const count = Math.floor(length / spacing) + 1;
    const n = opaque ? count + 1 : 2 * count + 1;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    const z = new Float64Array(n);
    const hag = new Float32Array(n);
    const excluded = new Uint8Array(n);
    x[0] = 500_000.25;
    y[0] = 4_200_000.75;
    z[0] = 100;
    excluded[0] = 1;
    for (let i = 0; i < count; i++) {
      x[i + 1] = x[0] + dx + i * spacing * Math.cos(angle);
      y[i + 1] = y[0] + dy + i * spacing * Math.sin(angle);
      z[i + 1] = 109 + 0.01 * i;
      hag[i + 1] = 9 + 0.01 * i;
    }
    for (let i = count + 1; i < n; i++) {
      x[i] = x[i - count]!;
      y[i] = y[i - count]!;
      z[i] = 100;
      excluded[i] = 1;
    }
    const { classes } = findWires({ count: n, x, y, z }, hag, excluded, { unitToMetre: 1 });
    let wires = 0;
    for (const c of classes) wires += c === 14 ? 1 : 0;
    return wires;
  }

  it('finds the same returns of a lone wire at every offset and heading (the search skips no long run)', () => {
    for (const angle of [0, Math.PI / 6, Math.PI / 4, Math.PI / 2, 2.5]) {
      // Dense (a run of PCA-linear returns 11 m long, just over the 10 m of a run) and sparse (returns 2.5 m
      // apart: no PCA neighbourhood, found by the tube test over a 27.5 m stretch, just over its 25 m).
      const dense = lineFound(0, 0, angle, 11, 0.25);
      const sparse = lineFound(0, 0, angle, 37.5, 2.5);
      expect(dense).toBe(45);
      expect(sparse).toBeGreaterThan(10);
      for (let step = 1; step < 24; step++) {
        const dx = step * 0.91;
        const dy = -step * 0.37;
        expect(lineFound(dx, dy, angle, 11, 0.25)).toBe(dense);
        expect(lineFound(dx, dy, angle, 37.5, 2.5)).toBe(sparse);
      }
    }
  });

  it('finds no wire in rows of returns with nothing seen under them (a sparsely scanned roof)', () => {
    expect(lineFound(5, 5, 0.3, 11, 0.25)).toBe(45);
    expect(lineFound(5, 5, 0.3, 11, 0.25, true)).toBe(0);
    expect(lineFound(5, 5, 0.3, 37.5, 2.5, true)).toBe(0);
  });
});
