import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: one subscription (route admin/subscriptions/view/{id}). */
export function AdminSubscriptionViewPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const ref = [id].join(' / ');
  return (
    <PageFrame
      title={t('admin:subscriptions.viewTitle', { ref })}
      breadcrumbs={[
        { text: t('admin:title'), to: '/admin' },
        { text: t('admin:subscriptions.listTitle'), to: '/admin/subscriptions' },
        { text: ref },
      ]}
    >
      <p className="nu-lead">{t('admin:subscriptions.viewIntro')}</p>
    </PageFrame>
  );
}
