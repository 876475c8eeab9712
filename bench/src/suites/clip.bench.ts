/**
 * `npm run bench -- clip [--gb N]`: clip a 1 km² polygon (a square turned by
 * 30°) and a 1 km² box out of a large real-replica LAS (copies of the bcts
 * tiles and the AHN corridor side by side, bench/src/replica.ts; default
 * 1 GB), as a user does: `nuage clip` in a child process under /usr/bin/time
 * (wall time, CPU, peak RSS). Reference, same run: the time to merely read
 * the file's bytes (a LAS has no spatial index: every record is read).
 *
 * The replica is written once to $TMPDIR/nuage-bench-clip/ and reused while
 * its size matches.
 *
 * Also (`--skip-laz` to leave out): the same 1 km² polygon out of the 20 M
 * point LAZ mosaic of the read bench (copies of the bcts tiles, point format
 * 1, spliced from their compressed chunks) into a LAZ file: LAZ decoding in,
 * the engine's LAZ writer out.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { ensureMosaicLaz } from '../data/big-inputs.js';
import type { BenchSuite } from '../main.js';
import { writeReplica } from '../replica.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const BIN = path.join(ROOT, 'engine', 'bin', 'nuage.mjs');

interface Timed {
  wallSeconds: number;
  userSeconds: number | null;
  systemSeconds: number | null;
  maxRssMb: number | null;
  stdout: string;
}

async function timed(args: string[]): Promise<Timed> {
  const hasTime = existsSync('/usr/bin/time');
  const command = hasTime ? '/usr/bin/time' : process.execPath;
  const argv = [...(hasTime ? ['-f', 'TIME %e %U %S %M', process.execPath] : []), BIN, ...args];
  const t0 = performance.now();
  const { out, err } = await new Promise<{ out: string; err: string }>((resolve, reject) => {
    const child = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let o = '';
    let e = '';
    child.stdout.on('data', (d) => {
      o += String(d);
    });
    child.stderr.on('data', (d) => {
      e += String(d);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve({ out: o, err: e })
        : reject(new Error(`nuage ${args[0]} exited ${code}: ${e.slice(-2000)}`)),
    );
  });
  const wall = performance.now() - t0;
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(err);
  return {
    wallSeconds: Math.round(wall) / 1000,
    userSeconds: m ? Number(m[2]) : null,
    systemSeconds: m ? Number(m[3]) : null,
    maxRssMb: m ? Math.round(Number(m[4]) / 1024) : null,
    stdout: out.trim(),
  };
}

function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

const suite: BenchSuite = {
  description: 'clip a 1 km² polygon and box out of a ~1 GB real-replica LAS with `nuage clip`: time and peak RSS',
  async run(args) {
    const gb = Number(arg(args, '--gb', '1'));
    const dir = path.join(tmpdir(), 'nuage-bench-clip');
    await mkdir(dir, { recursive: true });
    const replicaPath = path.join(dir, `replica-${gb}gb.las`);
    const target = gb * 2 ** 30;
    let replicaSeconds: number | null = null;
    const have = await stat(replicaPath).catch(() => null);
    if (!have || have.size < target) {
      const t0 = performance.now();
      await writeReplica(replicaPath, target);
      replicaSeconds = Math.round(performance.now() - t0) / 1000;
    }
    const reader = await openPointCloud(replicaPath);
    const { min, max, pointCount } = reader.header;
    await reader.close();
    const bytes = (await stat(replicaPath)).size;
    const cx = (min[0] + max[0]) / 2;
    const cy = (min[1] + max[1]) / 2;

    // 1 km²: a 1000 m square turned by 30° about the replica's centre.
    const a = Math.PI / 6;
    const corners = [
      [-500, -500],
      [500, -500],
      [500, 500],
      [-500, 500],
      [-500, -500],
    ].map(([x, y]) => [cx + x! * Math.cos(a) - y! * Math.sin(a), cy + x! * Math.sin(a) + y! * Math.cos(a)]);
    const polygonFile = path.join(dir, 'polygon-1km2.geojson');
    await writeFile(polygonFile, JSON.stringify({ type: 'Polygon', coordinates: [corners] }));

    const r0 = performance.now();
    for await (const _ of createReadStream(replicaPath, { highWaterMark: 1 << 22 })) {
      // raw read: bytes only
    }
    const rawReadSeconds = Math.round(performance.now() - r0) / 1000;

    const load = () => loadavg().map((l) => Math.round(l * 100) / 100);
    const loadBefore = load();
    const outPolygon = path.join(dir, 'clip-polygon.las');
    const outBox = path.join(dir, 'clip-box.las');
    const polygon = await timed(['clip', replicaPath, outPolygon, '--polygon', polygonFile]);
    const box = await timed([
      'clip',
      replicaPath,
      outBox,
      '--bbox',
      [cx - 500, cy - 500, cx + 500, cy + 500].join(','),
    ]);
    const polygonBytes = (await stat(outPolygon)).size;
    const boxBytes = (await stat(outBox)).size;
    await rm(outPolygon, { force: true });
    await rm(outBox, { force: true });
    const points = (s: string) => Number(/^wrote (\d+)/.exec(s)?.[1] ?? Number.NaN);

    let laz: Record<string, unknown> | null = null;
    if (!args.includes('--skip-laz')) {
      const mosaic = await ensureMosaicLaz();
      const r = await openPointCloud(mosaic.path);
      const h = r.header;
      await r.close();
      const mx = (h.min[0] + h.max[0]) / 2;
      const my = (h.min[1] + h.max[1]) / 2;
      const ring = corners.map(([x, y]) => [x! - cx + mx, y! - cy + my]);
      const lazPolygon = path.join(dir, 'polygon-1km2-mosaic.geojson');
      await writeFile(lazPolygon, JSON.stringify({ type: 'Polygon', coordinates: [ring] }));
      const outLaz = path.join(dir, 'clip-polygon.laz');
      const run = await timed(['clip', mosaic.path, outLaz, '--polygon', lazPolygon]);
      laz = {
        input: { path: mosaic.path, bytes: mosaic.bytes, points: mosaic.pointCount },
        polygon1km2ToLaz: { ...run, points: points(run.stdout), outputBytes: (await stat(outLaz)).size },
      };
      await rm(outLaz, { force: true });
    }
    return {
      input: {
        path: replicaPath,
        bytes,
        gb: Math.round((bytes / 2 ** 30) * 100) / 100,
        points: pointCount,
        replicaSeconds,
      },
      polygon1km2: {
        ...polygon,
        points: points(polygon.stdout),
        outputBytes: polygonBytes,
        inputPointsPerSecond: Math.round(pointCount / polygon.wallSeconds),
      },
      box1km2: { ...box, points: points(box.stdout), outputBytes: boxBytes },
      lazMosaic: laz,
      reference: { what: 'reading the replica file bytes (no decoding), same run', rawReadSeconds },
      loadBefore,
      loadAfter: load(),
    };
  },
};

export default suite;
