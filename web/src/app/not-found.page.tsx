import { AnchorButton, NonIdealState } from '@blueprintjs/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ROUTES } from './route-paths.js';

/** The catch-all screen (spec §2). */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = `${t('common:notFound.title')} · Nuage`;
  }, [t]);
  return (
    <NonIdealState
      className="nu-not-found"
      icon="search"
      title={t('common:notFound.title')}
      description={t('common:notFound.description', { path: pathname })}
      action={
        <AnchorButton icon="home" href={`#${ROUTES.root}`}>
          {t('common:notFound.home')}
        </AnchorButton>
      }
    />
  );
}
