import { Button, Callout, Card, H3, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/route-paths.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { ErrorCallout } from '../../shared/ui/error-callout.js';
import { PageFrame } from '../../shared/ui/page-frame.js';
import { showToast } from '../../shared/ui/toaster.js';
import { type SubscriptionTemplate, startCheckout, useOffers } from './billing.api.js';
import { formatGb, formatHectares, formatMoney } from './billing-format.js';
import './billing.css';

/** Where the browser goes for a payment (a seam for tests: the payment page is another origin). */
export function goTo(url: string): void {
  window.location.assign(url);
}

function OfferCard({ offer, purchasable }: { offer: SubscriptionTemplate; purchasable: boolean }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const lang = i18n.language;
  const buy = async () => {
    setBusy(true);
    try {
      const { url } = await startCheckout(offer.id);
      goTo(url);
    } catch (err) {
      setBusy(false);
      void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
    }
  };
  const recurring = offer.allocationPeriod !== 'NONE';
  return (
    <Card className="nu-offer" data-testid={`offer-${offer.id}`}>
      <H3>{offer.name}</H3>
      <div className="nu-offer__price">
        {offer.price ? formatMoney(offer.price.amount, offer.price.currency, lang) : '—'}
        {recurring && <span className="nu-muted"> / {t(`billing:per.${offer.allocationPeriod}`)}</span>}
      </div>
      {offer.description && <p>{offer.description}</p>}
      <ul className="nu-offer__grow">
        <li>
          {recurring
            ? t('billing:buy.creditsRecurring', {
                first: formatHectares(offer.credits, lang),
                each: formatHectares(offer.creditsAllowance, lang),
                period: t(`billing:period.${offer.allocationPeriod}`),
              })
            : t('billing:buy.creditsOnce', { credits: formatHectares(offer.credits, lang) })}
        </li>
        {offer.limits.maxProjects !== null && <li>{t('billing:buy.projects', { count: offer.limits.maxProjects })}</li>}
        {offer.limits.maxInputFileBytes !== null && (
          <li>{t('billing:buy.fileSize', { size: formatGb(offer.limits.maxInputFileBytes, lang) })}</li>
        )}
        {offer.limits.maxStorageBytes !== null && (
          <li>{t('billing:buy.storage', { size: formatGb(offer.limits.maxStorageBytes, lang) })}</li>
        )}
        {offer.premium && (
          <li>
            <Tag minimal intent={Intent.SUCCESS} icon="star">
              {t('billing:buy.premium')}
            </Tag>
          </li>
        )}
      </ul>
      <Button
        intent={Intent.PRIMARY}
        icon="shopping-cart"
        fill
        loading={busy}
        disabled={!purchasable || !offer.paymentProductId}
        onClick={() => void buy()}
      >
        {recurring ? t('billing:buy.subscribe') : t('billing:buy.buyPack')}
      </Button>
    </Card>
  );
}

/** Purchase of a plan or a pack of credits (route user/subscription/buy): the enabled PAID templates. */
export function BuyPage() {
  const { t } = useTranslation();
  const { data, error } = useOffers();
  return (
    <PageFrame
      title={t('common:buy.title')}
      breadcrumbs={[
        { text: t('common:subscription.title'), to: ROUTES.user_subscription },
        { text: t('common:buy.title') },
      ]}
    >
      <p className="nu-lead">{t('common:buy.intro')}</p>
      {error && <ErrorCallout error={error} />}
      {!data && !error && <Spinner />}
      {data && !data.paymentsConfigured && (
        <Callout intent={Intent.WARNING} icon="info-sign" className="nu-callout" data-testid="payments-not-configured">
          {t('billing:buy.notConfigured')}
        </Callout>
      )}
      {data && data.templates.length === 0 && <NonIdealState icon="shop" title={t('billing:buy.noOffers')} />}
      {data && data.templates.length > 0 && (
        <div className="nu-offers">
          {data.templates.map((o) => (
            <OfferCard key={o.id} offer={o} purchasable={data.paymentsConfigured} />
          ))}
        </div>
      )}
    </PageFrame>
  );
}
