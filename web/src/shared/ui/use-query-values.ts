import { useCallback, useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router';

/** Values to set in the query; null or undefined removes a value. */
export type QueryPatch = Record<string, string | number | boolean | null | undefined>;

/**
 * The query of the hash route the window shows now, when it is the route
 * `pathname` (null otherwise: another router, or the route changed).
 */
export function liveHashQuery(hash: string, pathname: string): URLSearchParams | null {
  const route = hash.replace(/^#/, '');
  const at = route.indexOf('?');
  const path = at < 0 ? route : route.slice(0, at);
  if (path !== pathname) return null;
  return new URLSearchParams(at < 0 ? '' : route.slice(at + 1));
}

/** Applies a patch to query values (null, undefined or '' removes a value). */
export function patchQuery(base: URLSearchParams, patch: QueryPatch): URLSearchParams {
  const next = new URLSearchParams(base);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || v === undefined || v === '') next.delete(k);
    else next.set(k, String(v));
  }
  return next;
}

/**
 * The query values of the current screen and a setter that merges a patch
 * into them (replacing the history entry, so paging does not fill "back").
 * The patch lands on the query the window shows when it is applied, not on
 * the one of the render that made the setter: a handler of an earlier render
 * (a sort clicked just as a typed search reached the URL) cannot put back
 * values the URL has moved on from. The screen follows in the same task
 * (flushSync): what the user typed or clicked is never a deferred update.
 */
export function useQueryValues(): [Record<string, string>, (patch: QueryPatch) => void] {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const values = useMemo(() => Object.fromEntries(params.entries()), [params]);
  const update = useCallback(
    (patch: QueryPatch) => {
      setParams(
        (prev) => {
          const live = typeof window === 'undefined' ? null : liveHashQuery(window.location.hash, pathname);
          return patchQuery(live ?? prev, patch);
        },
        // Rendered at once, not as a transition React may hold back: the URL must never run ahead of the
        // screen (a loaded CI once showed `search=ar` in the URL over the old query's rows for 30 s).
        { replace: true, flushSync: true },
      );
    },
    [setParams, pathname],
  );
  return [values, update];
}
