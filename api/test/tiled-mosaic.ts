import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { writeLas } from '@nuage/engine/writers/las.writer.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { findJob, type JobRow } from '../src/db/queries/jobs.queries.js';
import type { TestApp } from './app.js';
import { as, type TestUser, uploadRealFile, waitFor } from './projects.js';

/**
 * What the tiled-processing tests share (issue 24 goal 2): the four bcts tiles
 * as one project, the tiled settings, and the products they compare.
 */

/** Tiled processing settings for a 2.83 M-point mosaic: 4 tiles of about 750 k points. */
export const TILED_ENV = {
  TILED_PROCESSING_POINTS: '1000000',
  TILE_POINTS: '750000',
  TILE_BUFFER_METRES: '30',
  TILE_STALE_SECONDS: '60',
};

/** Points in the mosaic of the four bcts tiles. */
export const MOSAIC_POINTS = 2_834_350;

/** The four adjacent bcts tiles (EPSG:3005) as one LAS file: one project. */
export async function writeMosaic(file: string): Promise<number> {
  const names = ['bcts_1.laz', 'bcts_2.laz', 'bcts_3.laz', 'bcts_4.laz'];
  const first = await openPointCloud(realFile(names[0]!));
  const crs = first.crs!;
  const scale = first.header.scale;
  await first.close();
  let count = 0;
  async function* chunks(): AsyncIterable<PointChunk> {
    for (const name of names) {
      const reader = await openPointCloud(realFile(name));
      try {
        for await (const chunk of reader.read({ workers: 0 })) {
          count += chunk.count;
          yield chunk;
        }
      } finally {
        await reader.close();
      }
    }
  }
  await writeLas(file, chunks(), { crs, scale, generatingSoftware: 'Nuage test mosaic' });
  return count;
}

/** What the comparison looks at: class counts of the classified cloud, tree tops and contours as stored in PostGIS. */
export interface Products {
  classCounts: Record<string, number>;
  trees: number;
  treesDigest: string;
  contours: number;
  contoursLength: number;
  contoursDigest: string;
}

export async function productsOf(t: TestApp, job: JobRow): Promise<Products> {
  const runs = (job.result as { products: Array<{ id: string; figures?: { classCounts?: Record<string, number> } }> })
    .products;
  const classCounts = runs.find((r) => r.id === 'classify')!.figures!.classCounts!;
  const of = async (type: string) => {
    const r = await sql<{ n: number; length: number; digest: string }>`
      SELECT count(*)::int AS n, coalesce(sum(ST_Length(geom::geography)), 0)::float8 AS length,
             md5(coalesce(string_agg(ST_AsText(ST_SnapToGrid(geom, 1e-7)), ',' ORDER BY ST_AsText(ST_SnapToGrid(geom, 1e-7))), '')) AS digest
        FROM features f JOIN assets a ON a.id = f.asset_id
       WHERE a.project_id = ${job.project_id} AND a.type = ${type}`.execute(t.tdb.db);
    return r.rows[0]!;
  };
  const trees = await of('TREE_TOPS');
  const contours = await of('CONTOUR_LINE');
  return {
    classCounts,
    trees: trees.n,
    treesDigest: trees.digest,
    contours: contours.n,
    contoursLength: Math.round(contours.length * 100) / 100,
    contoursDigest: contours.digest,
  };
}

/** Uploads the mosaic as a new project of `user` and starts its tiling and processing; returns the project id. */
export async function startMosaicProject(t: TestApp, user: TestUser, name: string, mosaic: string): Promise<string> {
  const { project, assetId } = await uploadRealFile(t, user, name, mosaic);
  const res = await t.app.request(
    '/api/assets/start-tiling',
    as(user, 'POST', { assetId, processingOptions: { products: ['tree-tops', 'contours'], dtmResolutionCm: 100 } }),
  );
  expect(res.status).toBe(200);
  return project.id;
}

/** The project's PROCESSING job once it exists. */
export async function processingJobOf(t: TestApp, projectId: string): Promise<JobRow> {
  return waitFor(
    async () =>
      t.tdb.db
        .selectFrom('jobs')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('kind', '=', 'PROCESSING')
        .executeTakeFirst(),
    600_000,
    'the processing job',
  ) as Promise<JobRow>;
}

/** The project's PROCESSING job once it succeeded (throws with `output()` if it failed). */
export async function processed(t: TestApp, projectId: string, output: () => string): Promise<JobRow> {
  const job = await processingJobOf(t, projectId);
  return waitFor(
    async () => {
      const j = (await findJob(t.tdb.db, job.id))!;
      if (j.state === 'FAILURE') throw new Error(`processing failed: ${j.error_message}\n${output()}`);
      return j.state === 'SUCCESS' ? j : null;
    },
    900_000,
    'the processing to succeed',
  );
}
