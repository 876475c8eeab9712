/**
 * Test helper: reads a tileset back with a real client (@loaders.gl/3d-tiles),
 * walks every tile, parses every content, and reports what a viewer would
 * see. Throws on any structural defect (missing content, point outside its
 * tile's box, geometric error growing with depth, REPLACE refinement...).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Tiles3DLoader } from '@loaders.gl/3d-tiles';
import { parse } from '@loaders.gl/core';
import { realFile } from '@nuage/fixtures/real-data.js';
import { realFileFacts } from '@nuage/fixtures/real-files.js';
import { expect } from 'vitest';
import { createTransformer } from '../crs/index.js';
import { openPointCloud } from '../readers/index.js';
import { globeEcefTransform } from './geoid-ecef.js';
import { ecefToGeodetic } from './local-frame.js';
import { tilePointCloud } from './tile-point-cloud.js';

export interface TilesetStats {
  tiles: number;
  contents: number;
  points: number;
  maxDepth: number;
  classCounts: Record<number, number>;
  /** Geodetic bounds of every point (degrees, metres). */
  bbox: { west: number; south: number; east: number; north: number; minHeight: number; maxHeight: number };
  hasColor: boolean;
  intensityMax: number;
  /** Largest distance by which a point left its tile's box (metres; 0 when all inside). */
  worstBoxExcess: number;
}

interface RawTile {
  boundingVolume: { box: number[] };
  geometricError: number;
  refine?: string;
  content?: { uri: string };
  children?: RawTile[];
}

/** Loads and checks a tileset; `onPoint` sees every point in ECEF (metres). */
export async function inspectTileset(
  tilesetPath: string,
  onPoint?: (x: number, y: number, z: number, classification: number) => void,
): Promise<TilesetStats> {
  const dir = path.dirname(tilesetPath);
  const tileset = (await parse(await readFile(tilesetPath), Tiles3DLoader, {
    '3d-tiles': { isTileset: true },
  })) as unknown as { asset: { version: string }; root: { refine?: number } };
  if (tileset.asset.version !== '1.1') throw new Error(`asset.version is ${tileset.asset.version}`);
  // loaders.gl normalises refine to TILE_REFINEMENT (ADD = 1).
  if (tileset.root.refine !== 1) throw new Error(`root refine is ${tileset.root.refine}, not ADD`);
  const raw = JSON.parse(await readFile(tilesetPath, 'utf8')) as { root: RawTile; geometricError: number };
  if (!(raw.geometricError >= raw.root.geometricError)) throw new Error('tileset geometricError below the root');
  const stats: TilesetStats = {
    tiles: 0,
    contents: 0,
    points: 0,
    maxDepth: 0,
    classCounts: {},
    bbox: {
      west: Number.POSITIVE_INFINITY,
      south: Number.POSITIVE_INFINITY,
      east: Number.NEGATIVE_INFINITY,
      north: Number.NEGATIVE_INFINITY,
      minHeight: Number.POSITIVE_INFINITY,
      maxHeight: Number.NEGATIVE_INFINITY,
    },
    hasColor: false,
    intensityMax: 0,
    worstBoxExcess: 0,
  };
  const walk = async (tile: RawTile, depth: number, parentError: number): Promise<void> => {
    stats.tiles++;
    stats.maxDepth = Math.max(stats.maxDepth, depth);
    if (tile.refine !== undefined && tile.refine !== 'ADD') throw new Error('only ADD refinement is expected');
    if (depth > 0 && !(tile.geometricError < parentError)) {
      throw new Error(
        `geometric error ${tile.geometricError} at depth ${depth} does not shrink (parent ${parentError})`,
      );
    }
    if (!tile.children?.length && tile.geometricError !== 0) throw new Error('a leaf must have geometric error 0');
    if (tile.content) {
      stats.contents++;
      const bytes = await readFile(path.join(dir, tile.content.uri));
      const content = (await parse(bytes, Tiles3DLoader, { '3d-tiles': { isTileset: false } })) as unknown as {
        type: string;
        gltf: {
          nodes: { translation: number[]; scale?: number[] }[];
          extensionsUsed: string[];
          meshes: {
            primitives: {
              mode: number;
              attributes: Record<string, { value: ArrayLike<number>; count: number; normalized?: boolean }>;
            }[];
          }[];
        };
      };
      if (content.type !== 'glTF') throw new Error(`content ${tile.content.uri} is ${content.type}`);
      const prim = content.gltf.meshes[0]!.primitives[0]!;
      if (prim.mode !== 0) throw new Error('primitive is not POINTS');
      const pos = prim.attributes.POSITION!.value;
      const cls = prim.attributes._CLASSIFICATION!.value;
      const inten = prim.attributes._INTENSITY!.value;
      if (prim.attributes.COLOR_0) stats.hasColor = true;
      const n = prim.attributes.POSITION!.count;
      if (n === 0) throw new Error(`content ${tile.content.uri} is empty`);
      const [tx, ty, tz] = content.gltf.nodes[0]!.translation as [number, number, number];
      // KHR_mesh_quantization: int16 normalised positions, scaled by the node.
      const normalized = prim.attributes.POSITION!.normalized === true;
      const [sx, sy, sz] = (content.gltf.nodes[0]!.scale ?? [1, 1, 1]) as [number, number, number];
      const deq = (v: number, s: number): number => (normalized ? Math.max(v / 32767, -1) * s : v * s);
      const box = tile.boundingVolume.box;
      const c = box.slice(0, 3);
      const axes = [box.slice(3, 6), box.slice(6, 9), box.slice(9, 12)];
      for (let i = 0; i < n; i++) {
        // glTF is y-up: rotate to z-up as 3D Tiles does ((x, y, z) → (x, -z, y)).
        const gx = tx + deq(pos[i * 3]!, sx);
        const gy = ty + deq(pos[i * 3 + 1]!, sy);
        const gz = tz + deq(pos[i * 3 + 2]!, sz);
        const X = gx;
        const Y = -gz;
        const Z = gy;
        for (const a of axes) {
          const len2 = a[0]! * a[0]! + a[1]! * a[1]! + a[2]! * a[2]!;
          const len = Math.sqrt(len2);
          const t = ((X - c[0]!) * a[0]! + (Y - c[1]!) * a[1]! + (Z - c[2]!) * a[2]!) / len;
          const excess = Math.abs(t) - len;
          if (excess > stats.worstBoxExcess) stats.worstBoxExcess = excess;
        }
        const g = ecefToGeodetic(X, Y, Z);
        const b = stats.bbox;
        if (g.lon < b.west) b.west = g.lon;
        if (g.lon > b.east) b.east = g.lon;
        if (g.lat < b.south) b.south = g.lat;
        if (g.lat > b.north) b.north = g.lat;
        if (g.height < b.minHeight) b.minHeight = g.height;
        if (g.height > b.maxHeight) b.maxHeight = g.height;
        const k = cls[i]!;
        stats.classCounts[k] = (stats.classCounts[k] ?? 0) + 1;
        if (inten[i]! > stats.intensityMax) stats.intensityMax = inten[i]!;
        onPoint?.(X, Y, Z, k);
      }
      stats.points += n;
    }
    for (const child of tile.children ?? []) await walk(child, depth + 1, tile.geometricError);
  };
  await walk(raw.root, 0, Number.POSITIVE_INFINITY);
  return stats;
}

/** Geodetic bounds of a source-CRS box, from a dense grid of exact transforms (the reference for "inside the bbox"). */
export function exactWgs84Box(
  toEcef: (x: Float64Array, y: Float64Array, z: Float64Array, n: number) => void,
  b: { minX: number; minY: number; minZ: number; maxX: number; maxY: number; maxZ: number },
): TilesetStats['bbox'] {
  const steps = 40;
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  for (let i = 0; i <= steps; i++) {
    for (let j = 0; j <= steps; j++) {
      for (const z of [b.minZ, b.maxZ]) {
        xs.push(b.minX + ((b.maxX - b.minX) * i) / steps);
        ys.push(b.minY + ((b.maxY - b.minY) * j) / steps);
        zs.push(z);
      }
    }
  }
  const x = Float64Array.from(xs);
  const y = Float64Array.from(ys);
  const z = Float64Array.from(zs);
  toEcef(x, y, z, x.length);
  const r = {
    west: Number.POSITIVE_INFINITY,
    south: Number.POSITIVE_INFINITY,
    east: Number.NEGATIVE_INFINITY,
    north: Number.NEGATIVE_INFINITY,
    minHeight: Number.POSITIVE_INFINITY,
    maxHeight: Number.NEGATIVE_INFINITY,
  };
  for (let k = 0; k < x.length; k++) {
    const g = ecefToGeodetic(x[k]!, y[k]!, z[k]!);
    r.west = Math.min(r.west, g.lon);
    r.east = Math.max(r.east, g.lon);
    r.south = Math.min(r.south, g.lat);
    r.north = Math.max(r.north, g.lat);
    r.minHeight = Math.min(r.minHeight, g.height);
    r.maxHeight = Math.max(r.maxHeight, g.height);
  }
  return r;
}

/** Files without a usable CRS are tiled with the CRS their provenance gives. */
export const EPSG_FOR: Record<string, number> = { 'ahn3_cropped_1.laz': 28992, 'warsaw_small.las': 2180 };

/** About 1 cm in degrees, and 2 cm in height: reprojection grid + quantisation stay far below. */
const DEG_TOLERANCE = 1e-7;
const HEIGHT_TOLERANCE = 0.02;

/**
 * Tiles one real file and checks it with loaders.gl: point count and classes
 * equal the file's, every point inside the file's WGS84 bbox (header box
 * reprojected exactly), every point inside its tile's box.
 */
export async function checkRealFile(name: string, dir: string, options: { maxPoints?: number } = {}): Promise<void> {
  const facts = realFileFacts(name);
  const epsg = EPSG_FOR[name];
  const out = path.join(dir, name);
  const result = await tilePointCloud(realFile(name), out, { ...options, ...(epsg ? { epsg } : {}) });
  expect(result.pointCount).toBe(facts.pointCount);
  const stats = await inspectTileset(result.tilesetPath);
  expect(stats.points).toBe(facts.pointCount);
  expect(stats.contents).toBe(result.tileCount);
  expect(stats.classCounts).toEqual(facts.classCounts);
  expect(stats.hasColor).toBe(facts.hasRgb && name !== 'test_semis_2021_0382_6565_LA93_IGN69_cropped.laz');
  expect(stats.worstBoxExcess).toBeLessThan(0.005);

  const reader = await openPointCloud(realFile(name), epsg ? { epsg } : {});
  // Heights are orthometric + the geoid undulation on the globe (crs/geoid.ts), as the tiler writes them.
  const exact = globeEcefTransform(reader.crs!, createTransformer);
  const h = reader.header;
  await reader.close();
  const box = exactWgs84Box((x, y, z, n) => exact.forward(x, y, z, n), {
    minX: h.min[0],
    minY: h.min[1],
    minZ: h.min[2],
    maxX: h.max[0],
    maxY: h.max[1],
    maxZ: h.max[2],
  });
  expect(stats.bbox.west).toBeGreaterThanOrEqual(box.west - DEG_TOLERANCE);
  expect(stats.bbox.east).toBeLessThanOrEqual(box.east + DEG_TOLERANCE);
  expect(stats.bbox.south).toBeGreaterThanOrEqual(box.south - DEG_TOLERANCE);
  expect(stats.bbox.north).toBeLessThanOrEqual(box.north + DEG_TOLERANCE);
  expect(stats.bbox.minHeight).toBeGreaterThanOrEqual(box.minHeight - HEIGHT_TOLERANCE);
  expect(stats.bbox.maxHeight).toBeLessThanOrEqual(box.maxHeight + HEIGHT_TOLERANCE);
  // The points fill most of the header box (not collapsed somewhere inside it).
  expect(stats.bbox.east - stats.bbox.west).toBeGreaterThan((box.east - box.west) * 0.75);
  expect(stats.bbox.north - stats.bbox.south).toBeGreaterThan((box.north - box.south) * 0.75);
  // The reported bbox covers every point (to 2e-8°, ~1.5 mm: int16 positions round by up to 1 mm).
  expect(result.bboxWgs84.west).toBeLessThanOrEqual(stats.bbox.west + 2e-8);
  expect(result.bboxWgs84.east).toBeGreaterThanOrEqual(stats.bbox.east - 2e-8);
  expect(result.bboxWgs84.south).toBeLessThanOrEqual(stats.bbox.south + 2e-8);
  expect(result.bboxWgs84.north).toBeGreaterThanOrEqual(stats.bbox.north - 2e-8);
  expect(result.reprojectionError).toBeLessThan(0.001);
}

/** The SHA-256 of every file under a tileset folder, by relative path. */
export async function tilesetDigests(out: string): Promise<Map<string, string>> {
  const files = (await readdir(out, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const byName = new Map<string, string>();
  for (const f of files) {
    const full = path.join(f.parentPath, f.name);
    byName.set(
      path.relative(out, full),
      createHash('sha256')
        .update(await readFile(full))
        .digest('hex'),
    );
  }
  return byName;
}

/** Asserts that two tileset folders hold the same files, byte for byte. */
export async function expectSameTileset(first: string, second: string): Promise<void> {
  const a = await tilesetDigests(first);
  const b = await tilesetDigests(second);
  expect(a.size).toBeGreaterThan(10);
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  const differing = [...a].filter(([name, digest]) => b.get(name) !== digest).map(([name]) => name);
  expect(differing).toEqual([]);
}
