import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: one user (route admin/users/view/{id}). */
export function AdminUserViewPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  return (
    <PageFrame
      title={id}
      breadcrumbs={[
        { text: t('admin:title'), to: '/admin' },
        { text: t('admin:users.listTitle'), to: '/admin/users/list' },
        { text: id },
      ]}
    />
  );
}
