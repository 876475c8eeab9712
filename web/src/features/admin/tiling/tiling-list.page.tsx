import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: tiling jobs (route admin/tiling/list). */
export function AdminTilingListPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('admin:tiling.listTitle')}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: t('admin:tiling.listTitle') }]}
    >
      <p className="nu-lead">{t('admin:tiling.intro')}</p>
    </PageFrame>
  );
}
