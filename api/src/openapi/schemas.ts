import { z } from '@hono/zod-openapi';
import { ERROR_CODE_LIST, ERROR_CODES, type ErrorCode } from '../errors.codes.js';

/** Every stable error code (errors.codes.ts), as the OpenAPI `ErrorCode` enum. */
export const ErrorCodeSchema = z.enum(ERROR_CODE_LIST).openapi('ErrorCode', {
  description: Object.entries(ERROR_CODES)
    .map(([code, e]) => `- \`${code}\` (${e.status}): ${e.description}`)
    .join('\n'),
});

/** The body of every error response. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string().openapi({ description: 'English text for logs and developers; translate `code`.' }),
      details: z.record(z.string(), z.unknown()).optional().openapi({
        description:
          'FORM_INVALID and friends: `fields` [{ field, code, issue, message }]. 429 and mail failures: `retryAfterSeconds`.',
      }),
    }),
  })
  .openapi('ErrorBody');

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'No valid session',
  402: 'Not enough credits',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  415: 'Body is not JSON',
  429: 'Too many attempts (see Retry-After)',
  503: 'Unavailable (see Retry-After)',
};

/**
 * OpenAPI responses for error statuses, each listing the codes a route may answer.
 *
 * @example
 * responses: { 200: ok, ...errorResponses({ 401: ['INVALID_CREDENTIALS'], 429: ['TOO_MANY_ATTEMPTS'] }) }
 */
export function errorResponses(byStatus: Partial<Record<number, readonly ErrorCode[]>>) {
  const out: Record<
    number,
    { description: string; content: { 'application/json': { schema: typeof ErrorBodySchema } } }
  > = {};
  for (const [status, codes] of Object.entries(byStatus)) {
    const s = Number(status);
    out[s] = {
      description: `${STATUS_TEXT[s] ?? 'Error'}: ${(codes ?? []).join(', ')}`,
      content: { 'application/json': { schema: ErrorBodySchema } },
    };
  }
  return out;
}

/** `security` of a route that needs a session: the bearer token or the session cookie. */
export const SESSION_SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { cookieAuth: [] }];

/** A JSON request body (required) for createRoute. */
export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { required: true, content: { 'application/json': { schema } }, ...(description ? { description } : {}) };
}

/** A JSON response for createRoute. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

/**
 * Query of the table contract (spec §7 "Table fetch"): limit, offset, sortBy and
 * order ASC|DESC, plus a free-text search; answers `{ count, results }`.
 */
export function tableQuerySchema<const S extends readonly [string, ...string[]]>(
  sortColumns: S,
  defaultSort: S[number],
) {
  return z.object({
    limit: z.coerce.number().int().min(1).max(10_000).default(50).openapi({ description: 'Rows per page.' }),
    offset: z.coerce.number().int().min(0).default(0),
    sortBy: z.enum(sortColumns).default(defaultSort as never),
    order: z.enum(['ASC', 'DESC']).default('DESC'),
    search: z.string().trim().max(200).optional().openapi({ description: 'Case-insensitive text search.' }),
  });
}

/** A page of the table contract. */
export function tablePageSchema<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      count: z.number().int().openapi({ description: 'Rows matching, over all pages.' }),
      results: z.array(item),
    })
    .openapi(name);
}
