import { ApiError, BAD_RESPONSE, errorFromResponse, NETWORK_ERROR } from './api-error.js';

/** Age of the last login after which a request first renews the session (spec §4, §9). */
export const RENEWAL_THRESHOLD_MS = 30 * 60 * 1000;

/** Paths whose requests never trigger a renewal (spec §7). */
const NO_RENEWAL_SUFFIXES = ['/refreshToken', '/current', '/login', '/users/current'];
/** Paths whose 401 does not log the user out (spec §7). */
const NO_LOGOUT_ON_401_SUFFIXES = ['/users/current', '/subscriptions/current'];

/** What the client needs to know about the session; the app's session store implements it. */
export interface SessionPort {
  /** The bearer token and when it was obtained, or null when logged out. */
  current(): { token: string | null; loginDate: number } | null;
  /** Renews the login (POST /auth-jwt/refreshToken); rejects when it fails. */
  renew(): Promise<void>;
  /** Clears the session after a failed renewal or a 401. */
  expire(reason: 'renewal-failed' | 'unauthorized'): void;
}

/** Options of one request. */
export interface RequestOptions {
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface ApiClientOptions {
  /** Base address of the API, e.g. `/api` or `https://nuage.example.com/api`. */
  baseUrl: string;
  session?: SessionPort;
  fetch?: typeof fetch;
  now?: () => number;
}

/** One HTTP method of the client. */
export type ApiCall = <T>(path: string, options?: RequestOptions) => Promise<T>;

export interface ApiClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get: ApiCall;
  post: ApiCall;
  patch: ApiCall;
  put: ApiCall;
  delete: ApiCall;
  /** Attaches the session once the app has built it (the session itself uses the client). */
  setSession(session: SessionPort | undefined): void;
}

function endsWithAny(path: string, suffixes: string[]): boolean {
  return suffixes.some((s) => path.endsWith(s));
}

/**
 * The one fetch wrapper of the web app: JSON in and out, bearer token, typed
 * errors, and the session rules of spec §4/§7 — a renewal before any
 * non-OPTIONS request once the last login is 30 minutes old (except on the
 * session paths themselves), and an expired session on a failed renewal or on
 * a 401 (except from /users/current and /subscriptions/current).
 *
 * @example
 * const api = createApiClient({ baseUrl: '/api' });
 * const me = await api.get<User>('/users/current');
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const now = options.now ?? Date.now;
  let session = options.session;
  let renewing: Promise<void> | null = null;

  async function renewIfOld(method: string, path: string): Promise<void> {
    if (!session || method === 'OPTIONS' || endsWithAny(path, NO_RENEWAL_SUFFIXES)) return;
    const s = session.current();
    if (!s || now() - s.loginDate < RENEWAL_THRESHOLD_MS) return;
    // Concurrent requests share one renewal.
    renewing ??= session.renew().finally(() => {
      renewing = null;
    });
    try {
      await renewing;
    } catch {
      session.expire('renewal-failed');
      throw new ApiError(401, 'SESSION_EXPIRED', 'the session could not be renewed');
    }
  }

  function url(path: string, query: RequestOptions['query']): string {
    const base = options.baseUrl.replace(/\/+$/, '');
    let u = `${base}${path.startsWith('/') ? path : `/${path}`}`;
    if (query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v));
      const qs = params.toString();
      if (qs) u += `${u.includes('?') ? '&' : '?'}${qs}`;
    }
    return u;
  }

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const m = method.toUpperCase();
    await renewIfOld(m, path);
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    const token = session?.current()?.token;
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    let res: Response;
    try {
      res = await doFetch(url(path, opts.query), {
        method: m,
        headers,
        body,
        credentials: 'same-origin',
        signal: opts.signal,
      });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new ApiError(0, NETWORK_ERROR, (err as Error).message || 'network error');
    }
    const text = await res.text();
    let parsed: unknown;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        if (res.ok) throw new ApiError(res.status, BAD_RESPONSE, 'the server answered something that is not JSON');
      }
    }
    if (!res.ok) {
      if (res.status === 401 && session && !endsWithAny(path, NO_LOGOUT_ON_401_SUFFIXES)) {
        session.expire('unauthorized');
      }
      throw errorFromResponse(res.status, parsed);
    }
    return parsed as T;
  }

  const call =
    (method: string): ApiCall =>
    <T>(path: string, o?: RequestOptions) =>
      request<T>(method, path, o);

  return {
    request,
    get: call('GET'),
    post: call('POST'),
    patch: call('PATCH'),
    put: call('PUT'),
    delete: call('DELETE'),
    setSession(s) {
      session = s;
    },
  };
}
