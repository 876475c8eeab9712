import copcModule from 'copc';
import { DEFAULT_CHUNK_SIZE, type PointChunk } from '../core/chunk.js';
import { EngineError, InvalidInput } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import type { ByteSource } from './byte-source.js';
import { findVlr, type LasHeader } from './las-header.js';
import { decodeLazChunk } from './laz-decode.mjs';
import {
  outsideBounds,
  type PointCloudReader,
  type ReadBounds,
  type ReadOptions,
  recordsToChunk,
  throwIfAborted,
} from './point-cloud-reader.js';

const { Copc, Key } = copcModule;

/** Reader metadata (loaders.gl style). */
export const COPC_READER = { id: 'readers.copc', name: 'COPC', extensions: ['copc.laz'], magic: 'LASF' } as const;

/** COPC octree facts from the copc/1 info VLR. */
export interface CopcInfo {
  cube: [number, number, number, number, number, number];
  spacing: number;
  rootHierarchyPage: { pageOffset: number; pageLength: number };
}

/** True when the header carries a COPC info VLR. */
export function isCopc(header: LasHeader): boolean {
  return findVlr(header, 'copc', 1) !== undefined;
}

/**
 * COPC reader (the `copc` package walks the hierarchy; laz-perf decodes
 * nodes). Whole file, or only the octree nodes that intersect a bbox and are
 * no finer than a resolution: node spacing at depth d is spacing / 2^d.
 */
export async function createCopcReader(
  source: ByteSource,
  header: LasHeader,
  crs: CrsInfo | null,
): Promise<PointCloudReader> {
  const getter = async (begin: number, end: number) => source.read(begin, end - begin);
  let info: CopcInfo;
  try {
    const copc = await Copc.create(getter);
    info = copc.info as unknown as CopcInfo;
  } catch (error) {
    throw new InvalidInput(
      'vlr[copc/1]',
      `invalid COPC info: ${(error as Error).message}`,
      findVlr(header, 'copc', 1)!.contentOffset,
    );
  }
  return {
    kind: 'copc',
    header,
    crs,
    crsRequired: crs === null,
    read: (options: ReadOptions = {}) => readCopc(source, header, info, getter, options),
    close: () => source.close(),
  };
}

function nodeBounds(info: CopcInfo, [d, x, y, z]: number[]): ReadBounds {
  const [minX, minY, minZ, maxX] = info.cube;
  const size = (maxX - minX) / 2 ** d!;
  return {
    minX: minX + x! * size,
    minY: minY + y! * size,
    minZ: minZ + z! * size,
    maxX: minX + (x! + 1) * size,
    maxY: minY + (y! + 1) * size,
    maxZ: minZ + (z! + 1) * size,
  };
}

function intersects(a: ReadBounds, b: ReadBounds | undefined): boolean {
  if (!b) return true;
  return a.minX <= b.maxX && a.maxX >= b.minX && a.minY <= b.maxY && a.maxY >= b.minY;
}

async function* readCopc(
  source: ByteSource,
  header: LasHeader,
  info: CopcInfo,
  getter: (begin: number, end: number) => Promise<Uint8Array>,
  options: ReadOptions,
): AsyncIterable<PointChunk> {
  if (outsideBounds(header, options.bbox)) return;
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE));
  const maxDepth =
    options.resolution && options.resolution > 0
      ? Math.max(0, Math.ceil(Math.log2(info.spacing / options.resolution)))
      : Number.POSITIVE_INFINITY;
  const pages = [info.rootHierarchyPage];
  while (pages.length > 0) {
    const page = pages.shift()!;
    let subtree: Awaited<ReturnType<typeof Copc.loadHierarchyPage>>;
    try {
      subtree = await Copc.loadHierarchyPage(getter, page);
    } catch (error) {
      if (error instanceof EngineError) throw error;
      throw new InvalidInput(
        'copc.hierarchy',
        `cannot read hierarchy page: ${(error as Error).message}`,
        page.pageOffset,
      );
    }
    for (const [key, child] of Object.entries(subtree.pages)) {
      const k = Key.parse(key);
      if (child && k[0] <= maxDepth && intersects(nodeBounds(info, k), options.bbox)) pages.push(child);
    }
    for (const [key, node] of Object.entries(subtree.nodes)) {
      throwIfAborted(options.signal);
      const k = Key.parse(key);
      if (!node || node.pointCount <= 0 || k[0] > maxDepth || !intersects(nodeBounds(info, k), options.bbox)) continue;
      if (node.pointDataOffset + node.pointDataLength > source.size) {
        throw new InvalidInput(`copc.node[${key}]`, 'point data runs past the end of the file', node.pointDataOffset);
      }
      const compressed = await source.read(node.pointDataOffset, node.pointDataLength);
      let records: Uint8Array;
      try {
        records = await decodeLazChunk(compressed, header.pointFormat, header.recordLength, node.pointCount);
      } catch (error) {
        throw new InvalidInput(
          `copc.node[${key}]`,
          `cannot decompress: ${(error as Error).message}`,
          node.pointDataOffset,
        );
      }
      for (let start = 0; start < node.pointCount; start += chunkSize) {
        const n = Math.min(chunkSize, node.pointCount - start);
        const chunk = recordsToChunk(
          records.subarray(start * header.recordLength, (start + n) * header.recordLength),
          n,
          header,
          options.bbox,
        );
        if (chunk.count > 0) yield chunk;
      }
    }
  }
}
