import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { JOB_SORT_COLUMNS } from '../db/queries/jobs.queries.js';
import type { JobKind } from '../db/types.js';
import { requireRole } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import {
  errorResponses,
  jsonResponse,
  SESSION_SECURITY,
  tablePageSchema,
  tableQuerySchema,
} from '../openapi/schemas.js';
import { getJob, listJobsPage, retryProcessing } from '../services/jobs.service.js';
import { IdSchema, JobSchema, JobStateSchema } from './projects.schemas.js';

const TAG = ['Admin'];
const ADMIN = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'], 403: ['FORBIDDEN'] } as const;
const JobPageSchema = tablePageSchema(JobSchema, 'JobPage');
const jobQuery = tableQuerySchema(JOB_SORT_COLUMNS, 'id').extend({
  state: JobStateSchema.optional(),
  projectId: IdSchema.optional(),
});

/** The monitors of the admin area (spec §2; classification edits, issue 23) and the job kind each shows. */
const MONITORS: Array<{ path: string; kind: JobKind; title: string }> = [
  { path: 'process-data', kind: 'PROCESSING', title: 'processing' },
  { path: 'tiling', kind: 'TILING', title: 'tiling' },
  { path: 'metadata-processing', kind: 'METADATA', title: 'metadata extraction' },
  { path: 'classification-edits', kind: 'CLASSIFICATION_EDIT', title: 'classification edit' },
];

const retryRoute = createRoute({
  method: 'post',
  path: '/admin/process-data/{id}/retry',
  tags: TAG,
  summary: 'Retry a failed processing',
  description:
    'The same job runs again (retryCount + 1). Answers the job in PENDING ("new attempt launched"); 409 JOB_NOT_FAILED when it is not a failure ("failed to launch").',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { params: z.object({ id: IdSchema }) },
  responses: {
    202: jsonResponse(JobSchema, 'New attempt launched'),
    ...errorResponses({ ...ADMIN, 404: ['JOB_NOT_FOUND'], 409: ['JOB_NOT_FAILED', 'PROJECT_NOT_READY'] }),
  },
});

/** Admin job monitors (process-data, tiling, metadata-processing): lists, views and the processing retry. */
export function adminJobsRoutes(deps: AppDeps) {
  const app = createRouteGroup();
  app.use('/admin/*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });

  for (const m of MONITORS) {
    const list = createRoute({
      method: 'get',
      path: `/admin/${m.path}`,
      tags: TAG,
      summary: `Monitor of ${m.title} jobs (table contract)`,
      security: SESSION_SECURITY,
      middleware: [requireRole('admin')] as const,
      request: { query: jobQuery },
      responses: {
        200: jsonResponse(JobPageSchema, 'One page of jobs'),
        ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN }),
      },
    });
    app.openapi(list, async (c) => {
      return c.json(await listJobsPage(deps, { ...c.req.valid('query'), kind: m.kind }), 200);
    });
  }

  const viewProcessing = createRoute({
    method: 'get',
    path: '/admin/process-data/{id}',
    tags: TAG,
    summary: 'One processing job',
    security: SESSION_SECURITY,
    middleware: [requireRole('admin')] as const,
    request: { params: z.object({ id: IdSchema }) },
    responses: { 200: jsonResponse(JobSchema, 'The job'), ...errorResponses({ ...ADMIN, 404: ['JOB_NOT_FOUND'] }) },
  });
  app.openapi(viewProcessing, async (c) => c.json(await getJob(deps, 'PROCESSING', c.req.valid('param').id), 200));

  for (const m of MONITORS.filter((x) => x.kind !== 'PROCESSING')) {
    const view = createRoute({
      method: 'get',
      path: `/admin/${m.path}/{projectId}/{jobId}`,
      tags: TAG,
      summary: `One ${m.title} job of a project`,
      security: SESSION_SECURITY,
      middleware: [requireRole('admin')] as const,
      request: { params: z.object({ projectId: IdSchema, jobId: IdSchema }) },
      responses: { 200: jsonResponse(JobSchema, 'The job'), ...errorResponses({ ...ADMIN, 404: ['JOB_NOT_FOUND'] }) },
    });
    app.openapi(view, async (c) => {
      const { projectId, jobId } = c.req.valid('param');
      return c.json(await getJob(deps, m.kind, jobId, projectId), 200);
    });
  }

  app.openapi(retryRoute, async (c) => c.json(await retryProcessing(deps, c.req.valid('param').id), 202));

  return app;
}
