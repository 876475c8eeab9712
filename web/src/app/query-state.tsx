import { useEffect } from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router';

/** Query values last seen per path: the shared state re-applied when a screen is opened again. */
const remembered = new Map<string, string>();

/** Forgets every remembered query (after a logout, so the next user starts clean). */
export function forgetQueryState(): void {
  remembered.clear();
}

/**
 * Keeps each screen's query values (table page, sort, tab...) in a shared
 * state: they are recorded whenever the query changes and re-applied when the
 * screen is opened again by a link without a query (spec §2).
 */
export function QueryStateSync() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  useEffect(() => {
    const { pathname, search } = location;
    if (search && search !== '?') {
      remembered.set(pathname, search);
      return;
    }
    const saved = remembered.get(pathname);
    if (saved && navigationType === 'PUSH') navigate({ pathname, search: saved }, { replace: true });
  }, [location, navigationType, navigate]);
  return null;
}
