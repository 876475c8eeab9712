import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: the users (route admin/users/list). */
export function AdminUsersListPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('admin:users.listTitle')}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: t('admin:users.listTitle') }]}
    />
  );
}
