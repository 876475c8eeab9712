import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { badRequest } from '../errors.js';
import { requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonBody, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { pickLanguage } from '../services/account-rules/account.rules.js';
import { createUsersService } from '../services/users.service.js';
import { CompanySchema, CountrySchema, LanguageSchema, NameSchema, UserSchema } from './account.schemas.js';

const TAG = ['Users'];
const AUTH_ERRORS = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;

const INCLUDES = ['totalCredits'] as const;

const getCurrentRoute = createRoute({
  method: 'get',
  path: '/users/current',
  tags: TAG,
  summary: 'The logged-in user',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: {
    query: z.object({
      includes: z
        .string()
        .max(200)
        .optional()
        .openapi({ description: `Comma-separated extras: ${INCLUDES.join(', ')}.`, example: 'totalCredits' }),
    }),
  },
  responses: {
    200: jsonResponse(
      UserSchema.extend({ totalCredits: z.number().optional() }).openapi('CurrentUser'),
      'The current user',
    ),
    ...errorResponses({ 400: ['FORM_INVALID'], ...AUTH_ERRORS }),
  },
});

const patchCurrentRoute = createRoute({
  method: 'patch',
  path: '/users/current',
  tags: TAG,
  summary: "Change the current user's preferences and profile",
  description:
    'Only preferLanguage, preferDarkTheme, firstname, lastname, company and country. Any other field (roles, enabled, credits, email, password...) is refused with 400 FIELD_NOT_EDITABLE.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: {
    body: jsonBody(
      z
        .strictObject({
          preferLanguage: LanguageSchema.optional(),
          preferDarkTheme: z.boolean().optional(),
          firstname: NameSchema.optional(),
          lastname: NameSchema.optional(),
          company: CompanySchema.optional(),
          country: CountrySchema.optional(),
        })
        .openapi('CurrentUserPatch'),
    ),
  },
  responses: {
    200: jsonResponse(UserSchema, 'The updated user'),
    ...errorResponses({ 400: ['FORM_INVALID', 'FIELD_NOT_EDITABLE', 'UNKNOWN_COUNTRY'], ...AUTH_ERRORS }),
  },
});

const registrationFormRoute = createRoute({
  method: 'get',
  path: '/users/register',
  tags: TAG,
  summary: 'What the registration form needs',
  description: 'Countries (ISO 3166-1 alpha-2, named in `lang` or the Accept-Language), languages and field rules.',
  request: { query: z.object({ lang: z.string().max(35).optional() }) },
  responses: {
    200: jsonResponse(
      z
        .object({
          countries: z.array(z.object({ code: z.string(), name: z.string() })),
          languages: z.array(LanguageSchema),
          rules: z.object({
            passwordMinLength: z.number().int(),
            passwordMaxLength: z.number().int(),
            passwordRequires: z.array(z.enum(['lowercase', 'uppercase', 'digit', 'special'])),
            nameMaxLength: z.number().int(),
            companyMaxLength: z.number().int(),
            disposableEmailsRefused: z.boolean(),
          }),
        })
        .openapi('RegistrationForm'),
      'Form data',
    ),
  },
});

const totalCreditsRoute = createRoute({
  method: 'get',
  path: '/users/totalCredits',
  tags: TAG,
  summary: 'Credits (hectares) the current user has left',
  description:
    'Credits granted (by an admin until billing lands; DEFAULT_CREDIT_HECTARES otherwise) minus the hectares charged by processings.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(z.object({ totalCredits: z.number() }), 'Credits in hectares'),
    ...errorResponses(AUTH_ERRORS),
  },
});

/** Spec §7 Users: the current user's account, and the registration form data. */
export function usersRoutes(deps: AppDeps) {
  const users = createUsersService(deps);
  const app = createRouteGroup();
  app.use('/users/*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });

  app.openapi(getCurrentRoute, async (c) => {
    const raw = c.req.valid('query').includes;
    const wanted = raw ? raw.split(',').map((s) => s.trim()) : [];
    const unknown = wanted.filter((w) => !(INCLUDES as readonly string[]).includes(w));
    if (unknown.length > 0) {
      throw badRequest('FORM_INVALID', `unknown includes: ${unknown.join(', ')} (known: ${INCLUDES.join(', ')})`);
    }
    return c.json(await users.current(c.get('user').id, wanted as Array<(typeof INCLUDES)[number]>), 200);
  });

  app.openapi(patchCurrentRoute, async (c) => {
    return c.json(await users.updateCurrent(c.get('user').id, c.req.valid('json')), 200);
  });

  app.openapi(registrationFormRoute, (c) => {
    const lang = pickLanguage(c.req.valid('query').lang ?? c.req.header('accept-language'));
    c.header('Cache-Control', 'public, max-age=3600');
    return c.json(users.registrationForm(lang), 200);
  });

  app.openapi(totalCreditsRoute, async (c) => {
    return c.json({ totalCredits: await users.totalCredits(c.get('user').id) }, 200);
  });

  return app;
}
