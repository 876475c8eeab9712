import type { TFunction } from 'i18next';
import { isApiError, NETWORK_ERROR } from '../api/api-error.js';

/**
 * The translated message of an error: an API error's code is looked up in the
 * `errors` namespace; an unknown code shows the server's message, then a
 * generic text, so the user always reads something true.
 */
export function errorMessage(t: TFunction, err: unknown): string {
  if (isApiError(err)) {
    const key = `errors:${err.code}`;
    const translated = t(key, { defaultValue: '', ...(err.details ?? {}) });
    if (translated && translated !== key) return translated;
    if (err.code === NETWORK_ERROR) return t('errors:NETWORK_ERROR');
    return err.message && err.message !== err.code ? err.message : t('errors:UNKNOWN');
  }
  if (err instanceof Error && err.message) return err.message;
  return t('errors:UNKNOWN');
}
