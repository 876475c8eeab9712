import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: every project of every user (route admin/projects/list). */
export function AdminProjectsListPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('admin:projects.listTitle')}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: t('admin:projects.listTitle') }]}
    >
      <p className="nu-lead">{t('admin:projects.intro')}</p>
    </PageFrame>
  );
}
