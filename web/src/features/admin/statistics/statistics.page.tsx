import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../shared/ui/page-frame.js';
import { QueryTabs } from '../../../shared/ui/query-tabs.js';

/** Admin: statistics with the tabs overview and subscriptions (route admin/statistics, query value tab). */
export function AdminStatisticsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('admin:statistics.title')}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: t('admin:statistics.title') }]}
    >
      <QueryTabs
        id="statistics-tabs"
        tabs={[
          {
            id: 'overview',
            title: t('admin:statistics.overview'),
            panel: <p>{t('admin:statistics.overviewIntro')}</p>,
          },
          {
            id: 'subscriptions',
            title: t('admin:statistics.subscriptions'),
            panel: <p>{t('admin:statistics.subscriptionsIntro')}</p>,
          },
        ]}
      />
    </PageFrame>
  );
}
