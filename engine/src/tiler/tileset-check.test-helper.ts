/**
 * Test helper: reads a tileset back with a real client (@loaders.gl/3d-tiles),
 * walks every tile, parses every content, and reports what a viewer would
 * see. Throws on any structural defect (missing content, point outside its
 * tile's box, geometric error growing with depth, REPLACE refinement...).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Tiles3DLoader } from '@loaders.gl/3d-tiles';
import { parse } from '@loaders.gl/core';
import { ecefToGeodetic } from './local-frame.js';

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
          nodes: { translation: number[] }[];
          extensionsUsed: string[];
          meshes: {
            primitives: { mode: number; attributes: Record<string, { value: ArrayLike<number>; count: number }> }[];
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
      const box = tile.boundingVolume.box;
      const c = box.slice(0, 3);
      const axes = [box.slice(3, 6), box.slice(6, 9), box.slice(9, 12)];
      for (let i = 0; i < n; i++) {
        // glTF is y-up: rotate to z-up as 3D Tiles does ((x, y, z) → (x, -z, y)).
        const gx = tx + pos[i * 3]!;
        const gy = ty + pos[i * 3 + 1]!;
        const gz = tz + pos[i * 3 + 2]!;
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
