import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ROUTES } from '../../../app/route-paths.js';
import { JobView } from '../process-data/job-monitor.js';

/** Admin: one metadata extraction job (route admin/metadata-processing/view/{projectId}/{metadataId}). */
export function AdminMetadataViewPage() {
  const { t } = useTranslation();
  const { projectId = '', metadataId = '' } = useParams();
  return (
    <JobView
      kind="METADATA"
      jobId={metadataId}
      projectId={projectId}
      listTitle={t('admin:metadata.listTitle')}
      listPath={ROUTES.admin_metadata_list}
      title={(ref) => t('admin:metadata.viewTitle', { ref })}
    />
  );
}
