import { Alert, AnchorButton, Button, Callout, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSWRConfig } from 'swr';
import { ROUTES } from '../../app/route-paths.js';
import { isApiError } from '../../shared/api/api-error.js';
import { formatDateTime } from '../../shared/format/format-date.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { ErrorCallout } from '../../shared/ui/error-callout.js';
import { showToast } from '../../shared/ui/toaster.js';
import {
  type CurrentSubscription,
  cancelMySubscription,
  useCurrentSubscription,
  useRecentLedger,
} from './billing.api.js';
import { deltaText, LimitsList, ledgerText, SubscriptionFacts } from './subscription-parts.js';

/** Asks, then cancels the current subscription at its anniversary (spec §4). */
export function CancelSubscriptionButton({ current }: { current: CurrentSubscription }) {
  const { t } = useTranslation();
  const { mutate } = useSWRConfig();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const s = current.subscription;
  if (s.status === 'unsubscribed' || s.unsubscribePending) return null;
  const cancel = async () => {
    setOpen(false);
    setBusy(true);
    try {
      const updated = await cancelMySubscription();
      await mutate((key) => Array.isArray(key) && String(key[0]).startsWith('subscription-'));
      void showToast({
        intent: Intent.SUCCESS,
        icon: 'tick',
        message: t('billing:cancel.done', { date: formatDateTime(updated.validUntil) }),
      });
    } catch (err) {
      void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        icon="cross-circle"
        intent={Intent.DANGER}
        variant="outlined"
        loading={busy}
        onClick={() => setOpen(true)}
      >
        {t('billing:cancel.button')}
      </Button>
      <Alert
        isOpen={open}
        intent={Intent.DANGER}
        icon="warning-sign"
        confirmButtonText={t('billing:cancel.confirm')}
        cancelButtonText={t('billing:cancel.keep')}
        onConfirm={() => void cancel()}
        onCancel={() => setOpen(false)}
      >
        <p>{t('billing:cancel.question', { name: s.name })}</p>
        <p>{t('billing:cancel.explain')}</p>
      </Alert>
    </>
  );
}

/** When the current subscription needs the user's attention: a cancellation, a suspension, a failed payment. */
export function SubscriptionNotices({ current }: { current: CurrentSubscription }) {
  const { t } = useTranslation();
  const s = current.subscription;
  return (
    <>
      {s.unsubscribePending && (
        <Callout intent={Intent.WARNING} icon="time" className="nu-callout" data-testid="cancel-pending">
          {t('billing:notices.pending', { date: formatDateTime(s.validUntil) })}
        </Callout>
      )}
      {s.status === 'suspended' && (
        <Callout intent={Intent.DANGER} icon="disable" className="nu-callout">
          {s.suspensionReason === 'payment'
            ? t('billing:notices.suspendedPayment')
            : t('errors:SUBSCRIPTION_SUSPENDED')}
        </Callout>
      )}
      {s.graceUntil && s.status === 'active' && (
        <Callout intent={Intent.WARNING} icon="credit-card" className="nu-callout">
          {t('billing:notices.paymentFailed', { date: formatDateTime(s.graceUntil) })}
        </Callout>
      )}
      {(s.status === 'inactive' || s.status === 'unsubscribed') && (
        <Callout intent={Intent.WARNING} icon="info-sign" className="nu-callout">
          {t('errors:SUBSCRIPTION_INACTIVE')} <Link to={ROUTES.user_subscription_buy}>{t('billing:buy.open')}</Link>
        </Callout>
      )}
    </>
  );
}

/** No subscription at all (spec §8 "No subscription found: contact support"). */
export function NoSubscription() {
  const { t } = useTranslation();
  return (
    <NonIdealState
      icon="issue"
      title={t('errors:NO_SUBSCRIPTION')}
      action={
        <AnchorButton href={`#${ROUTES.user_subscription_buy}`} icon="shopping-cart" intent={Intent.PRIMARY}>
          {t('billing:buy.open')}
        </AnchorButton>
      }
    />
  );
}

/**
 * The account page's subscription card (spec §2 account settings): the current
 * subscription, its credits with the latest movements, and the way to cancel.
 */
export function MySubscriptionSummary() {
  const { t, i18n } = useTranslation();
  const { data, error } = useCurrentSubscription();
  const recent = useRecentLedger(5);
  if (error)
    return isApiError(error) && error.code === 'NO_SUBSCRIPTION' ? <NoSubscription /> : <ErrorCallout error={error} />;
  if (!data) return <Spinner size={24} />;
  return (
    <div data-testid="account-subscription">
      <SubscriptionNotices current={data} />
      <SubscriptionFacts subscription={data.subscription} />
      <h3 className="nu-billing__subtitle">{t('billing:ledger.recent')}</h3>
      {recent.data && recent.data.results.length > 0 ? (
        <ul className="nu-billing__ledger" aria-label={t('billing:ledger.recent')}>
          {recent.data.results.map((e) => (
            <li key={e.id}>
              <span className="nu-muted">{formatDateTime(e.createdAt)}</span> <span>{ledgerText(t, e)}</span>{' '}
              <strong className={e.delta < 0 ? 'nu-billing__minus' : 'nu-billing__plus'}>
                {deltaText(e, i18n.language)}
              </strong>
            </li>
          ))}
        </ul>
      ) : (
        <p className="nu-muted">{t('billing:ledger.empty')}</p>
      )}
      <div className="nu-billing__actions">
        <Link to={ROUTES.user_subscription}>{t('billing:ledger.all')}</Link>
        <AnchorButton href={`#${ROUTES.user_subscription_buy}`} icon="shopping-cart" intent={Intent.PRIMARY}>
          {t('billing:buy.open')}
        </AnchorButton>
        <CancelSubscriptionButton current={data} />
      </div>
    </div>
  );
}

/** The limits card of the subscription page. */
export function MyLimits({ current }: { current: CurrentSubscription }) {
  return <LimitsList subscription={current.subscription} usage={current.usage} />;
}
