import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cancelled } from '../core/errors.js';
import { classifyCloudTiled } from '../filters/classify.filter.js';
import { gatherCloud } from '../filters/cloud.js';
import { openPointCloud } from '../readers/index.js';
import { DEFAULT_TILE_POINTS, ownerOf, planTiles, tilePointsFor, tilesOf } from './plan.js';
import {
  classifyTile,
  classifyTileInThread,
  mergeTileClasses,
  readTileFile,
  splitIntoTiles,
  type TileSplit,
} from './tiled-classify.js';

describe('planTiles', () => {
  it('makes about count / pointsPerTile tiles, as square as the extent, each owning its cell', () => {
    const grid = planTiles({ minX: 0, minY: 0, maxX: 2000, maxY: 1000 }, 40e6, {
      pointsPerTile: 5e6,
      bufferMetres: 30,
    });
    expect(grid.nx * grid.ny).toBeGreaterThanOrEqual(8);
    expect(grid.nx).toBe(4);
    expect(grid.ny).toBe(2);
    expect(ownerOf(grid, 0, 0)).toBe(0);
    expect(ownerOf(grid, 499.999, 0)).toBe(0);
    expect(ownerOf(grid, 500, 0)).toBe(1);
    expect(ownerOf(grid, 2000, 1000)).toBe(7);
    // Points off the header's extent go to the nearest edge tile.
    expect(ownerOf(grid, -5, 2000)).toBe(4);
    expect(tilesOf(grid).map((t) => t.core.minX)).toEqual([0, 500, 1000, 1500, 0, 500, 1000, 1500]);
  });

  it('tiles clouds of 30 M points or more by default, at the size asked when one is, never at 0', () => {
    expect(tilePointsFor(29_999_999, undefined)).toBeUndefined();
    expect(tilePointsFor(30_000_000, undefined)).toBe(DEFAULT_TILE_POINTS);
    expect(DEFAULT_TILE_POINTS).toBe(8_000_000);
    expect(tilePointsFor(1000, 500)).toBe(500);
    expect(tilePointsFor(40e6, 0)).toBeUndefined();
  });

  it('keeps tiles wider than twice their buffer', () => {
    const grid = planTiles({ minX: 0, minY: 0, maxX: 100, maxY: 100 }, 1e6, { pointsPerTile: 1000, bufferMetres: 40 });
    expect(grid.nx).toBe(1);
    expect(grid.ny).toBe(1);
  });
});

describe('tiled classification of a real file (fusa.laz, 277,573 points)', () => {
  let dir: string;
  let split: TileSplit;
  const file = realFile('fusa.laz');

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nuage-tiled-'));
    split = await splitIntoTiles(file, path.join(dir, 'tiles'), { pointsPerTile: 80_000, bufferMetres: 25 });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('splits into tiles whose buffers overlap, every point in its owner tile', () => {
    expect(split.pointCount).toBe(277_573);
    expect(split.tiles.length).toBeGreaterThanOrEqual(4);
    const inTiles = split.tiles.reduce((s, t) => s + t.points, 0);
    // Buffers duplicate the points near seams, never lose any.
    expect(inTiles).toBeGreaterThan(split.pointCount);
    expect(split.settings.unitToMetre).toBe(1);
  });

  it('classifies each tile on its own and merges every point once, in any order, close to the untiled classes', async () => {
    const outs = split.tiles.map((t) => path.join(dir, `classes-${t.index}.bin`));
    // The tiles run in reverse order (as unordered workers would): the merge does not depend on it.
    let owned = 0;
    for (const t of [...split.tiles].reverse()) {
      const r = await classifyTile(t.file, split.grid, t.index, split.settings, outs[t.index]!, { workers: 1 });
      expect(r.points).toBe(t.points);
      owned += r.owned;
    }
    expect(owned).toBe(split.pointCount);
    const merged = await mergeTileClasses(outs, split.pointCount);
    // Against the whole cloud classified in one piece.
    const reader = await openPointCloud(file);
    const cloud = await gatherCloud(reader.read({ workers: 0 }), {}, { expected: reader.header.pointCount });
    await reader.close();
    const whole = await classifyCloudTiled(cloud, { unitToMetre: 1, verticalUnitToMetre: 1, wires: true }, {}, 1);
    let same = 0;
    let groundAgree = 0;
    let ground = 0;
    for (let i = 0; i < cloud.count; i++) {
      if (merged[i] === whole.classification[i]) same++;
      if (whole.classification[i] === 2) {
        ground++;
        if (merged[i] === 2) groundAgree++;
      }
    }
    console.info(
      `tiled vs whole classification on fusa.laz: ${(same / cloud.count).toFixed(4)} of points agree, ground ${(groundAgree / ground).toFixed(4)}`,
    );
    expect(same / cloud.count).toBeGreaterThan(0.97);
    expect(groundAgree / ground).toBeGreaterThan(0.98);
    // Against the vendor's ground class (the same yardstick as the untiled filter).
    let vendorGround = 0;
    let hit = 0;
    for (let i = 0; i < cloud.count; i++) {
      if (cloud.classification![i] !== 2) continue;
      vendorGround++;
      if (merged[i] === 2) hit++;
    }
    expect(hit / vendorGround).toBeGreaterThan(0.9);
  });

  it('gives the same classes file when two tiles at a time run in worker threads', async () => {
    const outs = split.tiles.map((t) => path.join(dir, `classes-${t.index}.bin`));
    const threaded = split.tiles.map((t) => path.join(dir, `threaded-${t.index}.bin`));
    // Every tile handed to a pool of 2 threads at once: 2 run, the others queue.
    const outcomes = await Promise.all(
      split.tiles.map((t) => {
        const task = { tileFile: t.file, grid: split.grid, index: t.index, settings: split.settings };
        return classifyTileInThread({ ...task, outFile: threaded[t.index]! }, 2);
      }),
    );
    expect(outcomes.reduce((s, r) => s + r.owned, 0)).toBe(split.pointCount);
    for (const t of split.tiles) {
      expect(await readFile(threaded[t.index]!)).toEqual(await readFile(outs[t.index]!));
    }
  }, 120_000);

  it('stops a tile run in a thread when its signal is aborted', async () => {
    const t = split.tiles[0]!;
    const task = { tileFile: t.file, grid: split.grid, index: t.index, settings: split.settings };
    const abort = new AbortController();
    const run = classifyTileInThread({ ...task, outFile: path.join(dir, 'aborted.bin') }, 2, abort.signal);
    setTimeout(() => abort.abort(), 50);
    await expect(run).rejects.toBeInstanceOf(Cancelled);
  });

  it('reads a tile file back whole, and refuses one cut short', async () => {
    const t = split.tiles[0]!;
    const { cloud, ids } = await readTileFile(t.file);
    expect(cloud.count).toBe(t.points);
    // Input indices rise within the tile (chunks in input order), and every point lies in the tile's buffered area.
    const g = split.grid;
    const x0 = g.minX + (t.index % g.nx) * g.width - g.buffer - 1e-6;
    const y0 = g.minY + Math.floor(t.index / g.nx) * g.height - g.buffer - 1e-6;
    let wrong = 0;
    for (let i = 0; i < cloud.count; i++) {
      if ((i > 0 && ids[i]! <= ids[i - 1]!) || cloud.x[i]! < x0 || cloud.y[i]! < y0) wrong++;
    }
    expect(wrong).toBe(0);
    const cut = path.join(dir, 'cut.bin');
    await writeFile(cut, (await readFile(t.file)).subarray(0, 1000));
    await expect(readTileFile(cut)).rejects.toThrow(/cut.bin is not a whole number of point blocks/);
  });

  it('refuses a merge where a tile is missing', async () => {
    const outs = split.tiles.map((t) => path.join(dir, `classes-${t.index}.bin`));
    await expect(mergeTileClasses(outs.slice(1), split.pointCount)).rejects.toThrow(/classified \d+ of 277573 points/);
  });
});

describe('splitIntoTiles on a file whose vendor labelled the wires', () => {
  it('keeps the vendor wires (no wire search) unless vendorWireClasses is FIND', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nuage-split-wires-'));
    try {
      const file = realFile('ahn_corridor_12AN2_20.laz');
      const options = { pointsPerTile: 2_000_000, epsg: 28992 };
      const kept = await splitIntoTiles(file, path.join(dir, 'keep'), options);
      expect(kept.settings.wires).toBe(false);
      const found = await splitIntoTiles(file, path.join(dir, 'find'), { ...options, vendorWireClasses: 'FIND' });
      expect(found.settings.wires).toBe(true);
      // fusa.laz has no wire class: searched whatever the option.
      const unlabelled = await splitIntoTiles(realFile('fusa.laz'), path.join(dir, 'fusa'), { pointsPerTile: 1e6 });
      expect(unlabelled.settings.wires).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
