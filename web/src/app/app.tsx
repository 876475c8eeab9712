import { BlueprintProvider } from '@blueprintjs/core';
import type { i18n as I18n } from 'i18next';
import { StrictMode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { isApiError } from '../shared/api/api-error.js';
import { createAppRouter } from './router.js';
import { SessionProvider } from './session-context.js';
import type { SessionStore } from './session-store.js';

/** Client errors are not retried; server and network errors are, a few times. */
const swrConfig = {
  shouldRetryOnError: (err: unknown) => !(isApiError(err) && err.status >= 400 && err.status < 500),
  errorRetryCount: 3,
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
