import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { z } from 'zod';
import type { AppEnv } from '../context.js';
import type { ErrorCode } from '../errors.codes.js';
import { AppError } from '../errors.js';

/** One invalid field of a request: where, its stable code, zod's issue kind and a message. */
export interface FieldIssue {
  field: string;
  code: ErrorCode;
  issue: string;
  message: string;
}

/**
 * Turns zod issues into the API's error: each field gets the code its rule carries
 * (`params: { code }` on a refinement: DISPOSABLE_EMAIL, WEAK_PASSWORD, ...), unknown
 * keys of a strict body are FIELD_NOT_EDITABLE, anything else FORM_INVALID. The
 * error's code is the first field's specific code, else FORM_INVALID.
 */
export function validationError(issues: readonly z.core.$ZodIssue[], where: string): AppError {
  const fields: FieldIssue[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        fields.push({
          field: base ? `${base}.${key}` : key,
          code: 'FIELD_NOT_EDITABLE',
          issue: issue.code,
          message: `${key} cannot be changed here`,
        });
      }
      continue;
    }
    const code = issue.code === 'custom' ? (issue.params?.code as ErrorCode | undefined) : undefined;
    fields.push({ field: base || where, code: code ?? 'FORM_INVALID', issue: issue.code, message: issue.message });
  }
  const specific = fields.find((f) => f.code !== 'FORM_INVALID');
  const first = specific ?? fields[0];
  const message = first ? `${first.field}: ${first.message}` : 'the request is not valid';
  return new AppError(400, specific?.code ?? 'FORM_INVALID', message, { fields });
}

/**
 * A route group documented in the OpenAPI document: an OpenAPIHono whose request
 * validation failures become `{ error: { code, message, details: { fields } } }` (400),
 * whose 415 (body not JSON) is a typed error too, and whose errors carrying
 * `details.retryAfterSeconds` set the Retry-After header.
 *
 * @example
 * const app = createRouteGroup();
 * app.openapi(createRoute({ method: 'get', path: '/things', responses: { ... } }), (c) => c.json(list, 200));
 */
export function createRouteGroup(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error.issues, result.target);
    },
  });
  app.onError((err, c) => {
    if (err instanceof HTTPException && !(err instanceof AppError)) {
      throw err.status === 415
        ? new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'the request body must be JSON (Content-Type: application/json)')
        : new AppError(err.status, 'FORM_INVALID', err.message || 'the request is not valid');
    }
    const wait = err instanceof AppError ? err.details?.retryAfterSeconds : undefined;
    if (typeof wait === 'number') c.header('Retry-After', String(wait));
    throw err;
  });
  return app;
}
