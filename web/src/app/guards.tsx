import { Spinner } from '@blueprintjs/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import type { Role } from '../shared/api/types.js';
import { loginRedirect } from './route-paths.js';
import { useSession } from './session-context.js';
import { hasAnyRole } from './session-store.js';

/**
 * Route guard (spec §2, §6): a logged-in user with one of `roles` sees the
 * child routes; anyone else goes to the login page.
 */
export function RequireRole({ roles }: { roles?: readonly Role[] }) {
  const { status, user } = useSession();
  const location = useLocation();
  if (status === 'starting') {
    return (
      <div className="nu-center">
        <Spinner aria-label="Loading" />
      </div>
    );
  }
  if (!hasAnyRole(user, roles)) {
    return <Navigate to={loginRedirect(`${location.pathname}${location.search}`, user !== null)} replace />;
  }
  return <Outlet />;
}
