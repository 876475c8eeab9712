/**
 * An error answered by the API (`{ error: { code, message } }`) or met on the
 * way to it (network down, unreadable body). The `code` is stable: the UI
 * translates it (errors namespace), the `message` is the server's English text.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** Code used when the server could not be reached at all. */
export const NETWORK_ERROR = 'NETWORK_ERROR';
/** Code used when a response was not the JSON we expect. */
export const BAD_RESPONSE = 'BAD_RESPONSE';

/** Narrows an unknown thrown value to an {@link ApiError}. */
export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/**
 * Reads an error body of the API; falls back to a code derived from the HTTP
 * status so a proxy's HTML error page still gives a translatable code.
 */
export function errorFromResponse(status: number, body: unknown): ApiError {
  if (body && typeof body === 'object' && 'error' in body) {
    const e = (body as { error: unknown }).error;
    if (e && typeof e === 'object' && typeof (e as { code?: unknown }).code === 'string') {
      const { code, message, details } = e as { code: string; message?: unknown; details?: unknown };
      return new ApiError(
        status,
        code,
        typeof message === 'string' ? message : code,
        details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined,
      );
    }
  }
  const code =
    status === 401
      ? 'UNAUTHORIZED'
      : status === 403
        ? 'FORBIDDEN'
        : status === 404
          ? 'NOT_FOUND'
          : status === 429
            ? 'TOO_MANY_ATTEMPTS'
            : status >= 500
              ? 'INTERNAL'
              : BAD_RESPONSE;
  return new ApiError(status, code, `HTTP ${status}`);
}
