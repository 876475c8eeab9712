import useSWR from 'swr';
import { api } from '../../../shared/api/api.js';
import type { Page, Role, User } from '../../../shared/api/types.js';
import type { pageRequest } from '../../../shared/ui/data-table/table-state.js';

/** GET /users: one page of the admin users table (table contract of spec §7). */
export function listUsers(request: ReturnType<typeof pageRequest>): Promise<Page<User>> {
  return api.get<Page<User>>('/users', { query: request });
}

/** GET /users/{id}. */
export function getUser(id: string): Promise<User> {
  return api.get<User>(`/users/${encodeURIComponent(id)}`);
}

/** SWR hook of one user (admin). */
export function useUser(id: string) {
  return useSWR(['admin-user', id], () => getUser(id));
}

/** Every enabled admin: to warn before the last one loses the role (the server refuses it anyway). */
export function useEnabledAdminCount(active: boolean) {
  return useSWR(active ? ['admin-count'] : null, async () => {
    const page = await listUsers({ limit: 10_000, offset: 0, sortBy: 'id', order: 'ASC' });
    return page.results.filter((u) => u.enabled && u.roles.includes('admin')).length;
  });
}

/** The roles stored for a chosen role: an admin is also a user. */
export function rolesFor(role: Role): Role[] {
  return role === 'admin' ? ['admin', 'user'] : ['user'];
}

/** POST /users: creates an active account (spec §7: roles and userJwt {username, password}). */
export function createUser(username: string, password: string, role: Role): Promise<User> {
  return api.post<User>('/users', { body: { roles: rolesFor(role), userJwt: { username, password } } });
}

/** PATCH /users/{id}/role: 409 LAST_ADMIN for the last admin. */
export function setUserRole(id: string, role: Role): Promise<User> {
  return api.patch<User>(`/users/${encodeURIComponent(id)}/role`, { body: { roles: rolesFor(role) } });
}

/** PATCH /users/{id}/enabled: 409 LAST_ADMIN for the last admin. */
export function setUserEnabled(id: string, enabled: boolean): Promise<User> {
  return api.patch<User>(`/users/${encodeURIComponent(id)}/enabled`, { body: { enabled } });
}
