import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: one metadata extraction job (route admin/metadata-processing/view/{projectId}/{metadataId}). */
export function AdminMetadataViewPage() {
  const { t } = useTranslation();
  const { projectId, metadataId } = useParams();
  const ref = [projectId, metadataId].join(' / ');
  return (
    <PageFrame
      title={t('admin:metadata.viewTitle', { ref })}
      breadcrumbs={[
        { text: t('admin:title'), to: '/admin' },
        { text: t('admin:metadata.listTitle'), to: '/admin/metadata-processing/list' },
        { text: ref },
      ]}
    >
      <p className="nu-lead">{t('admin:metadata.viewIntro')}</p>
    </PageFrame>
  );
}
