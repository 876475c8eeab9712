import { api } from '../../shared/api/api.js';
import type { RegistrationPayload } from '../../shared/api/types.js';

/** The app's own address of a hash route, for links the server puts in mails (`…/#/reset-password-token`). */
export function appUrl(hashPath: string): string {
  return `${window.location.origin}${window.location.pathname}#${hashPath}`;
}

/** Route the activation mail opens. */
export const ACTIVATION_ROUTE = '/registration-token';
/** Route the reset mail opens. */
export const RESET_ROUTE = '/reset-password-token';

/** POST /auth-jwt/register: creates the account; the server mails the activation link. */
export function register(payload: RegistrationPayload): Promise<{ activationMailSent: boolean }> {
  return api.post('/auth-jwt/register', { body: { ...payload, activateUserUrl: appUrl(ACTIVATION_ROUTE) } });
}

/** POST /auth-jwt/registration-mail: mails the activation link again. */
export async function resendActivationMail(username: string): Promise<void> {
  await api.post('/auth-jwt/registration-mail', { body: { username, activateUserUrl: appUrl(ACTIVATION_ROUTE) } });
}

/** POST /auth-jwt/password-forgot: mails a reset link that opens the reset page. */
export async function requestPasswordReset(username: string): Promise<void> {
  await api.post('/auth-jwt/password-forgot', { body: { username, resetPasswordUrl: appUrl(RESET_ROUTE) } });
}

/** What a mailed token is for (GET /users/from-reset-password-token); does not use it up. */
export interface MailToken {
  username: string;
  purpose: 'password_reset' | 'activation';
  expiresAt: string;
}

/** GET /users/from-reset-password-token: the account and purpose of a reset or activation link. */
export function inspectMailToken(token: string): Promise<MailToken> {
  return api.get<MailToken>('/users/from-reset-password-token', { query: { token } });
}

/** POST /auth-jwt/recuperation: sets the new password with the mailed token. */
export async function resetPassword(username: string, password: string, token: string): Promise<void> {
  await api.post('/auth-jwt/recuperation', { body: { username, password, token } });
}

/** POST /auth-jwt/activate-from-mail: activates the account of the mailed token; answers its email. */
export async function activateAccount(token: string): Promise<string> {
  const r = await api.post<{ username: string }>('/auth-jwt/activate-from-mail', { body: { token } });
  return r.username;
}
