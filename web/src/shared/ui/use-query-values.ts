import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** Values to set in the query; null or undefined removes a value. */
export type QueryPatch = Record<string, string | number | boolean | null | undefined>;

/**
 * The query values of the current screen and a setter that merges a patch
 * into them (replacing the history entry, so paging does not fill "back").
 */
export function useQueryValues(): [Record<string, string>, (patch: QueryPatch) => void] {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => Object.fromEntries(params.entries()), [params]);
  const update = useCallback(
    (patch: QueryPatch) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch)) {
            if (v === null || v === undefined || v === '') next.delete(k);
            else next.set(k, String(v));
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return [values, update];
}
