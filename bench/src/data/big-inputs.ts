/**
 * Big benchmark inputs, generated once into bench/data/ (git-ignored) by laying
 * copies of the real files side by side with offsets. Shared by the read and
 * tile benchmarks.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { writeLas } from '@nuage/engine/writers/las.writer.js';
import { spliceLaz } from '@nuage/engine/writers/laz-splice.js';
import { realFile } from '@nuage/fixtures/real-data.js';

/** Folder of generated inputs (git-ignored). */
export const BENCH_DATA_DIR = path.join(import.meta.dirname, '..', '..', 'data');

/** The four adjacent BC forest tiles (2.83 M points, ~210 m x 1060 m together). */
export const MOSAIC_TILES = ['bcts_1.laz', 'bcts_2.laz', 'bcts_3.laz', 'bcts_4.laz'];

/** Every real LAZ file (6.99 M points in total). */
export const REAL_LAZ_FILES = [
  'las_with_several_extra_byte_bloc.laz',
  'test_semis_2021_0382_6565_LA93_IGN69_cropped.laz',
  'ahn3_cropped_1.laz',
  'fusa.laz',
  'MixedConifer.laz',
  'Megaplot.laz',
  'bcts_1.laz',
  'bcts_2.laz',
  'bcts_3.laz',
  'bcts_4.laz',
  'building_WilliamsAZ_Urban_normalized.laz',
  'wires.laz',
];

export interface BigInput {
  path: string;
  pointCount: number;
  bytes: number;
}

async function* shifted(copies: number, stepX: number): AsyncIterable<PointChunk> {
  for (let copy = 0; copy < copies; copy++) {
    for (const name of MOSAIC_TILES) {
      const reader = await openPointCloud(realFile(name));
      for await (const chunk of reader.read()) {
        const dx = copy * stepX;
        for (let i = 0; i < chunk.count; i++) chunk.x[i] = chunk.x[i]! + dx;
        yield chunk;
      }
      await reader.close();
    }
  }
}

/**
 * A LAS 1.4 file (point format 6, EPSG:3005) of at least `minPoints` points:
 * copies of the bcts mosaic laid 250 m apart along X. Generated once; later
 * calls return the existing file.
 */
export async function ensureMosaicLas(minPoints = 20_000_000): Promise<BigInput> {
  const perCopy = 531_662 + 823_945 + 887_254 + 591_489;
  const copies = Math.ceil(minPoints / perCopy);
  const file = path.join(BENCH_DATA_DIR, `bcts-mosaic-x${copies}.las`);
  const marker = `${file}.json`;
  if (existsSync(file) && existsSync(marker)) {
    const info = JSON.parse(await readFile(marker, 'utf8')) as BigInput;
    if ((await stat(file)).size === info.bytes) return info;
  }
  await mkdir(BENCH_DATA_DIR, { recursive: true });
  const first = await openPointCloud(realFile(MOSAIC_TILES[0]!));
  const crs = first.crs;
  await first.close();
  const partial = `${file}.partial`;
  const record = await writeLas(partial, shifted(copies, 250), {
    crs,
    scale: [0.01, 0.01, 0.01],
    offset: [885000, 629000, 0],
  });
  await rename(partial, file);
  const info: BigInput = { path: file, pointCount: record.pointCount, bytes: record.bytes };
  await writeFile(marker, JSON.stringify(info));
  return info;
}

/**
 * The LAZ twin of {@link ensureMosaicLas}: the same copies of the bcts mosaic,
 * 250 m apart along X, in one LAZ 1.2 file (point format 1) of at least
 * `minPoints` points. No LAZ encoder runs in Node, so the real files'
 * compressed chunks are spliced as they are (engine/src/writers/laz-splice.ts),
 * each chunk's raw first point shifted: the decoder sees real LASzip data.
 */
export async function ensureMosaicLaz(minPoints = 20_000_000): Promise<BigInput> {
  const perCopy = 531_662 + 823_945 + 887_254 + 591_489;
  const copies = Math.ceil(minPoints / perCopy);
  const file = path.join(BENCH_DATA_DIR, `bcts-mosaic-x${copies}.laz`);
  const marker = `${file}.json`;
  if (existsSync(file) && existsSync(marker)) {
    const info = JSON.parse(await readFile(marker, 'utf8')) as BigInput;
    if ((await stat(file)).size === info.bytes) return info;
  }
  await mkdir(BENCH_DATA_DIR, { recursive: true });
  const pieces = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const name of MOSAIC_TILES) pieces.push({ path: realFile(name), dx: copy * 250, dy: 0 });
  }
  const partial = `${file}.partial`;
  const result = await spliceLaz(pieces, partial);
  await rename(partial, file);
  const info: BigInput = { path: file, pointCount: result.pointCount, bytes: result.bytes };
  await writeFile(marker, JSON.stringify(info));
  return info;
}
