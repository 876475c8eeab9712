import { createRoute, z } from '@hono/zod-openapi';
import { PRODUCTS } from '@nuage/engine/products/registry.js';
import type { AppDeps } from '../context.js';
import { requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonBody, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { projectFor, userViewer } from '../services/access.service.js';
import { listJobsPage, requestProcessing } from '../services/jobs.service.js';
import { IdSchema, JobSchema, ProcessingOptionsBodySchema, ProductInfoSchema } from './projects.schemas.js';

const TAG = ['Processing'];
const AUTH = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;

const processRoute = createRoute({
  method: 'post',
  path: '/projects/{id}/processing',
  tags: TAG,
  summary: 'Process a project with the form’s options',
  description:
    'Queues the processing (every product the engine has, each becoming an asset). Ranges of spec §5, in cm; the major contour interval must be greater than the minor one. It starts at once when the point cloud is tiled, else when tiling ends. A mail goes out when it ends. The owner’s subscription must be active and the credits left (hectares) must cover the project area (402 INSUFFICIENT_CREDITS with details {required, available}).',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: {
    params: z.object({ id: IdSchema }),
    body: jsonBody(z.object({ options: ProcessingOptionsBodySchema.optional() }).openapi('ProcessingRequest')),
  },
  responses: {
    202: jsonResponse(JobSchema, 'Accepted (PENDING)'),
    ...errorResponses({
      400: ['FORM_INVALID', 'INVALID_PROCESSING_OPTIONS'],
      ...AUTH,
      402: ['INSUFFICIENT_CREDITS'],
      403: ['SUBSCRIPTION_INACTIVE', 'SUBSCRIPTION_SUSPENDED', 'NO_SUBSCRIPTION'],
      404: ['PROJECT_NOT_FOUND'],
      409: [
        'PROJECT_NOT_UPLOADED',
        'PROJECT_NOT_READY',
        'CRS_REQUIRED',
        'AREA_NOT_COMPUTED',
        'PROCESSING_ALREADY_RUNNING',
      ],
    }),
  },
});

const projectJobsRoute = createRoute({
  method: 'get',
  path: '/projects/{id}/jobs',
  tags: TAG,
  summary: 'Jobs of a project (metadata, tiling, processing), newest first',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: IdSchema }) },
  responses: {
    200: jsonResponse(z.object({ results: z.array(JobSchema) }).openapi('ProjectJobs'), 'The jobs'),
    ...errorResponses({ ...AUTH, 404: ['PROJECT_NOT_FOUND'] }),
  },
});

const productsRoute = createRoute({
  method: 'get',
  path: '/processing/products',
  tags: TAG,
  summary: 'The products a processing run can make (the engine’s product registry)',
  description:
    'Each product with its asset type, layer, how the viewer shows it, the products it needs and the processing options it reads; in the asset sort order of spec §3. Public: it describes the service, not a user’s data.',
  responses: {
    200: jsonResponse(z.object({ results: z.array(ProductInfoSchema) }).openapi('ProductList'), 'The products'),
  },
});

/** Processing requests and the job list of a project. */
export function jobsRoutes(deps: AppDeps) {
  const app = createRouteGroup();

  app.openapi(productsRoute, (c) => {
    const results = PRODUCTS.map((p) => ({
      id: p.id,
      assetType: p.assetType,
      title: p.title,
      layer: p.layer,
      display: p.display,
      needs: [...p.needs],
      options: [...p.options],
    }));
    c.header('Cache-Control', 'public, max-age=300');
    return c.json({ results }, 200);
  });

  app.openapi(processRoute, async (c) => {
    const { id } = c.req.valid('param');
    const job = await requestProcessing(deps, userViewer(c.get('user')), id, c.req.valid('json').options ?? {});
    return c.json(job, 202);
  });

  app.openapi(projectJobsRoute, async (c) => {
    const project = await projectFor(deps, userViewer(c.get('user')), c.req.valid('param').id, 'read');
    const kinds = ['METADATA', 'TILING', 'PROCESSING'] as const;
    const pages = await Promise.all(
      kinds.map((kind) =>
        listJobsPage(deps, { kind, projectId: project.id, limit: 1000, offset: 0, sortBy: 'id', order: 'DESC' }),
      ),
    );
    const results = pages.flatMap((p) => p.results).sort((a, b) => Number(b.id) - Number(a.id));
    c.header('Cache-Control', 'no-store');
    return c.json({ results }, 200);
  });

  return app;
}
