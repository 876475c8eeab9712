/**
 * `npm run bench -- edit [--gb N] [--points N]`: a classification edit of
 * about 100,000 points (`--points`) on a real-replica LAS (the bcts mosaic
 * and the AHN corridor side by side, replica.ts; default 0.29 GB, the size of
 * the pipeline bench's last run), through the code the CLASSIFICATION_EDIT
 * job runs (api/src/jobs/classification-edit.task.ts), in this process:
 *
 * 1. until the viewer can show it: read the base cloud, apply the edit (a
 *    map polygon, unclassified → building), write the classified LAS, tile it;
 * 2. until the dependent products are rebuilt: runProducts on the edited
 *    cloud with the products productsForClasses names (the DTM read back from
 *    an earlier run, as the job restores it from its asset).
 *
 * Also: the same edit drawn on the 3D view (a `screen` region: every point
 * goes to ECEF through the tiler's exact transform), apply only. Reference,
 * same run: reading the replica's bytes. The replica's own classes stand for
 * the classified cloud (no classification is run).
 */
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { applyClassEdits, type ClassEdit, changedClasses, ecefOf } from '@nuage/engine/edit/class-edits.js';
import { productsForClasses } from '@nuage/engine/edit/dependent-products.js';
import { loadCloud, writeClassifiedLas } from '@nuage/engine/edit/edit-file.js';
import { processingOptionsSchema } from '@nuage/engine/products/options.js';
import { runProducts } from '@nuage/engine/products/run-products.js';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import proj4 from 'proj4';
import type { BenchSuite } from '../main.js';
import { writeReplica } from '../replica.js';

function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

const seconds = (t0: number) => Math.round(performance.now() - t0) / 1000;
const load = () => loadavg().map((l) => Math.round(l * 100) / 100);
const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

const suite: BenchSuite = {
  description:
    'a classification edit of ~100,000 points on a real-replica LAS: apply + re-tile (viewer), then the dependent products',
  async run(args) {
    const gb = Number(arg(args, '--gb', '0.29'));
    const wanted = Number(arg(args, '--points', '100000'));
    const dir = path.join(tmpdir(), 'nuage-bench-edit');
    await mkdir(dir, { recursive: true });
    const replicaPath = path.join(dir, `replica-${gb}gb.las`);
    const have = await stat(replicaPath).catch(() => null);
    let replicaSeconds: number | null = null;
    if (!have || have.size < gb * 2 ** 30) {
      const t0 = performance.now();
      await writeReplica(replicaPath, gb * 2 ** 30);
      replicaSeconds = seconds(t0);
    }
    const bytes = (await stat(replicaPath)).size;
    const r0 = performance.now();
    for await (const _ of createReadStream(replicaPath, { highWaterMark: 1 << 22 })) {
      // raw read: bytes only
    }
    const rawReadSeconds = seconds(r0);

    // Earlier products the job would restore: the DTM of the replica (its own ground class).
    const options = processingOptionsSchema.parse({});
    const prepDir = path.join(dir, 'prep');
    await rm(prepDir, { recursive: true, force: true });
    const p0 = performance.now();
    const classifyFromFile = (file: string) => async () => [{ path: file, extension: 'las' }];
    const prep = await runProducts({
      input: { path: replicaPath },
      options: { ...options, products: ['dtm'] },
      outDir: prepDir,
      hooks: { done: async (p) => (p.id === 'classify' ? classifyFromFile(replicaPath) : null) },
    });
    const dtmFile = path.join(prepDir, 'dtm', 'dtm.tif');
    const prepSeconds = seconds(p0);
    if (prep.runs.some((r) => r.status === 'ERROR')) throw new Error(`DTM prep failed: ${JSON.stringify(prep.runs)}`);

    const loadBefore = load();
    // 1. Until the viewer can show it.
    const t0 = performance.now();
    const loaded = await loadCloud(replicaPath);
    const readSeconds = seconds(t0);
    const { cloud, crs } = loaded;
    // A square about the middle of the cloud holding ~`wanted` unclassified points, drawn on the map (lon/lat).
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    let unclassified = 0;
    for (let i = 0; i < cloud.count; i++) {
      const x = cloud.x[i]!;
      const y = cloud.y[i]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (cloud.classification![i] === 1) unclassified++;
    }
    const density = unclassified / ((maxX - minX) * (maxY - minY));
    const half = Math.sqrt(wanted / density) / 2;
    // The bcts mosaic (south-west of the block) is forest: centre the square in it.
    const cx = minX + (maxX - minX) * 0.25;
    const cy = minY + (maxY - minY) * 0.5;
    const toLonLat = proj4(crs.proj4, 'EPSG:4326');
    const square = [
      [cx - half, cy - half],
      [cx + half, cy - half],
      [cx + half, cy + half],
      [cx - half, cy + half],
    ].map((p) => toLonLat.forward(p) as [number, number]);
    const edit: ClassEdit = { region: { kind: 'map', polygon: square }, fromClasses: [1], toClass: 6 };
    const before = cloud.classification!.slice(0, cloud.count);
    const a0 = performance.now();
    const applied = applyClassEdits(cloud, crs, [edit]);
    const applySeconds = seconds(a0);
    const classes = changedClasses(before, applied.classification);
    const editedDir = path.join(dir, 'edited');
    await rm(editedDir, { recursive: true, force: true });
    await mkdir(editedDir, { recursive: true });
    const lasPath = path.join(editedDir, 'classified.las');
    const w0 = performance.now();
    await writeClassifiedLas(lasPath, loaded, applied.classification);
    const writeSeconds = seconds(w0);
    const tl0 = performance.now();
    const tiled = await tilePointCloud(lasPath, path.join(editedDir, 'tiles'), crs.epsg ? { epsg: crs.epsg } : {}, {
      tmpDir: path.join(editedDir, 'tmp'),
    });
    const tileSeconds = seconds(tl0);
    const viewerSeconds = seconds(t0);
    const peakAfterApplyMb = rssMb();

    // The same region drawn on the 3D view: ECEF of every point through the tiler's transform.
    const e0 = performance.now();
    const ecef = ecefOf(cloud, crs);
    const ecefSeconds = seconds(e0);
    const mid = Math.floor(cloud.count / 2);
    // A top-down orthographic view (clip = a scaled ECEF frame): the square's own corners, in NDC.
    const o: [number, number, number] = [ecef.x[mid]!, ecef.y[mid]!, ecef.z[mid]!];
    const up = normalize(o);
    const east = normalize(cross([0, 0, 1], up));
    const north = cross(up, east);
    const s = 1 / 20_000;
    // Column-major rows: x = east·(P − o)·s, y = north·(P − o)·s, w = 1.
    const matrix = [
      east[0] * s,
      north[0] * s,
      0,
      0,
      east[1] * s,
      north[1] * s,
      0,
      0,
      east[2] * s,
      north[2] * s,
      0,
      0,
      -dot(east, o) * s,
      -dot(north, o) * s,
      0,
      1,
    ];
    const ndc = (x: number, y: number, z: number): [number, number] => {
      const p: [number, number, number] = [x - o[0], y - o[1], z - o[2]];
      return [dot(east, p) * s, dot(north, p) * s];
    };
    const squareEcef = square.map(([lon, lat]) => geodetic(lon, lat, cloud.z[mid]!)).map((p) => ndc(p[0], p[1], p[2]));
    const screen: ClassEdit = { region: { kind: 'screen', matrix, polygon: squareEcef }, fromClasses: [1], toClass: 6 };
    const sc0 = performance.now();
    const screenApplied = applyClassEdits(cloud, crs, [screen]);
    const screenApplySeconds = seconds(sc0);

    // 2. Until the dependent products are rebuilt.
    const products = productsForClasses(classes);
    const runDir = path.join(dir, 'products');
    await rm(runDir, { recursive: true, force: true });
    const pr0 = performance.now();
    const outcome = await runProducts({
      input: { path: lasPath },
      options: { ...options, products },
      outDir: runDir,
      hooks: {
        done: async (p) => {
          if (products.includes(p.id)) return null;
          if (p.id === 'classify') return classifyFromFile(lasPath);
          if (p.id === 'dtm') return async () => [{ path: dtmFile, extension: 'tif' }];
          return null;
        },
      },
    });
    const productsSeconds = seconds(pr0);
    return {
      input: {
        path: replicaPath,
        bytes,
        gb: Math.round((bytes / 2 ** 30) * 100) / 100,
        points: cloud.count,
        replicaSeconds,
      },
      edit: {
        region: 'map polygon (a square), unclassified → building',
        changed: applied.changed[0],
        changedClasses: [...classes].sort((a, b) => a - b),
      },
      untilViewerShowsIt: {
        seconds: viewerSeconds,
        readSeconds,
        applySeconds,
        writeLasSeconds: writeSeconds,
        tileSeconds,
        tiles: tiled.tileCount,
        rssMbAfter: peakAfterApplyMb,
      },
      screenRegion: {
        what: 'the same square as a screen region (top-down view): ECEF of every point, then the test',
        ecefSeconds,
        applySeconds: screenApplySeconds,
        changed: screenApplied.changed[0]?.total,
      },
      untilProductsRebuilt: {
        seconds: Math.round((viewerSeconds + productsSeconds) * 1000) / 1000,
        productsSeconds,
        products,
        runs: outcome.runs.map((r) => ({ id: r.id, status: r.status, ms: r.ms })),
      },
      prep: { what: 'the DTM of the replica, restored by the products run (not timed above)', prepSeconds },
      reference: { what: 'reading the replica file bytes (no decoding), same run', rawReadSeconds },
      loadBefore,
      loadAfter: load(),
    };
  },
};

type V3 = [number, number, number];
function dot(a: V3, b: V3) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function cross(a: V3, b: V3): V3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function normalize(a: V3): V3 {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
}
function geodetic(lon: number, lat: number, h: number): V3 {
  const A = 6378137;
  const F = 1 / 298.257223563;
  const E2 = F * (2 - F);
  const p = (lat * Math.PI) / 180;
  const l = (lon * Math.PI) / 180;
  const n = A / Math.sqrt(1 - E2 * Math.sin(p) ** 2);
  return [(n + h) * Math.cos(p) * Math.cos(l), (n + h) * Math.cos(p) * Math.sin(l), (n * (1 - E2) + h) * Math.sin(p)];
}

export default suite;
