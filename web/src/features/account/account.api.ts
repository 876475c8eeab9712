import { api } from '../../shared/api/api.js';
import type { User, UserPatch } from '../../shared/api/types.js';

/** GET /users/current: the logged-in user. */
export function fetchCurrentUser(): Promise<User> {
  return api.get<User>('/users/current');
}

/** PATCH /users/current: profile and preferences only (spec §7); answers the updated user. */
export function updateCurrentUser(patch: UserPatch): Promise<User> {
  return api.patch<User>('/users/current', { body: patch });
}
