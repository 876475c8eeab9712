import { isDatabaseUnavailable } from './db/client.js';

/**
 * API errors: every error leaves the API as `{ error: { code, message } }` with
 * a stable `code` the web client translates (en-US, fr) and the right status.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>) =>
  new AppError(400, code, message, details);
export const unauthorized = (code = 'UNAUTHORIZED', message = 'authentication is required') =>
  new AppError(401, code, message);
export const forbidden = (code = 'FORBIDDEN', message = 'you are not allowed to do this') =>
  new AppError(403, code, message);
export const notFound = (code = 'NOT_FOUND', message = 'not found') => new AppError(404, code, message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);

/** Seconds a client should wait before retrying when the database is away (Retry-After). */
export const DATABASE_RETRY_SECONDS = 5;

/**
 * The error a request answers when `err` says the database cannot be reached
 * or cannot answer now ({@link isDatabaseUnavailable}): 503
 * DATABASE_UNAVAILABLE, with `retryAfterSeconds` (the Retry-After header);
 * null for any other error.
 */
export function databaseUnavailable(err: unknown): AppError | null {
  if (err instanceof AppError || !isDatabaseUnavailable(err)) return null;
  return new AppError(503, 'DATABASE_UNAVAILABLE', 'the database cannot be reached: try again in a moment', {
    retryAfterSeconds: DATABASE_RETRY_SECONDS,
  });
}

/** The JSON body of an error response. */
export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}
