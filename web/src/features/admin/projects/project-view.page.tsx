import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: one project (route admin/projects/view/{id}). */
export function AdminProjectViewPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const ref = [id].join(' / ');
  return (
    <PageFrame
      title={t('admin:projects.viewTitle', { ref })}
      breadcrumbs={[
        { text: t('admin:title'), to: '/admin' },
        { text: t('admin:projects.listTitle'), to: '/admin/projects/list' },
        { text: ref },
      ]}
    >
      <p className="nu-lead">{t('admin:projects.viewIntro')}</p>
    </PageFrame>
  );
}
