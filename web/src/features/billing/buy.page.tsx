import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/route-paths.js';
import { PageFrame } from '../../shared/ui/page-frame.js';

/** Purchase of credits or a plan (route user/subscription/buy). */
export function BuyPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('common:buy.title')}
      breadcrumbs={[
        { text: t('common:subscription.title'), to: ROUTES.user_subscription },
        { text: t('common:buy.title') },
      ]}
    >
      <p className="nu-lead">{t('common:buy.intro')}</p>
    </PageFrame>
  );
}
