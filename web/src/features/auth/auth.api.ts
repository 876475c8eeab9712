import { api } from '../../shared/api/api.js';
import type { RegistrationPayload, User } from '../../shared/api/types.js';

/** The app's own address of a hash route, put in mails by the server (`#/reset-password-token?token=…`). */
export function appUrl(hashPath: string): string {
  return `${window.location.origin}${window.location.pathname}#${hashPath}`;
}

/** POST /auth-jwt/register: creates the account; the server mails the activation link. */
export async function register(payload: RegistrationPayload): Promise<void> {
  await api.post('/auth-jwt/register', { body: payload });
}

/** POST /auth-jwt/registration-mail: sends the activation mail again. */
export async function resendActivationMail(username: string): Promise<void> {
  await api.post('/auth-jwt/registration-mail', {
    body: { username, activateUserUrl: appUrl('/registration-token') },
  });
}

/** POST /auth-jwt/password-forgot: sends a reset mail whose link opens the reset page. */
export async function requestPasswordReset(username: string): Promise<void> {
  await api.post('/auth-jwt/password-forgot', {
    body: { username, resetPasswordUrl: appUrl('/reset-password-token') },
  });
}

/** GET /users/from-reset-password-token: the account a reset or activation link belongs to. */
export function userFromToken(token: string): Promise<Pick<User, 'username'> & Partial<User>> {
  return api.get('/users/from-reset-password-token', { query: { token } });
}

/** POST /auth-jwt/recuperation: sets the new password with the mailed token. */
export async function resetPassword(username: string, password: string, token: string): Promise<void> {
  await api.post('/auth-jwt/recuperation', { body: { username, password, token } });
}

/** POST /auth-jwt/activate-from-mail: activates the account with the mailed token. */
export async function activateAccount(username: string, token: string): Promise<void> {
  await api.post('/auth-jwt/activate-from-mail', { body: { username, token } });
}
