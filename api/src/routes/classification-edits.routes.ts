import { createRoute, z } from '@hono/zod-openapi';
import { EDITABLE_CLASSES, MAX_POLYGON_VERTICES } from '@nuage/engine/edit/class-edits.js';
import type { AppDeps } from '../context.js';
import type { ErrorCode } from '../errors.codes.js';
import { requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonBody, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { userViewer } from '../services/access.service.js';
import {
  createEdit,
  listEdits,
  previewEdit,
  redoEdit,
  restoreEdit,
  revertEdit,
  undoEdit,
} from '../services/classification-edits.service.js';
import { IdSchema } from './projects.schemas.js';

const TAG = ['Classification edits'];
const AUTH = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;

const Vertex = z.tuple([z.number(), z.number()]);
const Polygon = z.array(Vertex).min(3).max(MAX_POLYGON_VERTICES);

const EditRegionSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('screen'),
      matrix: z.array(z.number()).length(16).openapi({
        description:
          'clip = projection × view, 16 numbers column-major (Cesium Matrix4.toArray order), mapping ECEF (EPSG:4978, metres) to clip space.',
      }),
      polygon: Polygon.openapi({
        description:
          'Normalized device coordinates: x = 2·px/width − 1, y = 1 − 2·py/height (a box is 4 vertices). Points with c.w > 0 inside it (even-odd rule) are selected, at every depth.',
      }),
    }),
    z.object({
      kind: z.literal('map'),
      polygon: Polygon.openapi({ description: '[longitude, latitude] in EPSG:4326.' }),
    }),
  ])
  .openapi('EditRegion');

const ClassCode = z
  .number()
  .int()
  .refine((c) => EDITABLE_CLASSES.includes(c), {
    message: 'not a class of the list (0–28 without 8 and 12)',
    params: { code: 'INVALID_CLASS' },
  });

const EditRequestSchema = z
  .strictObject({
    region: EditRegionSchema,
    fromClasses: z
      .array(ClassCode)
      .max(64)
      .optional()
      .openapi({ description: 'Only points of these current classes (all when absent or empty).' }),
    minZ: z.number().nullable().optional().openapi({ description: 'Lowest Z (project CRS, inclusive).' }),
    maxZ: z.number().nullable().optional().openapi({ description: 'Highest Z (project CRS, inclusive).' }),
    toClass: ClassCode.openapi({
      description: 'The class the points get: spec §3 list (0–28 without 8 and 12), else 400 INVALID_CLASS.',
    }),
  })
  .openapi('ClassificationEditRequest');

const ChangedSchema = z
  .object({
    total: z.number().int(),
    byClass: z.record(z.string(), z.number().int()).openapi({ description: 'Points changed, by their class before.' }),
  })
  .openapi('ClassificationEditChange');

const EditSchema = z
  .object({
    id: IdSchema,
    createdAt: z.string(),
    userEmail: z.string(),
    region: EditRegionSchema,
    fromClasses: z.array(z.number().int()),
    minZ: z.number().nullable(),
    maxZ: z.number().nullable(),
    toClass: z.number().int(),
    status: z.enum(['ACTIVE', 'REVERTED']),
    changed: ChangedSchema.nullable().openapi({ description: 'What the apply job changed; null until applied.' }),
  })
  .openapi('ClassificationEdit');

const EditsSchema = z
  .object({
    edits: z.array(EditSchema).openapi({ description: 'Oldest first.' }),
    job: z
      .object({
        id: IdSchema,
        state: z.enum(['PENDING', 'PROGRESS', 'SUCCESS', 'ERROR']),
        step: z.string().nullable(),
        percentage: z.number(),
        errorCode: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: 'The latest apply job (CLASSIFICATION_EDIT).' }),
    canUndo: z.boolean(),
    canRedo: z.boolean(),
  })
  .openapi('ClassificationEdits');

const EditQueuedSchema = z
  .object({ edit: EditSchema, jobId: IdSchema.openapi({ description: 'The apply job.' }) })
  .openapi('ClassificationEditQueued');

const NOT_FOUND = { 404: ['PROJECT_NOT_FOUND'] } as const;
const REQUIRED = { 409: ['CLASSIFIED_CLOUD_REQUIRED'] } as const;
const BODY_ERRORS = { 400: ['FORM_INVALID', 'FIELD_NOT_EDITABLE', 'INVALID_CLASS'] } as const;
const DESCRIPTION =
  'The project’s owner or an admin only (anyone else, a share-link visitor included: 404 PROJECT_NOT_FOUND). The project needs a READY classified point cloud (409 CLASSIFIED_CLOUD_REQUIRED).';

const Params = z.object({ id: IdSchema });
const EditParams = z.object({ id: IdSchema, editId: IdSchema });

function action(
  pathSuffix: string,
  summary: string,
  extra: Partial<Record<number, readonly ErrorCode[]>>,
  params: typeof Params | typeof EditParams = Params,
) {
  return createRoute({
    method: 'post',
    path: `/projects/{id}/classification-edits${pathSuffix}`,
    tags: TAG,
    summary,
    description: `${DESCRIPTION} Answers 202 with the edit and the apply job; the job recomputes the classified cloud from the processing’s with every ACTIVE edit.`,
    security: SESSION_SECURITY,
    middleware: [requireUser] as const,
    request: { params },
    responses: {
      202: jsonResponse(EditQueuedSchema, 'The edit changed; the apply job is queued'),
      ...errorResponses({ ...NOT_FOUND, ...REQUIRED, ...AUTH, ...extra }),
    },
  });
}

const listRoute = createRoute({
  method: 'get',
  path: '/projects/{id}/classification-edits',
  tags: TAG,
  summary: 'The classification edits of a project, its apply job and undo/redo state',
  description: DESCRIPTION,
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: Params },
  responses: { 200: jsonResponse(EditsSchema, 'The edits'), ...errorResponses({ ...NOT_FOUND, ...REQUIRED, ...AUTH }) },
});

const previewRoute = createRoute({
  method: 'post',
  path: '/projects/{id}/classification-edits/preview',
  tags: TAG,
  summary: 'How many points an edit would change now',
  description: `${DESCRIPTION} The exact count from the current classified cloud (points already of toClass are not counted), by class before.`,
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: Params, body: jsonBody(EditRequestSchema) },
  responses: {
    200: jsonResponse(ChangedSchema, 'The count'),
    ...errorResponses({ ...BODY_ERRORS, ...NOT_FOUND, ...REQUIRED, ...AUTH }),
  },
});

const createEditRoute = createRoute({
  method: 'post',
  path: '/projects/{id}/classification-edits',
  tags: TAG,
  summary: 'Add a classification edit (and apply it)',
  description: `${DESCRIPTION} The edit is stored ACTIVE; edits undone since the last new edit stay REVERTED (redo is cleared); the apply job is queued.`,
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: Params, body: jsonBody(EditRequestSchema) },
  responses: {
    202: jsonResponse(EditQueuedSchema, 'The edit is stored; the apply job is queued'),
    ...errorResponses({ ...BODY_ERRORS, ...NOT_FOUND, ...REQUIRED, ...AUTH }),
  },
});

const undoRoute = action('/undo', 'Undo the last active edit', {
  409: ['CLASSIFIED_CLOUD_REQUIRED', 'NOTHING_TO_UNDO'],
});
const redoRoute = action('/redo', 'Redo the most recently undone edit', {
  409: ['CLASSIFIED_CLOUD_REQUIRED', 'NOTHING_TO_REDO'],
});
const revertRoute = action(
  '/{editId}/revert',
  'Revert an active edit (history)',
  {
    404: ['PROJECT_NOT_FOUND', 'CLASSIFICATION_EDIT_NOT_FOUND'],
    409: ['CLASSIFIED_CLOUD_REQUIRED', 'CLASSIFICATION_EDIT_NOT_ACTIVE'],
  },
  EditParams,
);
const restoreRoute = action(
  '/{editId}/restore',
  'Restore a reverted edit (history)',
  {
    404: ['PROJECT_NOT_FOUND', 'CLASSIFICATION_EDIT_NOT_FOUND'],
    409: ['CLASSIFIED_CLOUD_REQUIRED', 'CLASSIFICATION_EDIT_NOT_REVERTED'],
  },
  EditParams,
);

/** Classification editing (issue 23): the edit layer of a project's classified cloud. */
export function classificationEditsRoutes(deps: AppDeps) {
  const app = createRouteGroup();
  app.use('/projects/*', async (c, next) => {
    await next();
    if (c.req.path.includes('/classification-edits') && !c.res.headers.has('Cache-Control')) {
      c.header('Cache-Control', 'no-store');
    }
  });

  app.openapi(listRoute, async (c) =>
    c.json(await listEdits(deps, userViewer(c.get('user')), c.req.valid('param').id), 200),
  );
  app.openapi(previewRoute, async (c) =>
    c.json(await previewEdit(deps, userViewer(c.get('user')), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(createEditRoute, async (c) =>
    c.json(await createEdit(deps, userViewer(c.get('user')), c.req.valid('param').id, c.req.valid('json')), 202),
  );
  app.openapi(undoRoute, async (c) =>
    c.json(await undoEdit(deps, userViewer(c.get('user')), c.req.valid('param').id), 202),
  );
  app.openapi(redoRoute, async (c) =>
    c.json(await redoEdit(deps, userViewer(c.get('user')), c.req.valid('param').id), 202),
  );
  app.openapi(revertRoute, async (c) => {
    const { id, editId } = c.req.valid('param') as { id: string; editId: string };
    return c.json(await revertEdit(deps, userViewer(c.get('user')), id, editId), 202);
  });
  app.openapi(restoreRoute, async (c) => {
    const { id, editId } = c.req.valid('param') as { id: string; editId: string };
    return c.json(await restoreEdit(deps, userViewer(c.get('user')), id, editId), 202);
  });
  return app;
}
