import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: one processing job (route admin/process-data/view/{id}). */
export function AdminProcessDataViewPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const ref = [id].join(' / ');
  return (
    <PageFrame
      title={t('admin:processData.viewTitle', { ref })}
      breadcrumbs={[
        { text: t('admin:title'), to: '/admin' },
        { text: t('admin:processData.listTitle'), to: '/admin/process-data/list' },
        { text: ref },
      ]}
    >
      <p className="nu-lead">{t('admin:processData.viewIntro')}</p>
    </PageFrame>
  );
}
