import { AnchorButton, Callout, Intent, NonIdealState } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageSpinner } from '../../app/root-layout.js';
import { ROUTES } from '../../app/route-paths.js';
import { ApiError } from '../../shared/api/api-error.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { useCountdown } from '../../shared/ui/use-countdown.js';
import { activateAccount } from './auth.api.js';
import { AuthCard } from './auth-card.js';
import { REDIRECT_DELAY_S } from './reset-password.page.js';

/** One activation per token, even when React mounts the page twice. */
const activations = new Map<string, Promise<string>>();

function activateOnce(token: string): Promise<string> {
  let p = activations.get(token);
  if (!p) {
    p = activateAccount(token);
    activations.set(token, p);
  }
  return p;
}

/** Account activation from the mailed link (route registration-token, query value token). */
export function ActivationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<{ email?: string; error?: unknown }>({});
  const { remaining, start } = useCountdown(() => navigate(ROUTES.auth_login, { replace: true }));

  useEffect(() => {
    if (!token) {
      setState({ error: new ApiError(400, 'INVALID_ACTIVATION_LINK', 'missing token') });
      return;
    }
    let live = true;
    activateOnce(token).then(
      (email) => {
        if (!live) return;
        setState({ email });
        start(REDIRECT_DELAY_S);
      },
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [token, start]);

  const title = t('auth:activation.title');
  if (state.error) {
    return (
      <AuthCard title={title}>
        <NonIdealState
          icon="error"
          title={t('auth:activation.failedTitle')}
          description={errorMessage(t, state.error)}
          action={<Link to={ROUTES.auth_login}>{t('auth:backToLogin')}</Link>}
        />
      </AuthCard>
    );
  }
  if (state.email === undefined) {
    return (
      <AuthCard title={title}>
        <PageSpinner />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title}>
      <Callout intent={Intent.SUCCESS} icon="tick-circle" role="status" className="nu-callout">
        {t('auth:activation.done', { email: state.email })}
      </Callout>
      <p data-testid="redirect-countdown">{t('auth:redirectIn', { count: remaining })}</p>
      <AnchorButton intent={Intent.PRIMARY} fill href={`#${ROUTES.auth_login}`}>
        {t('auth:goToLogin')}
      </AnchorButton>
    </AuthCard>
  );
}
