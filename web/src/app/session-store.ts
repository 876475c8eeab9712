import type { ApiClient, SessionPort } from '../shared/api/api-client.js';
import type { Role, SessionUser, User } from '../shared/api/types.js';

/** Remember-me choices of the login form, in days (spec §9). */
export const REMEMBER_ME_DAYS = [7, 30, 90] as const;
export type RememberMeDays = (typeof REMEMBER_ME_DAYS)[number];

/** What the React tree sees of the session. */
export interface SessionState {
  /** `starting` until the start-up renewal has answered. */
  status: 'starting' | 'ready';
  user: User | null;
}

export interface SessionStoreOptions {
  now?: () => number;
  /** Where the browser goes after a logout (spec §4: the origin). */
  leave?: () => void;
}

/**
 * The browser session: the moment of the last login and the user. The session
 * itself is the HttpOnly cookie the server sets; the web app drops the bearer
 * token of the login answer, so no script keeps a copy of it. It renews at
 * start-up, on demand of the API client (login 30 minutes old or more) and
 * logs out when a renewal fails or a request answers 401.
 */
export class SessionStore implements SessionPort {
  private readonly api: ApiClient;
  private readonly now: () => number;
  private readonly leave: () => void;
  /** True when leaving reloads the page, which discards the session by itself. */
  private readonly leaveReloads: boolean;
  private loginAt = 0;
  private loggingOut = false;
  private state: SessionState = { status: 'starting', user: null };
  private readonly listeners = new Set<() => void>();

  constructor(api: ApiClient, options: SessionStoreOptions = {}) {
    this.api = api;
    this.now = options.now ?? Date.now;
    this.leave =
      options.leave ?? (() => window.location.assign(`${window.location.origin}${window.location.pathname}`));
    this.leaveReloads = options.leave === undefined;
    api.setSession(this);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SessionState => this.state;

  private set(next: Partial<SessionState>): void {
    this.state = { ...this.state, ...next };
    for (const l of this.listeners) l();
  }

  private accept(s: SessionUser): User {
    if (!s || typeof s !== 'object' || !s.user) throw new Error('the server answered no session user');
    // The local clock decides the renewal, so a skewed server clock cannot loop it.
    this.loginAt = this.now();
    this.set({ status: 'ready', user: s.user });
    return s.user;
  }

  private clear(): void {
    this.loginAt = 0;
    this.set({ status: 'ready', user: null });
  }

  /** {@inheritDoc SessionPort.current} */
  current(): { token: string | null; loginDate: number } | null {
    // While logging out, no renewal runs before the logout call itself.
    return this.state.user && !this.loggingOut ? { token: null, loginDate: this.loginAt } : null;
  }

  /** Start-up: tries to renew the login from the session cookie (spec §4). Never throws. */
  async start(): Promise<void> {
    try {
      this.accept(await this.api.post<SessionUser>('/auth-jwt/refreshToken', { body: {} }));
    } catch {
      this.clear();
    }
  }

  /** {@inheritDoc SessionPort.renew} */
  async renew(): Promise<void> {
    // An empty body: the server renews the cookie it finds (a body token would get a token back, not a cookie).
    this.accept(await this.api.post<SessionUser>('/auth-jwt/refreshToken', { body: {} }));
  }

  /** {@inheritDoc SessionPort.expire} */
  expire(): void {
    if (!this.state.user) return;
    void this.logout();
  }

  /** Logs in; rejects with the API's error (INVALID_CREDENTIALS, ACCOUNT_INACTIVE, ...). */
  async login(username: string, password: string, rememberMeDays: RememberMeDays): Promise<User> {
    const s = await this.api.post<SessionUser>('/auth-jwt/login', {
      body: { username, password, rememberMe: rememberMeDays },
    });
    return this.accept(s);
  }

  /** Logs out: the server clears the cookie, the session is dropped and the browser returns to the origin. */
  async logout(): Promise<void> {
    if (this.loggingOut) return;
    this.loggingOut = true;
    try {
      await this.api.post('/auth-jwt/logout', { signal: AbortSignal.timeout(10_000) });
    } catch {
      // The session is gone on this side whatever the server says.
    }
    // A reload starts the app afresh (no flash of a logged-out screen before it); otherwise clear here.
    if (!this.leaveReloads) this.clear();
    this.loggingOut = false;
    this.leave();
  }

  /** Replaces the user after a profile or preference change. */
  setUser(user: User): void {
    if (this.state.user) this.set({ user });
  }
}

/** True when the user has at least one of the roles (no roles listed: any logged-in user). */
export function hasAnyRole(user: User | null, roles: readonly Role[] | undefined): boolean {
  if (!user) return false;
  if (!roles || roles.length === 0) return true;
  return roles.some((r) => user.roles.includes(r));
}
