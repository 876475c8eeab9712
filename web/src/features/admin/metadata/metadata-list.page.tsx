import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: metadata extraction jobs (route admin/metadata-processing/list). */
export function AdminMetadataListPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('admin:metadata.listTitle')}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: t('admin:metadata.listTitle') }]}
    >
      <p className="nu-lead">{t('admin:metadata.intro')}</p>
    </PageFrame>
  );
}
