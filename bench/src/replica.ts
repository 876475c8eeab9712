/**
 * A big real-replica input for the whole-pipeline bench: copies of real
 * files laid side by side with offsets, so the content is real (a forest
 * mosaic, a power-line corridor) at any size. Streamed into one LAS 1.4
 * (PDRF 6) file chunk by chunk, never whole in memory.
 */
import { stat } from 'node:fs/promises';
import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { writeLas } from '@nuage/engine/writers/las.writer.js';
import { realFile } from '@nuage/fixtures/real-data.js';

/** One block of the replica: the four adjacent bcts tiles (EPSG:3005) and the AHN corridor beside them. */
const BLOCK = [
  { file: 'bcts_1.laz' },
  { file: 'bcts_2.laz' },
  { file: 'bcts_3.laz' },
  { file: 'bcts_4.laz' },
  // Laid east of the bcts mosaic (its own CRS is RD New: only its content is reused).
  { file: 'ahn_corridor_12AN2_20.laz', epsg: 28992, beside: true },
] as const;

interface Extent {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

async function headerExtent(file: string, epsg?: number): Promise<Extent> {
  const reader = await openPointCloud(realFile(file), epsg ? { epsg } : {});
  try {
    const { min, max } = reader.header;
    return { minX: min[0]!, minY: min[1]!, maxX: max[0]!, maxY: max[1]! };
  } finally {
    await reader.close();
  }
}

/** What {@link writeReplica} wrote. */
export interface Replica {
  path: string;
  bytes: number;
  points: number;
  blocks: number;
  epsg: number;
}

/**
 * Writes at least `targetBytes` of LAS: blocks of real files on a grid
 * (10 m apart), every point shifted to its block's place. The CRS is the bcts
 * tiles' (EPSG:3005, metres).
 */
export async function writeReplica(out: string, targetBytes: number): Promise<Replica> {
  const extents = await Promise.all(BLOCK.map((b) => headerExtent(b.file, 'epsg' in b ? b.epsg : undefined)));
  const mosaic = extents.slice(0, 4).reduce((a, e) => ({
    minX: Math.min(a.minX, e.minX),
    minY: Math.min(a.minY, e.minY),
    maxX: Math.max(a.maxX, e.maxX),
    maxY: Math.max(a.maxY, e.maxY),
  }));
  const corridor = extents[4]!;
  const gap = 10;
  const mosaicW = mosaic.maxX - mosaic.minX;
  const blockW = mosaicW + gap + (corridor.maxX - corridor.minX);
  const blockH = Math.max(mosaic.maxY - mosaic.minY, corridor.maxY - corridor.minY);
  let points = 0;
  for (const b of BLOCK) {
    const reader = await openPointCloud(realFile(b.file), 'epsg' in b ? { epsg: b.epsg } : {});
    points += reader.header.pointCount;
    await reader.close();
  }
  const bytesPerBlock = points * 30;
  const blocks = Math.max(1, Math.ceil(targetBytes / bytesPerBlock));
  const columns = Math.ceil(Math.sqrt(blocks));
  const first = await openPointCloud(realFile(BLOCK[0].file));
  const crs = first.crs;
  await first.close();

  async function* chunks(): AsyncGenerator<PointChunk> {
    for (let k = 0; k < blocks; k++) {
      const bx = mosaic.minX + (k % columns) * (blockW + gap);
      const by = mosaic.minY + Math.floor(k / columns) * (blockH + gap);
      for (let f = 0; f < BLOCK.length; f++) {
        const b = BLOCK[f]!;
        const e = extents[f]!;
        // bcts tiles keep their places in the mosaic; the corridor sits east of it.
        const dx = 'beside' in b ? bx + mosaicW + gap - e.minX : bx - mosaic.minX;
        const dy = 'beside' in b ? by - e.minY : by - mosaic.minY;
        const reader = await openPointCloud(realFile(b.file), 'epsg' in b ? { epsg: b.epsg } : {});
        try {
          for await (const chunk of reader.read({ workers: 0 })) {
            for (let i = 0; i < chunk.count; i++) {
              chunk.x[i]! += dx;
              chunk.y[i]! += dy;
            }
            yield chunk;
          }
        } finally {
          await reader.close();
        }
      }
    }
  }
  const record = await writeLas(out, chunks(), {
    crs,
    scale: [0.01, 0.01, 0.01],
    offset: [Math.floor(mosaic.minX / 1000) * 1000, Math.floor(mosaic.minY / 1000) * 1000, 0],
    pointFormat: 6,
    generatingSoftware: 'nuage bench replica',
  });
  return { path: out, bytes: (await stat(out)).size, points: record.pointCount, blocks, epsg: crs?.epsg ?? 3005 };
}

/** What {@link timeWholeProcess} measured. */
export interface ProcessFigures {
  wallSeconds: number;
  userSeconds: number | null;
  systemSeconds: number | null;
  maxRssMb: number | null;
  productsMs: Record<string, number>;
  /** Each product's peak RSS while it ran, and the RSS it left behind, MB (from the manifest). */
  productsMemory: Record<string, { peakRssMb: number; rssMb: number; heapUsedMb: number; arrayBuffersMb: number }>;
  failed: string[];
  loadBefore: number[];
  loadAfter: number[];
}

/**
 * Runs `nuage process IN OUTDIR` (every product, default options) as a user
 * does — a child process of engine/bin/nuage.mjs — under /usr/bin/time when
 * installed (CPU and peak RSS), and reads each product's time from the manifest.
 */
export async function timeWholeProcess(
  input: string,
  outDir: string,
  extraArgs: readonly string[] = [],
): Promise<ProcessFigures> {
  const { spawn } = await import('node:child_process');
  const { existsSync } = await import('node:fs');
  const { readFile } = await import('node:fs/promises');
  const { loadavg } = await import('node:os');
  const path = await import('node:path');
  const root = path.resolve(import.meta.dirname, '..', '..');
  const bin = path.join(root, 'engine', 'bin', 'nuage.mjs');
  const timed = existsSync('/usr/bin/time');
  const command = timed ? '/usr/bin/time' : process.execPath;
  const argv = [
    ...(timed ? ['-f', 'TIME %e %U %S %M', process.execPath] : []),
    bin,
    'process',
    input,
    outDir,
    ...extraArgs,
  ];
  const load = () => loadavg().map((l) => Math.round(l * 100) / 100);
  const loadBefore = load();
  const t0 = performance.now();
  const stderr = await new Promise<string>((resolve, reject) => {
    // Each product's own peak RSS in the manifest (which resets the process's, see engine core/memory.ts).
    const env = { ...process.env, NUAGE_PRODUCT_PEAKS: '1' };
    const child = spawn(command, argv, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err += String(d);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(err) : reject(new Error(`nuage process exited ${code}: ${err.slice(-2000)}`)),
    );
  });
  const wallMs = performance.now() - t0;
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  const manifest = JSON.parse(await readFile(path.join(outDir, 'manifest.json'), 'utf8')) as {
    products: Array<{ id: string; status: string; ms?: number; memory?: ProcessFigures['productsMemory'][string] }>;
  };
  const productsMs: Record<string, number> = {};
  const productsMemory: ProcessFigures['productsMemory'] = {};
  const failed: string[] = [];
  for (const p of manifest.products) {
    if (typeof p.ms === 'number') productsMs[p.id] = Math.round(p.ms);
    if (p.memory) productsMemory[p.id] = p.memory;
    if (p.status !== 'READY') failed.push(`${p.id}: ${p.status}`);
  }
  return {
    wallSeconds: Math.round(wallMs) / 1000,
    userSeconds: m ? Number(m[2]) : null,
    systemSeconds: m ? Number(m[3]) : null,
    // The products' peaks windows cover the run: their largest is the process's peak.
    maxRssMb:
      Math.max(m ? Math.round(Number(m[4]) / 1024) : 0, ...Object.values(productsMemory).map((p) => p.peakRssMb)) ||
      null,
    productsMs,
    productsMemory,
    failed,
    loadBefore,
    loadAfter: load(),
  };
}
