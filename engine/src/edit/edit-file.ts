import type { PointChunk } from '../core/chunk.js';
import { CrsRequired } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import { gatherCloud, splitCloud } from '../filters/cloud.js';
import { openPointCloud } from '../readers/index.js';
import type { LasHeader } from '../readers/las-header.js';
import { writeLas } from '../writers/las.writer.js';
import { applyClassEdits, type ClassEdit, type EditChange } from './class-edits.js';

/** A whole cloud in memory with what writing it back needs. */
export interface LoadedCloud {
  cloud: PointChunk;
  crs: CrsInfo;
  header: LasHeader;
}

/** Reads a LAS/LAZ file into one chunk (inline decoding); CrsRequired without a CRS. */
export async function loadCloud(
  file: string,
  opts: { epsg?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<LoadedCloud> {
  const reader = await openPointCloud(file, opts.epsg === undefined ? {} : { epsg: opts.epsg });
  let cloud: PointChunk;
  try {
    cloud = await gatherCloud(reader.read({ ...(opts.signal ? { signal: opts.signal } : {}), workers: 0 }));
  } finally {
    await reader.close();
  }
  if (!reader.crs) throw new CrsRequired('the point cloud has no CRS: give one with --epsg (or the asset epsgCode)');
  return { cloud, crs: reader.crs, header: reader.header as LasHeader };
}

/** Writes a cloud with new classes as LAS 1.4, the way the classified cloud product writes it. */
export async function writeClassifiedLas(
  outPath: string,
  loaded: LoadedCloud,
  classification: Uint8Array<ArrayBuffer>,
  signal?: AbortSignal,
): Promise<void> {
  async function* chunks(): AsyncIterable<PointChunk> {
    yield* splitCloud({ ...loaded.cloud, classification });
  }
  await writeLas(outPath, chunks(), {
    crs: loaded.crs,
    scale: loaded.header.scale,
    offset: loaded.header.offset,
    extraBytes: loaded.header.extraBytes,
    generatingSoftware: 'Nuage engine',
    ...(signal ? { signal } : {}),
  });
}

/** Result of {@link editClassesFile}. */
export interface EditFileResult {
  pointCount: number;
  /** Per edit, null when REVERTED. */
  changed: Array<EditChange | null>;
  /** Classes of the input and of the output. */
  before: Uint8Array;
  after: Uint8Array<ArrayBuffer>;
  loaded: LoadedCloud;
}

/**
 * Applies edits to a classified LAS/LAZ file and writes the result as LAS 1.4
 * (same points, dimensions and extra bytes; only the classes differ).
 *
 * @example
 * const r = await editClassesFile('classified.las', 'edited.las', edits);
 */
export async function editClassesFile(
  inPath: string,
  outPath: string,
  edits: readonly ClassEdit[],
  opts: { epsg?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<EditFileResult> {
  const loaded = await loadCloud(inPath, opts);
  const before = new Uint8Array(loaded.cloud.count);
  if (loaded.cloud.classification) before.set(loaded.cloud.classification.subarray(0, loaded.cloud.count));
  const { classification, changed } = applyClassEdits(
    loaded.cloud,
    loaded.crs,
    edits,
    opts.signal ? { signal: opts.signal } : {},
  );
  await writeClassifiedLas(outPath, loaded, classification, opts.signal);
  return { pointCount: loaded.cloud.count, changed, before, after: classification, loaded };
}
