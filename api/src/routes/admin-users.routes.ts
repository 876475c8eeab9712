import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { USER_SORT_COLUMNS } from '../db/queries/users.queries.js';
import { requireRole } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import {
  errorResponses,
  jsonBody,
  jsonResponse,
  SESSION_SECURITY,
  tablePageSchema,
  tableQuerySchema,
} from '../openapi/schemas.js';
import { createUsersService } from '../services/users.service.js';
import {
  CompanySchema,
  CountrySchema,
  LanguageSchema,
  NameSchema,
  NewEmailSchema,
  NewPasswordSchema,
  RoleSchema,
  UserSchema,
} from './account.schemas.js';

const TAG = ['Admin: users'];
const ADMIN_ERRORS = {
  401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'],
  403: ['FORBIDDEN'],
} as const;

const IdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,18}$/, 'a user id is a positive integer')
    .openapi({ param: { name: 'id', in: 'path' }, example: '42' }),
});

const listRoute = createRoute({
  method: 'get',
  path: '/users',
  tags: TAG,
  summary: 'Users table (admin)',
  description: 'Table contract: limit, offset, sortBy, order ASC|DESC and search (email, names, company, country).',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { query: tableQuerySchema(USER_SORT_COLUMNS, 'id') },
  responses: {
    200: jsonResponse(tablePageSchema(UserSchema, 'UserPage'), 'One page of users'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS }),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/users/{id}',
  tags: TAG,
  summary: 'One user (admin)',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { params: IdParams },
  responses: {
    200: jsonResponse(UserSchema, 'The user'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS, 404: ['NO_ACCOUNT'] }),
  },
});

const createUserRoute = createRoute({
  method: 'post',
  path: '/users',
  tags: TAG,
  summary: 'Create a user (admin)',
  description: 'The account is active at once. Same email and password rules as registration.',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: {
    body: jsonBody(
      z.object({
        roles: z.array(RoleSchema).min(1).openapi({ description: 'admin implies user.' }),
        userJwt: z.object({ username: NewEmailSchema, password: NewPasswordSchema }),
        firstname: NameSchema.optional(),
        lastname: NameSchema.optional(),
        company: CompanySchema.optional(),
        country: CountrySchema.optional(),
        preferLanguage: LanguageSchema.optional(),
      }),
    ),
  },
  responses: {
    201: jsonResponse(UserSchema, 'Created'),
    ...errorResponses({
      400: ['FORM_INVALID', 'INVALID_EMAIL', 'DISPOSABLE_EMAIL', 'WEAK_PASSWORD', 'COMMON_PASSWORD', 'UNKNOWN_COUNTRY'],
      ...ADMIN_ERRORS,
      409: ['ACCOUNT_EXISTS'],
    }),
  },
});

const roleRoute = createRoute({
  method: 'patch',
  path: '/users/{id}/role',
  tags: TAG,
  summary: "Change a user's roles (admin)",
  description: "Ends the user's sessions. The last enabled admin cannot lose the admin role (409 LAST_ADMIN).",
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { params: IdParams, body: jsonBody(z.object({ roles: z.array(RoleSchema).min(1) })) },
  responses: {
    200: jsonResponse(UserSchema, 'Updated'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS, 404: ['NO_ACCOUNT'], 409: ['LAST_ADMIN'] }),
  },
});

const enabledRoute = createRoute({
  method: 'patch',
  path: '/users/{id}/enabled',
  tags: TAG,
  summary: 'Enable or disable a user (admin)',
  description: "Disabling ends the user's sessions. The last enabled admin cannot be disabled (409 LAST_ADMIN).",
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { params: IdParams, body: jsonBody(z.object({ enabled: z.boolean() })) },
  responses: {
    200: jsonResponse(UserSchema, 'Updated'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS, 404: ['NO_ACCOUNT'], 409: ['LAST_ADMIN'] }),
  },
});

/**
 * Admin user management (spec §2 admin users screens): list, view, create,
 * role and enabled (subscriptions have their own routes: subscriptions.routes.ts).
 */
export function adminUsersRoutes(deps: AppDeps) {
  const users = createUsersService(deps);
  const app = createRouteGroup();

  app.openapi(listRoute, async (c) => c.json(await users.list(c.req.valid('query')), 200));

  app.openapi(getRoute, async (c) => c.json(await users.get(c.req.valid('param').id), 200));

  app.openapi(createUserRoute, async (c) => {
    const b = c.req.valid('json');
    const user = await users.create({
      email: b.userJwt.username,
      password: b.userJwt.password,
      roles: b.roles,
      firstname: b.firstname,
      lastname: b.lastname,
      company: b.company,
      country: b.country,
      preferLanguage: b.preferLanguage,
    });
    return c.json(user, 201);
  });

  app.openapi(roleRoute, async (c) =>
    c.json(await users.setRoles(c.req.valid('param').id, c.req.valid('json').roles), 200),
  );

  app.openapi(enabledRoute, async (c) =>
    c.json(await users.setEnabled(c.req.valid('param').id, c.req.valid('json').enabled), 200),
  );

  return app;
}
