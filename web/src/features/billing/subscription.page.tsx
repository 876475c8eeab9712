import { AnchorButton } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/route-paths.js';
import { PageFrame } from '../../shared/ui/page-frame.js';

/** The user's subscription (route user/subscription). */
export function SubscriptionPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('common:subscription.title')}
      breadcrumbs={[{ text: t('common:projects.title'), to: ROUTES.user }, { text: t('common:subscription.title') }]}
      actions={
        <AnchorButton intent="primary" icon="shopping-cart" href={`#${ROUTES.user_subscription_buy}`}>
          {t('common:subscription.buy')}
        </AnchorButton>
      }
    >
      <p className="nu-lead">{t('common:subscription.intro')}</p>
    </PageFrame>
  );
}
