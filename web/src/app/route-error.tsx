import { Button, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { errorMessage } from '../shared/i18n/error-message.js';

/** Shown when a screen fails to render: the error, and a way to reload. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  return (
    <NonIdealState
      icon="error"
      title={t('common:routeError.title')}
      description={errorMessage(t, error)}
      action={
        <Button icon="refresh" onClick={() => window.location.reload()}>
          {t('common:routeError.reload')}
        </Button>
      }
    />
  );
}
