import { z } from '@hono/zod-openapi';
import {
  ACCOUNT_LIMITS,
  isCommonPassword,
  isCountryCode,
  isDisposableEmail,
  isValidEmail,
  LANGUAGES,
  passwordProblem,
} from '../services/account-rules/account.rules.js';
import { REMEMBER_DAYS } from '../services/token.service.js';

// Field rules of spec §5. A refinement's `params.code` becomes the field's (and the
// error's) stable code, see openapi/route-group.ts.

/** An email as typed at login or in a mail request: any text; unknown and malformed ones fail alike. */
export const UsernameSchema = z
  .string()
  .trim()
  .min(1)
  .max(ACCOUNT_LIMITS.emailMax)
  .openapi({ description: 'The account email (spec §3: the username).', example: 'ada@example.com' });

/** An email that becomes an account: valid, TLD of 2+ letters, not a disposable-mail domain. */
export const NewEmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine(isValidEmail, { message: 'not a valid email address', params: { code: 'INVALID_EMAIL' } })
  .refine((e) => !isDisposableEmail(e), {
    message: 'disposable email addresses are not allowed',
    params: { code: 'DISPOSABLE_EMAIL' },
  })
  .openapi({ format: 'email', maxLength: ACCOUNT_LIMITS.emailMax, example: 'ada@example.com' });

/** An email of a mail request (reset, activation): valid shape only. */
export const MailEmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine(isValidEmail, { message: 'not a valid email address', params: { code: 'INVALID_EMAIL' } })
  .openapi({ format: 'email', example: 'ada@example.com' });

/** A new password: the spec's main rule, and not one of the 1000 most common. */
export const NewPasswordSchema = z
  .string()
  .refine((p) => passwordProblem(p) === null, {
    message: 'the password needs 8 to 255 characters with a lower case, an upper case, a digit and a special character',
    params: { code: 'WEAK_PASSWORD' },
    abort: true,
  })
  .refine((p) => !isCommonPassword(p), {
    message: 'this password is too common',
    params: { code: 'COMMON_PASSWORD' },
  })
  .openapi({
    minLength: ACCOUNT_LIMITS.passwordMin,
    maxLength: ACCOUNT_LIMITS.passwordMax,
    description: 'At least one lower case, one upper case, one digit and one special character; not a common password.',
  });

/** A first or last name (spec §5: required, under 255). */
export const NameSchema = z.string().trim().min(1).max(ACCOUNT_LIMITS.nameMax);

/** Company (spec §5: optional, at most 200); empty means none. */
export const CompanySchema = z
  .string()
  .trim()
  .max(ACCOUNT_LIMITS.companyMax)
  .nullable()
  .transform((s) => (s ? s : null));

/** Country: ISO 3166-1 alpha-2 (GET /users/register lists them with names). */
export const CountrySchema = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isCountryCode, { message: 'unknown country code', params: { code: 'UNKNOWN_COUNTRY' } })
  .openapi({ description: 'ISO 3166-1 alpha-2 code, e.g. FR.', example: 'FR', pattern: '^[A-Z]{2}$' });

export const LanguageSchema = z.enum(LANGUAGES).openapi('Language');
export const RoleSchema = z.enum(['user', 'admin']).openapi('Role');

/** A link base the client asks mails to use; must be on PUBLIC_URL (checked by the service). */
export const AppUrlSchema = z.string().max(2000).openapi({
  description:
    'Page of this application the mail link opens (e.g. https://app/#/reset-password-token); the token is appended. Must be on PUBLIC_URL.',
});

/** The user object (spec §3 User). */
export const UserSchema = z
  .object({
    id: z.string().openapi({ example: '42' }),
    username: z.string().openapi({ description: 'Same as email.' }),
    email: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    company: z.string().nullable(),
    country: z.string().nullable(),
    roles: z.array(RoleSchema),
    preferLanguage: LanguageSchema,
    preferDarkTheme: z.boolean(),
    enabled: z.boolean(),
    activated: z
      .boolean()
      .openapi({ description: 'False until the activation link of the registration mail is used.' }),
    premium: z.boolean(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    lastLoginAt: z.string().nullable().openapi({ format: 'date-time' }),
    ownedProjectsCount: z.number().int(),
  })
  .openapi('User');

/** The session user object (spec §3): token, loginDate, user with roles, loggedIn. */
export const SessionUserSchema = z
  .object({
    token: z.string().nullable().openapi({
      description:
        'Bearer token for API clients (Authorization: Bearer). Null when the session was renewed through the HttpOnly cookie: the web app never needs to read it.',
    }),
    loginDate: z.string().openapi({ format: 'date-time', description: 'When this token was issued.' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
    rememberDays: z.union(
      REMEMBER_DAYS.map((d) => z.literal(d)) as [z.ZodLiteral<7>, z.ZodLiteral<30>, z.ZodLiteral<90>],
    ),
    user: UserSchema,
    loggedIn: z.literal(true),
  })
  .openapi('SessionUser');
