import { useTranslation } from 'react-i18next';
import { JobMonitor } from '../process-data/job-monitor.js';

export const METADATA_TABLE_ID = 'admin-metadata';

/** Admin: metadata extraction jobs (route admin/metadata-processing/list). */
export function AdminMetadataListPage() {
  const { t } = useTranslation();
  return (
    <JobMonitor
      kind="METADATA"
      tableUrlId={METADATA_TABLE_ID}
      title={t('admin:metadata.listTitle')}
      intro={t('admin:metadata.intro')}
      columns={['taskId', 'state', 'percentage', 'project', 'lasName', 'user', 'area', 'createdAt', 'updatedAt']}
    />
  );
}
