import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../context.js';
import { unauthorized } from '../errors.js';
import { clearSessionCookie, requireUser, setSessionCookie } from '../middleware/auth.js';
import { clientIp } from '../middleware/client-ip.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonBody, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { pickLanguage } from '../services/account-rules/account.rules.js';
import { createAuthService, type IssuedSession } from '../services/auth.service.js';
import { DEFAULT_REMEMBER_DAYS, REMEMBER_DAYS } from '../services/token.service.js';
import { toUserDto } from '../services/users.service.js';
import {
  AppUrlSchema,
  CompanySchema,
  CountrySchema,
  LanguageSchema,
  MailEmailSchema,
  NameSchema,
  NewEmailSchema,
  NewPasswordSchema,
  SessionUserSchema,
  UsernameSchema,
  UserSchema,
} from './account.schemas.js';

const TAG = ['Authentication'];

const AcceptedSchema = z
  .object({ accepted: z.literal(true) })
  .openapi('Accepted', { description: 'The request was taken; the outcome goes to the mailbox only.' });

/** The token of a mail link; a missing one is the spec's "missing token" error of its link kind. */
function mailTokenSchema(code: 'INVALID_RESET_LINK' | 'INVALID_ACTIVATION_LINK') {
  return z
    .string()
    .max(200)
    .optional()
    .refine((v) => v !== undefined && v.length > 0, { message: 'the link has no token', params: { code } })
    .openapi({ description: 'The token from the mail link (required).' });
}
const ResetTokenSchema = mailTokenSchema('INVALID_RESET_LINK');
const ActivationTokenSchema = mailTokenSchema('INVALID_ACTIVATION_LINK');

const loginRoute = createRoute({
  method: 'post',
  path: '/auth-jwt/login',
  tags: TAG,
  summary: 'Log in with email and password',
  description:
    'Answers the session user object and sets the HttpOnly session cookie (web app). API clients use the returned token as `Authorization: Bearer`. At most 10 failed logins per account per 15 minutes, 50 per IP.',
  request: {
    body: jsonBody(
      z.object({
        username: UsernameSchema,
        password: z.string().min(1).max(1024),
        captcha: z.string().max(4096).optional().openapi({
          description: 'Accepted for client compatibility; not checked (no captcha provider): the rate limits apply.',
        }),
        rememberMe: z
          .union([z.literal(7), z.literal(30), z.literal(90)])
          .optional()
          .openapi({ description: `Session length in days (${REMEMBER_DAYS.join(', ')}); default 30.` }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(SessionUserSchema, 'Logged in'),
    ...errorResponses({
      400: ['FORM_INVALID'],
      401: ['INVALID_CREDENTIALS'],
      403: ['ACCOUNT_INACTIVE', 'ACCOUNT_NOT_ACTIVATED'],
      429: ['TOO_MANY_ATTEMPTS'],
    }),
  },
});

const refreshRoute = createRoute({
  method: 'post',
  path: '/auth-jwt/refreshToken',
  tags: TAG,
  summary: 'Renew a valid session token',
  description:
    'Takes the token from the body, else the Authorization header, else the session cookie. A cookie session gets a renewed cookie and `token: null`; a token sent by an API client gets the new token in the body.',
  request: {
    body: {
      required: false,
      content: { 'application/json': { schema: z.object({ token: z.string().max(4096).optional() }) } },
    },
  },
  responses: {
    200: jsonResponse(SessionUserSchema, 'Renewed'),
    ...errorResponses({ 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] }),
  },
});

const logoutRoute = createRoute({
  method: 'post',
  path: '/auth-jwt/logout',
  tags: TAG,
  summary: 'End this session',
  description:
    'Revokes the session on the server (its token and every renewal of it stop working) and clears the cookie. Answers 204 even without a valid session.',
  security: SESSION_SECURITY,
  responses: { 204: { description: 'Logged out' } },
});

const logoutEverywhereRoute = createRoute({
  method: 'post',
  path: '/auth-jwt/logout-everywhere',
  tags: TAG,
  summary: 'End every session of the current user, on every device',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  responses: {
    204: { description: 'Every session ended' },
    ...errorResponses({ 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] }),
  },
});

const registerRoute = createRoute({
  method: 'post',
  path: '/auth-jwt/register',
  tags: TAG,
  summary: 'Create an account and mail its activation link',
  description:
    'The account can log in once the link of the activation mail is followed (single use, 48 hours). At most 20 registrations per IP per hour.',
  request: {
    body: jsonBody(
      z.object({
        username: NewEmailSchema,
        password: NewPasswordSchema,
        firstname: NameSchema,
        lastname: NameSchema,
        company: CompanySchema.optional(),
        country: CountrySchema,
        preferLanguage: LanguageSchema.optional().openapi({
          description: 'Language of the account and its mails; default from Accept-Language.',
        }),
        activateUserUrl: AppUrlSchema.optional(),
      }),
    ),
  },
  responses: {
    201: jsonResponse(
      z.object({
        user: UserSchema,
        activationMailSent: z.boolean().openapi({
          description: 'False when the mail could not be sent: ask again with /auth-jwt/registration-mail.',
        }),
      }),
      'Account created, waiting for activation',
    ),
    ...errorResponses({
      400: [
        'FORM_INVALID',
        'INVALID_EMAIL',
        'DISPOSABLE_EMAIL',
        'WEAK_PASSWORD',
        'COMMON_PASSWORD',
        'UNKNOWN_COUNTRY',
        'INVALID_LINK_URL',
      ],
      409: ['ACCOUNT_EXISTS'],
      429: ['TOO_MANY_ATTEMPTS'],
    }),
  },
});

const resetRequestBody = z.object({ username: MailEmailSchema, resetPasswordUrl: AppUrlSchema.optional() });
const resetRequestResponses = {
  202: jsonResponse(AcceptedSchema, 'A mail went to the address (a reset link, or word that it has no account)'),
  ...errorResponses({
    400: ['FORM_INVALID', 'INVALID_EMAIL', 'INVALID_LINK_URL'],
    429: ['TOO_MANY_ATTEMPTS'],
    503: ['RESET_MAIL_FAILED'],
  }),
};
const resetRequestDescription =
  'Mails a reset link (valid 1 hour, once) to the account. The answer is the same whether or not an account has this email: an unknown address gets a mail saying so. The token is never in the response. Limits: 20 per IP and 5 per address per hour.';

const passwordForgotRoute = createRoute({
  method: 'post',
  path: '/auth-jwt/password-forgot',
  tags: TAG,
  summary: 'Mail a password reset link',
  description: resetRequestDescription,
  request: { body: jsonBody(resetRequestBody) },
  responses: resetRequestResponses,
});

const resetPasswordTokenRoute = createRoute({
  method: 'patch',
  path: '/users/resetPassword-token',
  tags: TAG,
  summary: 'Mail a password reset link (same as /auth-jwt/password-forgot)',
  description: `${resetRequestDescription} Spec §7 reads as if this returned the token: it never does.`,
  request: { body: jsonBody(resetRequestBody) },
  responses: resetRequestResponses,
});

const activationRequestBody = z.object({ username: MailEmailSchema, activateUserUrl: AppUrlSchema.optional() });
const activationRequestResponses = {
  202: jsonResponse(AcceptedSchema, 'A mail went to the address (an activation link, or word that none is pending)'),
  ...errorResponses({
    400: ['FORM_INVALID', 'INVALID_EMAIL', 'INVALID_LINK_URL'],
    429: ['TOO_MANY_ATTEMPTS'],
    503: ['ACTIVATION_MAIL_FAILED'],
  }),
};
const activationRequestDescription =
  'Mails a new activation link (valid 48 hours, once; earlier links stop working) when the account waits for activation. Same answer for any address. Limits: 20 per IP and 5 per address per hour.';

const registrationMailRoute = createRoute({
  method: 'post',
  path: '/auth-jwt/registration-mail',
  tags: TAG,
  summary: 'Mail the activation link again',
  description: activationRequestDescription,
  request: { body: jsonBody(activationRequestBody) },
  responses: activationRequestResponses,
});

const registrationTokenRoute = createRoute({
  method: 'patch',
  path: '/users/registration-token',
  tags: TAG,
  summary: 'Mail a new activation link (same as /auth-jwt/registration-mail)',
  description: `${activationRequestDescription} The token is only ever in the mail.`,
  request: { body: jsonBody(activationRequestBody) },
  responses: activationRequestResponses,
});

const recuperationRoute = createRoute({
  method: 'post',
  path: '/auth-jwt/recuperation',
  tags: TAG,
  summary: 'Set a new password with the token of a reset mail',
  description:
    'The token works once, within an hour, for the account it was mailed to. Every session of the account ends.',
  request: {
    body: jsonBody(z.object({ username: UsernameSchema, password: NewPasswordSchema, token: ResetTokenSchema })),
  },
  responses: {
    200: jsonResponse(z.object({ username: z.string() }), 'Password changed'),
    ...errorResponses({ 400: ['FORM_INVALID', 'WEAK_PASSWORD', 'COMMON_PASSWORD', 'INVALID_RESET_LINK'] }),
  },
});

const choosePasswordRoute = createRoute({
  method: 'patch',
  path: '/users/choosePasswordAfterReset',
  tags: TAG,
  summary: 'Set a new password with the token of a reset mail (the reset page)',
  description: 'Like /auth-jwt/recuperation; the token names the account.',
  request: { body: jsonBody(z.object({ password: NewPasswordSchema, token: ResetTokenSchema })) },
  responses: {
    200: jsonResponse(z.object({ username: z.string() }), 'Password changed'),
    ...errorResponses({ 400: ['FORM_INVALID', 'WEAK_PASSWORD', 'COMMON_PASSWORD', 'INVALID_RESET_LINK'] }),
  },
});

const activateRoute = createRoute({
  method: 'post',
  path: '/auth-jwt/activate-from-mail',
  tags: TAG,
  summary: 'Activate an account with the token of its activation mail',
  request: {
    body: jsonBody(
      z.object({
        token: ActivationTokenSchema,
        username: UsernameSchema.optional().openapi({ description: 'When given, must be the account of the token.' }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(z.object({ username: z.string(), activated: z.literal(true) }), 'Activated'),
    ...errorResponses({ 400: ['FORM_INVALID', 'INVALID_ACTIVATION_LINK'] }),
  },
});

const inspectTokenRoute = createRoute({
  method: 'get',
  path: '/users/from-reset-password-token',
  tags: TAG,
  summary: 'Check a reset or activation link before using it',
  description: 'Does not use the token. Answers whose it is, what for and until when.',
  request: { query: z.object({ token: ResetTokenSchema }) },
  responses: {
    200: jsonResponse(
      z.object({
        username: z.string(),
        purpose: z.enum(['password_reset', 'activation']),
        expiresAt: z.string().openapi({ format: 'date-time' }),
      }),
      'The token is usable',
    ),
    ...errorResponses({ 400: ['FORM_INVALID', 'INVALID_RESET_LINK'] }),
  },
});

/**
 * Spec §7 Authentication: login, token renewal, logout, registration, activation
 * and password reset, under `/api`.
 */
export function authRoutes(deps: AppDeps) {
  const auth = createAuthService(deps);
  const ip = (c: Context<AppEnv>) => clientIp(c, deps.config.TRUST_PROXY);
  const language = (c: Context<AppEnv>) => pickLanguage(c.req.header('accept-language'));
  const sessionBody = (s: IssuedSession, exposeToken: boolean) => ({
    token: exposeToken ? s.token : null,
    loginDate: s.claims.issuedAt.toISOString(),
    expiresAt: s.claims.expiresAt.toISOString(),
    rememberDays: s.claims.rememberDays,
    user: toUserDto(s.user),
    loggedIn: true as const,
  });

  const app = createRouteGroup();
  app.use('/auth-jwt/*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });

  app.openapi(loginRoute, async (c) => {
    const body = c.req.valid('json');
    const session = await auth.login({
      email: body.username,
      password: body.password,
      rememberDays: body.rememberMe ?? DEFAULT_REMEMBER_DAYS,
      ip: ip(c),
    });
    setSessionCookie(c, deps.config, session.token, session.claims);
    return c.json(sessionBody(session, true), 200);
  });

  app.openapi(refreshRoute, async (c) => {
    const fromBody = c.req.valid('json').token;
    const carried = c.get('auth').token;
    const token = fromBody ?? carried?.value;
    if (!token)
      throw unauthorized(
        'UNAUTHORIZED',
        'no session token: send it in the body, the Authorization header or the cookie',
      );
    const session = await auth.refresh(token);
    const viaCookie = fromBody === undefined && carried?.source === 'cookie';
    if (viaCookie) setSessionCookie(c, deps.config, session.token, session.claims);
    return c.json(sessionBody(session, !viaCookie), 200);
  });

  app.openapi(logoutRoute, async (c) => {
    const user = await c.get('auth').optionalUser();
    if (user) await auth.logout(user);
    clearSessionCookie(c, deps.config);
    return c.body(null, 204);
  });

  app.openapi(logoutEverywhereRoute, async (c) => {
    await auth.logoutEverywhere(c.get('user'));
    clearSessionCookie(c, deps.config);
    return c.body(null, 204);
  });

  app.openapi(registerRoute, async (c) => {
    const b = c.req.valid('json');
    const { user, activationMailSent } = await auth.register(
      {
        email: b.username,
        password: b.password,
        firstname: b.firstname,
        lastname: b.lastname,
        company: b.company ?? null,
        country: b.country,
        preferLanguage: b.preferLanguage ?? language(c),
        activateUserUrl: b.activateUserUrl,
      },
      ip(c),
    );
    return c.json({ user: toUserDto(user), activationMailSent }, 201);
  });

  for (const route of [passwordForgotRoute, resetPasswordTokenRoute]) {
    app.openapi(route, async (c) => {
      const b = c.req.valid('json');
      await auth.sendPasswordReset({
        email: b.username,
        resetPasswordUrl: b.resetPasswordUrl,
        ip: ip(c),
        language: language(c),
      });
      return c.json({ accepted: true as const }, 202);
    });
  }

  for (const route of [registrationMailRoute, registrationTokenRoute]) {
    app.openapi(route, async (c) => {
      const b = c.req.valid('json');
      await auth.sendActivation({
        email: b.username,
        activateUserUrl: b.activateUserUrl,
        ip: ip(c),
        language: language(c),
      });
      return c.json({ accepted: true as const }, 202);
    });
  }

  app.openapi(recuperationRoute, async (c) => {
    const b = c.req.valid('json');
    const user = await auth.resetPassword({ email: b.username, token: b.token ?? '', password: b.password });
    return c.json({ username: user.email }, 200);
  });

  app.openapi(choosePasswordRoute, async (c) => {
    const b = c.req.valid('json');
    const user = await auth.resetPassword({ token: b.token ?? '', password: b.password });
    return c.json({ username: user.email }, 200);
  });

  app.openapi(activateRoute, async (c) => {
    const b = c.req.valid('json');
    const user = await auth.activate({ email: b.username, token: b.token ?? '' });
    return c.json({ username: user.email, activated: true as const }, 200);
  });

  app.openapi(inspectTokenRoute, async (c) => {
    const found = await auth.inspectMailToken(c.req.valid('query').token ?? '');
    return c.json({ ...found, expiresAt: new Date(found.expiresAt).toISOString() }, 200);
  });

  return app;
}
