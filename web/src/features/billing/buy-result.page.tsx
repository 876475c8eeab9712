import { AnchorButton, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/route-paths.js';
import { PageFrame } from '../../shared/ui/page-frame.js';

/** Return page of the payment provider: success (credits added) or cancel (routes user/subscription/buy/success|cancel). */
export function BuyResultPage({ outcome }: { outcome: 'success' | 'cancel' }) {
  const { t } = useTranslation();
  const title = outcome === 'success' ? t('common:buy.successTitle') : t('common:buy.cancelTitle');
  return (
    <PageFrame
      title={title}
      breadcrumbs={[
        { text: t('common:subscription.title'), to: ROUTES.user_subscription },
        { text: t('common:buy.title'), to: ROUTES.user_subscription_buy },
        { text: title },
      ]}
    >
      <NonIdealState
        icon={outcome === 'success' ? 'tick-circle' : 'disable'}
        title={outcome === 'success' ? t('common:buy.successMessage') : t('common:buy.cancelMessage')}
        action={<AnchorButton href={`#${ROUTES.user_subscription}`}>{t('common:buy.backToSubscription')}</AnchorButton>}
      />
    </PageFrame>
  );
}
