import { BlueprintProvider } from '@blueprintjs/core';
import type { i18n as I18n } from 'i18next';
import { StrictMode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
// From react-router/dom: it hands the router ReactDOM.flushSync, which query updates ask for (see useQueryValues).
import { RouterProvider } from 'react-router/dom';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { isApiError } from '../shared/api/api-error.js';
import { createAppRouter } from './router.js';
import { SessionProvider } from './session-context.js';
import type { SessionStore } from './session-store.js';

/**
 * Client errors are not retried. Server and network errors are, for about a
 * minute (1, 2, 4, 8 s, then every 10 s): a database that is busy or briefly
 * away (503 DATABASE_UNAVAILABLE) comes back by itself, and the page follows.
 */
const swrConfig: SWRConfiguration = {
  shouldRetryOnError: (err: unknown) => !(isApiError(err) && err.status >= 400 && err.status < 500),
  errorRetryCount: 9,
  onErrorRetry: (_err, _key, config, revalidate, { retryCount }) => {
    if (retryCount > (config.errorRetryCount ?? 9)) return;
    setTimeout(() => void revalidate({ retryCount }), Math.min(10_000, 1000 * 2 ** (retryCount - 1)));
  },
  revalidateOnFocus: false,
};

/** The providers of the whole app around the router. */
export function App({ store, i18n }: { store: SessionStore; i18n: I18n }) {
  const [router] = useState(createAppRouter);
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <BlueprintProvider>
          <SessionProvider store={store}>
            <SWRConfig value={swrConfig}>
              <RouterProvider router={router} />
            </SWRConfig>
          </SessionProvider>
        </BlueprintProvider>
      </I18nextProvider>
    </StrictMode>
  );
}
