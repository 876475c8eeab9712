import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { PROJECT_SORT_COLUMNS } from '../db/queries/projects.queries.js';
import { requireRole, requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import {
  errorResponses,
  jsonBody,
  jsonResponse,
  SESSION_SECURITY,
  tablePageSchema,
  tableQuerySchema,
} from '../openapi/schemas.js';
import { userViewer } from '../services/access.service.js';
import { createProject, deleteProject, getProject, listProjects, renameProject } from '../services/projects.service.js';
import { IdSchema, ProjectNameSchema, ProjectSchema } from './projects.schemas.js';

const TAG = ['Projects'];
const AUTH = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;
const NAME_ERRORS = ['FORM_INVALID', 'PROJECT_NAME_REQUIRED', 'PROJECT_NAME_TOO_LONG', 'PROJECT_NAME_SLASH'] as const;

const ProjectPageSchema = tablePageSchema(ProjectSchema, 'ProjectPage');
const projectQuery = tableQuerySchema(PROJECT_SORT_COLUMNS, 'id');
const idParam = z.object({ id: IdSchema });

const createProjectRoute = createRoute({
  method: 'post',
  path: '/projects',
  tags: TAG,
  summary: 'Create a project',
  description:
    'Creates an empty project with its point cloud layer; then ask for an upload URL (POST /assets/upload-signed-url with that layer id).',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { body: jsonBody(z.object({ name: ProjectNameSchema }).openapi('NewProject')) },
  responses: {
    201: jsonResponse(ProjectSchema, 'The project, with its layers'),
    ...errorResponses({
      400: [...NAME_ERRORS],
      ...AUTH,
      403: ['MAX_PROJECTS_REACHED', 'SUBSCRIPTION_SUSPENDED', 'NO_SUBSCRIPTION'],
      409: ['DUPLICATE_PROJECT_NAME'],
    }),
  },
});

const listProjectsRoute = createRoute({
  method: 'get',
  path: '/projects',
  tags: TAG,
  summary: 'My projects (table contract)',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { query: projectQuery },
  responses: {
    200: jsonResponse(ProjectPageSchema, 'One page of your projects (no layers)'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...AUTH }),
  },
});

const getProjectRoute = createRoute({
  method: 'get',
  path: '/projects/{id}',
  tags: TAG,
  summary: 'A project with its layers, assets and latest jobs',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: idParam },
  responses: {
    200: jsonResponse(ProjectSchema, 'The project'),
    ...errorResponses({ ...AUTH, 404: ['PROJECT_NOT_FOUND'] }),
  },
});

const patchProjectRoute = createRoute({
  method: 'patch',
  path: '/projects/{id}',
  tags: TAG,
  summary: 'Rename a project',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: {
    params: idParam,
    body: jsonBody(z.strictObject({ name: ProjectNameSchema }).openapi('ProjectPatch')),
  },
  responses: {
    200: jsonResponse(ProjectSchema, 'The renamed project'),
    ...errorResponses({
      400: [...NAME_ERRORS, 'FIELD_NOT_EDITABLE'],
      ...AUTH,
      404: ['PROJECT_NOT_FOUND'],
      409: ['DUPLICATE_PROJECT_NAME'],
    }),
  },
});

const deleteProjectRoute = createRoute({
  method: 'delete',
  path: '/projects/{id}',
  tags: TAG,
  summary: 'Delete a project and every file it has',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted (rows and stored files)' },
    ...errorResponses({ ...AUTH, 404: ['PROJECT_NOT_FOUND'] }),
  },
});

const adminListRoute = createRoute({
  method: 'get',
  path: '/admin/projects',
  tags: ['Admin'],
  summary: 'Every project (admin, table contract)',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { query: projectQuery },
  responses: {
    200: jsonResponse(ProjectPageSchema, 'One page of projects'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...AUTH, 403: ['FORBIDDEN'] }),
  },
});

const adminViewRoute = createRoute({
  method: 'get',
  path: '/admin/projects/{id}',
  tags: ['Admin'],
  summary: 'Any project (admin view)',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { params: idParam },
  responses: {
    200: jsonResponse(ProjectSchema, 'The project'),
    ...errorResponses({ ...AUTH, 403: ['FORBIDDEN'], 404: ['PROJECT_NOT_FOUND'] }),
  },
});

/** Projects of their owner (spec §3), and the admin's projects list and view. */
export function projectsRoutes(deps: AppDeps) {
  const app = createRouteGroup();
  app.use('/projects/*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });

  app.openapi(createProjectRoute, async (c) => {
    return c.json(await createProject(deps, c.get('user').id, c.req.valid('json').name), 201);
  });

  app.openapi(listProjectsRoute, async (c) => {
    const q = c.req.valid('query');
    return c.json(await listProjects(deps, { ...q, ownerId: c.get('user').id }), 200);
  });

  app.openapi(getProjectRoute, async (c) => {
    return c.json(await getProject(deps, userViewer(c.get('user')), c.req.valid('param').id), 200);
  });

  app.openapi(patchProjectRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await renameProject(deps, userViewer(c.get('user')), id, c.req.valid('json').name), 200);
  });

  app.openapi(deleteProjectRoute, async (c) => {
    await deleteProject(deps, userViewer(c.get('user')), c.req.valid('param').id);
    return c.body(null, 204);
  });

  app.openapi(adminListRoute, async (c) => {
    return c.json(await listProjects(deps, { ...c.req.valid('query'), ownerId: null }), 200);
  });

  app.openapi(adminViewRoute, async (c) => {
    return c.json(await getProject(deps, userViewer(c.get('user')), c.req.valid('param').id), 200);
  });

  return app;
}
