import { isApiError, NETWORK_ERROR } from '../../../shared/api/api-error.js';

/** Bytes in a readable unit (B, kB, MB, GB; decimal units). */
export function formatBytes(bytes: number | null | undefined, locale?: string): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: i === 0 ? 0 : 1 }).format(v)} ${units[i]}`;
}

/** A number with the locale's separators, or an empty string. */
export function formatNumber(n: number | null | undefined, locale?: string, digits = 2): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(n);
}

/** The outcome of a retry as one of the three messages of spec §4. */
export type RetryOutcome = 'launched' | 'refused' | 'error';

/** Sorts a retry answer: 202 launched; a 4xx answer is a refusal (failed to launch); anything else an error. */
export function retryOutcome(err: unknown): RetryOutcome {
  if (err === undefined) return 'launched';
  if (isApiError(err) && err.code !== NETWORK_ERROR && err.status >= 400 && err.status < 500) return 'refused';
  return 'error';
}
