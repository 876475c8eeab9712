import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../shared/ui/page-frame.js';
import { QueryTabs } from '../../../shared/ui/query-tabs.js';

/** Admin: subscription templates and subscribed users (route admin/subscriptions, query value tab). */
export function AdminSubscriptionsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('admin:subscriptions.listTitle')}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: t('admin:subscriptions.listTitle') }]}
    >
      <QueryTabs
        id="subscriptions-tabs"
        tabs={[
          {
            id: 'templates',
            title: t('admin:subscriptions.templates'),
            panel: <p>{t('admin:subscriptions.templatesIntro')}</p>,
          },
          {
            id: 'subscribed',
            title: t('admin:subscriptions.subscribed'),
            panel: <p>{t('admin:subscriptions.subscribedIntro')}</p>,
          },
        ]}
      />
    </PageFrame>
  );
}
