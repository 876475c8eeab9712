import { Spinner } from '@blueprintjs/core';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { ApplyUserPreferences } from './preferences.js';
import { QueryStateSync } from './query-state.js';
import { TopNav } from './top-nav.js';

/** Spinner shown while a screen or its data loads. */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <div className="nu-center" role="status">
      <Spinner aria-label={t('common:loading')} />
    </div>
  );
}

/** Scroll returns to the top on each navigation to another screen (spec §2). */
function ScrollToTop() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect must run on each new path.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/** The frame of every route: top bar, shared query state, the user's preferences, the screen. */
export function RootLayout() {
  const { t } = useTranslation();
  return (
    <>
      <button type="button" className="nu-skip" onClick={() => document.getElementById('main')?.focus()}>
        {t('common:nav.skipToContent')}
      </button>
      <ScrollToTop />
      <QueryStateSync />
      <ApplyUserPreferences />
      <TopNav />
      <main id="main" className="nu-main" tabIndex={-1}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
