/**
 * COPC reader. No real COPC file is in the shared data, so the test builds one
 * from a real LAS 1.4 LAZ (layered compressor, point format 8): every LAZ chunk
 * becomes an octree node (chunk 0 the root, chunks 1-8 depth 1, the rest depth
 * 2), with a COPC info VLR in front and a hierarchy EVLR at the end. Node cells
 * do not follow the points (the chunks are in file order), so the bbox test only
 * uses boxes that cover or miss the whole cube.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySource, openPointCloud } from '../src/readers/index.js';
import { readLasHeader } from '../src/readers/las-header.js';
import { readLazChunkTable } from '../src/readers/laz-chunk-table.js';

const SOURCE = 'las_with_several_extra_byte_bloc.laz';
let dir = '';
let copcPath = '';
let spacing = 0;
let cube: number[] = [];

async function buildCopc(): Promise<Uint8Array> {
  const original = Buffer.from(readFileSync(realFile(SOURCE)));
  const header = await readLasHeader(memorySource(original));
  const chunks = await readLazChunkTable(memorySource(original), header);
  const insert = 54 + 160;
  const [minX, minY, minZ] = header.min;
  const [maxX, maxY, maxZ] = header.max;
  const half = Math.max(maxX - minX, maxY - minY, maxZ - minZ) / 2 + 1;
  const center = [(minX + maxX) / 2, (minY + maxY) / 2, (minZ + maxZ) / 2];
  cube = [
    center[0]! - half,
    center[1]! - half,
    center[2]! - half,
    center[0]! + half,
    center[1]! + half,
    center[2]! + half,
  ];
  spacing = (2 * half) / 64;

  const keys: number[][] = [[0, 0, 0, 0]];
  for (let i = 0; i < 8; i++) keys.push([1, i & 1, (i >> 1) & 1, (i >> 2) & 1]);
  for (let i = 0; keys.length < chunks.length; i++) keys.push([2, i & 3, (i >> 2) & 3, (i >> 4) & 3]);
  const hierarchy = Buffer.alloc(32 * chunks.length);
  chunks.forEach((c, i) => {
    const k = keys[i]!;
    for (let j = 0; j < 4; j++) hierarchy.writeInt32LE(k[j]!, i * 32 + 4 * j);
    hierarchy.writeBigUInt64LE(BigInt(c.offset + insert), i * 32 + 16);
    hierarchy.writeInt32LE(c.byteLength, i * 32 + 24);
    hierarchy.writeInt32LE(c.pointCount, i * 32 + 28);
  });
  const evlrOffset = original.length + insert;
  const evlr = Buffer.alloc(60);
  evlr.write('copc', 2);
  evlr.writeUInt16LE(1000, 18);
  evlr.writeBigUInt64LE(BigInt(hierarchy.length), 20);

  const info = Buffer.alloc(160);
  for (let i = 0; i < 3; i++) info.writeDoubleLE(center[i]!, 8 * i);
  info.writeDoubleLE(half, 24);
  info.writeDoubleLE(spacing, 32);
  info.writeBigUInt64LE(BigInt(evlrOffset + 60), 40);
  info.writeBigUInt64LE(BigInt(hierarchy.length), 48);
  const infoVlr = Buffer.alloc(54);
  infoVlr.write('copc', 2);
  infoVlr.writeUInt16LE(1, 18);
  infoVlr.writeUInt16LE(160, 20);

  const head = Buffer.from(original.subarray(0, header.headerSize));
  head.writeUInt32LE(header.pointDataOffset + insert, 96);
  head.writeUInt32LE(original.readUInt32LE(100) + 1, 100);
  head.writeBigUInt64LE(BigInt(evlrOffset), 235);
  head.writeUInt32LE(1, 243);
  return Buffer.concat([head, infoVlr, info, original.subarray(header.headerSize), evlr, hierarchy]);
}

beforeAll(async () => {
  if (!hasRealData()) return;
  dir = await mkdtemp(path.join(tmpdir(), 'nuage-copc-'));
  copcPath = path.join(dir, 'synthetic.copc.laz');
  await writeFile(copcPath, await buildCopc());
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function summary(file: string, options: Parameters<Awaited<ReturnType<typeof openPointCloud>>['read']>[0] = {}) {
  const reader = await openPointCloud(file);
  let count = 0;
  let sumX = 0;
  const classes: Record<number, number> = {};
  for await (const chunk of reader.read(options)) {
    count += chunk.count;
    for (let i = 0; i < chunk.count; i++) {
      sumX += chunk.x[i]! - 484000;
      classes[chunk.classification![i]!] = (classes[chunk.classification![i]!] ?? 0) + 1;
    }
  }
  const kind = reader.kind;
  await reader.close();
  return { kind, count, sumX: Math.round(sumX * 100), classes };
}

describe.skipIf(!hasRealData())('COPC reader', () => {
  it('reads the whole file like the LAZ reader', async () => {
    const copc = await summary(copcPath);
    const laz = await summary(realFile(SOURCE), { workers: 0 });
    expect(copc.kind).toBe('copc');
    expect(laz.kind).toBe('laz');
    expect(copc.count).toBe(697_721);
    expect(copc).toEqual({ ...laz, kind: 'copc' });
  });

  it('stops at the octree depth a resolution needs', async () => {
    expect((await summary(copcPath, { resolution: spacing })).count).toBe(50_000);
    expect((await summary(copcPath, { resolution: spacing / 2 })).count).toBe(9 * 50_000);
    expect((await summary(copcPath, { resolution: spacing / 4 })).count).toBe(697_721);
  });

  it('skips nodes outside a bbox', async () => {
    const [minX, minY, , maxX, maxY] = cube as [number, number, number, number, number, number];
    expect((await summary(copcPath, { bbox: { minX, minY, maxX, maxY } })).count).toBe(697_721);
    expect((await summary(copcPath, { bbox: { minX: maxX + 10, minY, maxX: maxX + 20, maxY } })).count).toBe(0);
  });
});
