import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: tiling parameters and viewer point size (route admin/settings). */
export function AdminSettingsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('admin:settings.title')}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: t('admin:settings.title') }]}
    >
      <p className="nu-lead">{t('admin:settings.intro')}</p>
    </PageFrame>
  );
}
