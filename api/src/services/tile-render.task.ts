import type { MessagePort } from 'node:worker_threads';
import { GEOID_MODEL, geoidUndulation, type VerticalReference } from '@nuage/engine/crs/geoid.js';
import { type CrsInfo, createTransformer, crsFromEpsg } from '@nuage/engine/crs/index.js';
import { type ByteSource, fileByteSource } from '@nuage/engine/raster/byte-source.js';
import { type Cog, openCog } from '@nuage/engine/raster/cog.reader.js';
import type { TileRamp } from '@nuage/engine/raster/colour-ramps.js';
import {
  openRasterTileSource,
  type RasterTileSource,
  renderRasterTile,
  toMercator,
} from '@nuage/engine/raster/tile-render.js';

/**
 * The CPU side of map tiles (PNG raster tiles, terrain heightmaps), run in
 * the worker threads of tile-render.pool.ts: opening a COG, decoding and
 * resampling its blocks, colouring and PNG encoding, sampling heights. The
 * bytes come from a local file the thread opens itself, or through ranged
 * reads the thread asks the API's main thread for (an S3 bucket). Nothing
 * here touches the database or the HTTP layer.
 */

const EARTH = 6378137;
const HALF = Math.PI * EARTH;

/** Samples per terrain tile side (Cesium's usual heightmap size: 64 cells). */
export const TERRAIN_TILE_SIZE = 65;
/** Magic of a terrain tile. */
export const TERRAIN_MAGIC = 'NTH1';
/** Bytes before the samples. */
export const TERRAIN_HEADER_BYTES = 8;

/**
 * A stored COG as a render task names it: `id` is unique per store and key
 * (threads keep the sources they opened under it), `path` a local file the
 * thread reads itself (else it asks the main thread for ranges).
 */
export interface TileSourceRef {
  id: string;
  size: number;
  path?: string;
}

/** A task of the pool. */
export type TileRenderTask =
  | {
      kind: 'raster';
      source: TileSourceRef;
      proj4: string;
      range: { min: number; max: number } | null;
      /** Decoded blocks kept for the next tiles of this source. */
      cacheBytes: number;
      ramp: TileRamp;
      z: number;
      x: number;
      y: number;
    }
  | { kind: 'terrain'; source: TileSourceRef; reference: VerticalReference; z: number; x: number; y: number };

/** What a task gives back. */
export type TileRenderResult =
  /** A PNG raster tile; `merc` is the raster's web mercator extent `[minX, minY, maxX, maxY]` (see {@link coversTile}). */
  | { kind: 'png'; bytes: Uint8Array; merc: MercatorExtent }
  /** Tile outside the raster: nothing rendered. */
  | { kind: 'empty'; merc: MercatorExtent }
  /** A terrain tile's bytes ({@link encodeTerrainTile}). */
  | { kind: 'heights'; bytes: Uint8Array };

/** Web mercator extent `[minX, minY, maxX, maxY]` in metres. */
export type MercatorExtent = [number, number, number, number];

/** Whether web mercator tile z/x/y overlaps an extent (what RasterTileSource.covers answers). */
export function coversTile(merc: MercatorExtent, z: number, x: number, y: number): boolean {
  const [mx0, my0, mx1, my1] = merc;
  const size = (2 * HALF) / 2 ** z;
  const left = -HALF + x * size;
  const top = HALF - y * size;
  return left < mx1 && left + size > mx0 && top > my0 && top - size < my1;
}

/** A DTM opened for terrain tiles (see terrain.service.ts). */
export interface TerrainSource {
  cog: Cog;
  crs: CrsInfo;
  reference: VerticalReference;
  /** Project CRS → lon/lat and back. */
  toLonLat: ReturnType<typeof createTransformer>;
  fromLonLat: ReturnType<typeof createTransformer>;
  footprint: { west: number; south: number; east: number; north: number };
}

/** The terrain geometry of an opened DTM whose CRS is known: transforms and lon/lat footprint. */
export function terrainSource(cog: Cog, crs: CrsInfo, reference: VerticalReference): TerrainSource {
  const toLonLat = createTransformer(crs, 'EPSG:4326');
  const fromLonLat = createTransformer(crsFromEpsg(4326), crs);
  const full = cog.levels[0]!;
  // Footprint: the raster's edges, 8 points a side.
  const xs: number[] = [];
  const ys: number[] = [];
  const spanX = full.width * full.resolution;
  const spanY = full.height * full.resolution;
  for (let i = 0; i <= 8; i++) {
    const t = i / 8;
    xs.push(cog.originX + spanX * t, cog.originX + spanX * t, cog.originX, cog.originX + spanX);
    ys.push(cog.originY, cog.originY - spanY, cog.originY - spanY * t, cog.originY - spanY * t);
  }
  const x = Float64Array.from(xs);
  const y = Float64Array.from(ys);
  toLonLat.forward(x, y, new Float64Array(xs.length), xs.length);
  const footprint = {
    west: Math.min(...x),
    east: Math.max(...x),
    south: Math.min(...y),
    north: Math.max(...y),
  };
  return { cog, crs, reference, toLonLat, fromLonLat, footprint };
}

/** Geographic tiling scheme: the tile's west, south, east, north in degrees. */
export function tileRectangle(z: number, x: number, y: number): [number, number, number, number] {
  const width = 180 / 2 ** z;
  const west = -180 + x * width;
  const north = 90 - y * width;
  return [west, north - width, west + width, north];
}

/** Whether terrain tile z/x/y lies outside a footprint (all its samples are NaN). */
export function outsideFootprint(footprint: TerrainSource['footprint'], z: number, x: number, y: number): boolean {
  const [west, south, east, north] = tileRectangle(z, x, y);
  return east < footprint.west || west > footprint.east || north < footprint.south || south > footprint.north;
}

/** A terrain tile's bytes: header and samples. */
export function encodeTerrainTile(samples: Float32Array, size = TERRAIN_TILE_SIZE): Uint8Array {
  const out = new Uint8Array(TERRAIN_HEADER_BYTES + samples.byteLength);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = TERRAIN_MAGIC.charCodeAt(i);
  view.setUint16(4, size, true);
  view.setUint16(6, size, true);
  for (let i = 0; i < samples.length; i++) view.setFloat32(TERRAIN_HEADER_BYTES + i * 4, samples[i]!, true);
  return out;
}

/** Samples of one terrain tile (see terrain.service.ts). */
export async function terrainSamples(d: TerrainSource, z: number, x: number, y: number): Promise<Float32Array> {
  const size = TERRAIN_TILE_SIZE;
  const count = size * size;
  const out = new Float32Array(count).fill(Number.NaN);
  const [west, south, east, north] = tileRectangle(z, x, y);
  if (outsideFootprint(d.footprint, z, x, y)) return out;
  const lon = new Float64Array(count);
  const lat = new Float64Array(count);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      lon[j * size + i] = west + ((east - west) * i) / (size - 1);
      lat[j * size + i] = north - ((north - south) * j) / (size - 1);
    }
  }
  const px = Float64Array.from(lon);
  const py = Float64Array.from(lat);
  try {
    d.fromLonLat.forward(px, py, new Float64Array(count), count);
  } catch {
    return out;
  }
  // The level whose cells are no finer than the samples' spacing (overviews for coarse tiles).
  const mid = Math.floor(size / 2) * size + Math.floor(size / 2);
  const spacing = Math.hypot(px[mid + 1]! - px[mid]!, py[mid + 1]! - py[mid]!);
  let li = 0;
  for (let k = 1; k < d.cog.levels.length; k++) if (d.cog.levels[k]!.resolution <= spacing) li = k;
  const level = d.cog.levels[li]!;
  const res = level.resolution;
  // Fractional cell coordinates of the samples (cell centres at integer + 0.5).
  let c0 = Number.POSITIVE_INFINITY;
  let c1 = Number.NEGATIVE_INFINITY;
  let r0 = Number.POSITIVE_INFINITY;
  let r1 = Number.NEGATIVE_INFINITY;
  const fx = new Float64Array(count);
  const fy = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    fx[k] = (px[k]! - d.cog.originX) / res - 0.5;
    fy[k] = (d.cog.originY - py[k]!) / res - 0.5;
    if (!Number.isFinite(fx[k]!) || !Number.isFinite(fy[k]!)) continue;
    c0 = Math.min(c0, Math.floor(fx[k]!));
    c1 = Math.max(c1, Math.floor(fx[k]!) + 1);
    r0 = Math.min(r0, Math.floor(fy[k]!));
    r1 = Math.max(r1, Math.floor(fy[k]!) + 1);
  }
  c0 = Math.max(c0, -1);
  r0 = Math.max(r0, -1);
  c1 = Math.min(c1, level.width);
  r1 = Math.min(r1, level.height);
  if (!(c0 <= c1 && r0 <= r1)) return out;
  const w = c1 - c0 + 1;
  const h = r1 - r0 + 1;
  const cells = await d.cog.readWindow(li, c0, r0, w, h);
  const nodata = d.cog.nodata;
  const valid = (v: number) => v !== nodata && !Number.isNaN(v);
  const unit = d.crs.verticalUnitToMetre;
  const orthometric = d.reference.geoidModel === GEOID_MODEL;
  for (let k = 0; k < count; k++) {
    const gx = fx[k]!;
    const gy = fy[k]!;
    if (!Number.isFinite(gx) || !Number.isFinite(gy)) continue;
    const ci = Math.floor(gx);
    const ri = Math.floor(gy);
    if (ci < c0 || ri < r0 || ci + 1 > c1 || ri + 1 > r1) continue;
    const tx = gx - ci;
    const ty = gy - ri;
    const at = (ri - r0) * w + (ci - c0);
    const v00 = cells[at]!;
    const v10 = cells[at + 1]!;
    const v01 = cells[at + w]!;
    const v11 = cells[at + w + 1]!;
    let v: number;
    if (valid(v00) && valid(v10) && valid(v01) && valid(v11)) {
      v = (1 - ty) * ((1 - tx) * v00 + tx * v10) + ty * ((1 - tx) * v01 + tx * v11);
    } else {
      // At the DTM's edge: the cell the sample falls in, when it has a value.
      const nearest = tx < 0.5 ? (ty < 0.5 ? v00 : v01) : ty < 0.5 ? v10 : v11;
      if (!valid(nearest)) continue;
      v = nearest;
    }
    out[k] = v * unit + (orthometric ? geoidUndulation(lon[k]!, lat[k]!) : 0);
  }
  return out;
}

/**
 * Sources a thread keeps open, each with its decoded blocks (a raster's
 * `cacheBytes`, a DTM's 8 MB): at most 64 MB a thread.
 */
const OPEN_SOURCES = 8;

interface OpenSource {
  bytes: ByteSource;
  raster?: Promise<{ source: RasterTileSource; merc: MercatorExtent }>;
  terrain?: Promise<TerrainSource>;
}

/**
 * A tile renderer over sources it opens once and keeps (the {@link OPEN_SOURCES}
 * most recent): `read` fetches a range of a source that has no local `path`.
 *
 * @example
 * const renderer = tileRenderer((id, offset, length) => askMainThread(id, offset, length));
 * const result = await renderer.render(task);
 */
export function tileRenderer(read: (sourceId: string, offset: number, length: number) => Promise<Uint8Array>) {
  const open = new Map<string, Promise<OpenSource>>();

  const sourceOf = (ref: TileSourceRef): Promise<OpenSource> => {
    let hit = open.get(ref.id);
    if (hit) {
      open.delete(ref.id);
      open.set(ref.id, hit);
      return hit;
    }
    hit = (async (): Promise<OpenSource> => {
      if (ref.path) return { bytes: await fileByteSource(ref.path) };
      return {
        bytes: {
          size: ref.size,
          async read(offset, length) {
            // Like a file: a short read at the end, nothing past it.
            const n = Math.max(0, Math.min(length, ref.size - offset));
            return n === 0 ? new Uint8Array(0) : read(ref.id, offset, n);
          },
        },
      };
    })();
    open.set(ref.id, hit);
    hit.catch(() => open.delete(ref.id));
    while (open.size > OPEN_SOURCES) {
      const [oldest, pending] = open.entries().next().value as [string, Promise<OpenSource>];
      open.delete(oldest);
      pending.then((s) => s.bytes.close?.()).catch(() => undefined);
    }
    return hit;
  };

  /** A source opened for one use, forgotten when that fails (the next task tries again). */
  const opening = <T>(p: Promise<T>, forget: () => void): Promise<T> => {
    p.catch(forget);
    return p;
  };

  return {
    async render(task: TileRenderTask): Promise<TileRenderResult> {
      const s = await sourceOf(task.source);
      if (task.kind === 'raster') {
        s.raster ??= opening(
          openRasterTileSource(s.bytes, { proj4: task.proj4, range: task.range, cacheBytes: task.cacheBytes }).then(
            (source) => {
              const [w, south, e, north] = source.bounds;
              const [mx0, my0] = toMercator(w, south);
              const [mx1, my1] = toMercator(e, north);
              return { source, merc: [mx0, my0, mx1, my1] as MercatorExtent };
            },
          ),
          () => {
            s.raster = undefined;
          },
        );
        const { source, merc } = await s.raster;
        if (!source.covers(task.z, task.x, task.y)) return { kind: 'empty', merc };
        const png = await renderRasterTile(source, task.ramp, task.z, task.x, task.y);
        return { kind: 'png', bytes: png, merc };
      }
      s.terrain ??= opening(
        openCog(s.bytes).then((cog) => {
          const epsg = cog.crs?.epsg;
          if (!epsg) throw new Error('the DTM GeoTIFF has no EPSG code');
          return terrainSource(cog, crsFromEpsg(epsg), task.reference);
        }),
        () => {
          s.terrain = undefined;
        },
      );
      const d = await s.terrain;
      // The vertical reference the main thread opened this DTM with (its height range and URL use it too).
      const samples = await terrainSamples({ ...d, reference: task.reference }, task.z, task.x, task.y);
      return { kind: 'heights', bytes: encodeTerrainTile(samples) };
    },
  };
}

/** Main thread → render thread. */
export type ToRenderThread =
  | { type: 'task'; id: number; task: TileRenderTask }
  | { type: 'bytes'; id: number; bytes?: Uint8Array; error?: string };

/** Render thread → main thread. */
export type FromRenderThread =
  | { type: 'read'; id: number; source: string; offset: number; length: number }
  | { type: 'done'; id: number; result: TileRenderResult }
  | { type: 'failed'; id: number; error: { name: string; message: string; code?: string } };

/**
 * Serves render tasks on a worker thread's port: each task is rendered at
 * once (several may wait for bytes together) and answered with its result,
 * the bytes transferred, or with its error.
 */
export function serveTileRenderer(port: MessagePort): void {
  let nextRead = 0;
  const reads = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
  const renderer = tileRenderer(
    (source, offset, length) =>
      new Promise<Uint8Array>((resolve, reject) => {
        const id = nextRead++;
        reads.set(id, { resolve, reject });
        port.postMessage({ type: 'read', id, source, offset, length } satisfies FromRenderThread);
      }),
  );
  port.on('message', (message: ToRenderThread) => {
    if (message.type === 'bytes') {
      const pending = reads.get(message.id);
      reads.delete(message.id);
      if (!pending) return;
      if (message.bytes) pending.resolve(message.bytes);
      else pending.reject(new Error(message.error ?? 'the main thread could not read the source'));
      return;
    }
    const { id, task } = message;
    renderer.render(task).then(
      (result) => {
        if (!('bytes' in result)) {
          port.postMessage({ type: 'done', id, result } satisfies FromRenderThread);
          return;
        }
        // A buffer of its own to transfer (the PNG may be the empty tile this thread shares).
        const bytes = new Uint8Array(result.bytes);
        port.postMessage({ type: 'done', id, result: { ...result, bytes } } satisfies FromRenderThread, [bytes.buffer]);
      },
      (err: unknown) => {
        const e = err instanceof Error ? err : new Error(String(err));
        const code = (e as { code?: unknown }).code;
        port.postMessage({
          type: 'failed',
          id,
          error: { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) },
        } satisfies FromRenderThread);
      },
    );
  });
}
