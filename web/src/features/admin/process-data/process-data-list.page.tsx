import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: processing jobs (route admin/process-data/list). */
export function AdminProcessDataListPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('admin:processData.listTitle')}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: t('admin:processData.listTitle') }]}
    >
      <p className="nu-lead">{t('admin:processData.intro')}</p>
    </PageFrame>
  );
}
