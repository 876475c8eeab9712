import { AnchorButton, Icon, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { ROUTES } from '../../app/route-paths.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { PageFrame } from '../../shared/ui/page-frame.js';
import { useQueryValues } from '../../shared/ui/use-query-values.js';
import { cancelPurchase, getPurchase, type Purchase } from './billing.api.js';
import { formatHectares } from './billing-format.js';

/** How long the success page waits for the payment to be confirmed before saying it is still pending. */
const POLL_MS = 1500;
const POLLS = 20;

/**
 * Return page of the payment provider (routes user/subscription/buy/success
 * and …/cancel, query value session_id). Success: the credits added and the
 * subscription ready (the server confirms the session with Stripe). Cancel:
 * "the purchase is cancelled" (the session is expired so it cannot be paid).
 */
export function BuyResultPage({ outcome }: { outcome: 'success' | 'cancel' }) {
  const { t, i18n } = useTranslation();
  const [query] = useQueryValues();
  const { mutate } = useSWRConfig();
  const sessionId = query.session_id ?? '';
  const [purchase, setPurchase] = useState<Purchase | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [gaveUp, setGaveUp] = useState(false);

  useEffect(() => {
    if (!sessionId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async (n: number) => {
      try {
        const p = outcome === 'cancel' ? await cancelPurchase(sessionId) : await getPurchase(sessionId);
        if (stopped) return;
        setPurchase(p);
        if (p.status === 'completed') {
          void mutate((key) => Array.isArray(key) && String(key[0]).startsWith('subscription-'));
        } else if (outcome === 'success' && p.status === 'open') {
          if (n >= POLLS) setGaveUp(true);
          else timer = setTimeout(() => void run(n + 1), POLL_MS);
        }
      } catch (err) {
        if (!stopped) setError(err);
      }
    };
    void run(1);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [sessionId, outcome, mutate]);

  const title = outcome === 'success' ? t('common:buy.successTitle') : t('common:buy.cancelTitle');
  const back = (
    <AnchorButton href={`#${ROUTES.user_subscription}`} intent={Intent.PRIMARY}>
      {t('common:buy.backToSubscription')}
    </AnchorButton>
  );
  let body: ReactNode;
  if (error) {
    body = <NonIdealState icon="error" title={errorMessage(t, error)} action={back} />;
  } else if (outcome === 'cancel') {
    body = (
      <NonIdealState
        icon="disable"
        title={purchase?.status === 'completed' ? t('billing:result.paidAnyway') : t('common:buy.cancelMessage')}
        description={t('billing:result.cancelHelp')}
        action={
          <>
            {back} <AnchorButton href={`#${ROUTES.user_subscription_buy}`}>{t('billing:buy.again')}</AnchorButton>
          </>
        }
      />
    );
  } else if (purchase?.status === 'completed') {
    body = (
      <NonIdealState
        icon={<Icon icon="tick-circle" intent={Intent.SUCCESS} size={48} />}
        title={t('common:buy.successMessage')}
        description={
          <div data-testid="purchase-result">
            <p>{t('billing:result.added', { credits: formatHectares(purchase.hectares ?? 0, i18n.language) })}</p>
            {purchase.subscription && (
              <p>
                {t('billing:result.ready', {
                  name: purchase.subscription.name,
                  credits: formatHectares(purchase.subscription.credits, i18n.language),
                })}
              </p>
            )}
          </div>
        }
        action={back}
      />
    );
  } else if (!sessionId || gaveUp || (purchase && purchase.status !== 'open')) {
    body = (
      <NonIdealState
        icon="time"
        title={gaveUp ? t('billing:result.pending') : t('billing:result.unknown')}
        action={back}
      />
    );
  } else {
    body = <NonIdealState icon={<Spinner />} title={t('billing:result.confirming')} />;
  }
  return (
    <PageFrame
      title={title}
      breadcrumbs={[
        { text: t('common:subscription.title'), to: ROUTES.user_subscription },
        { text: t('common:buy.title'), to: ROUTES.user_subscription_buy },
        { text: title },
      ]}
    >
      {body}
    </PageFrame>
  );
}
