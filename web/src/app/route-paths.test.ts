import { describe, expect, it } from 'vitest';
import { afterLoginPath, loginRedirect, routePath } from './route-paths.js';

describe('route paths', () => {
  it('fills parameters of named routes', () => {
    expect(routePath('admin_users_view', { id: 42 })).toBe('/admin/users/view/42');
    expect(routePath('admin_tiling_view', { projectId: 'p 1', tilingId: 7 })).toBe('/admin/tiling/view/p%201/7');
    expect(() => routePath('admin_users_view')).toThrow(/needs the parameter id/);
  });

  it('passes the full path along only for purchase paths', () => {
    expect(loginRedirect('/user')).toBe('/auth/login');
    expect(loginRedirect('/user/subscription/buy?plan=3')).toBe(
      '/auth/login?goBackToRouteFullPath=%2Fuser%2Fsubscription%2Fbuy%3Fplan%3D3',
    );
    expect(loginRedirect('/admin/users/list', true)).toBe('/auth/login?reason=forbidden');
  });

  it('goes back only to paths of the app', () => {
    expect(afterLoginPath('/user/subscription/buy')).toBe('/user/subscription/buy');
    expect(afterLoginPath('//evil.example.com')).toBe('/user');
    expect(afterLoginPath('https://evil.example.com')).toBe('/user');
    expect(afterLoginPath(null)).toBe('/user');
  });
});
