import { useTranslation } from 'react-i18next';
import { JobMonitor } from '../process-data/job-monitor.js';

export const CLASSIFICATION_EDITS_TABLE_ID = 'admin-classification-edits';

/**
 * Admin: the jobs that apply classification edits to the classified clouds
 * (issue 23; route admin/classification-edits/list), newest first.
 */
export function AdminClassificationEditsListPage() {
  const { t } = useTranslation();
  return (
    <JobMonitor
      kind="CLASSIFICATION_EDIT"
      tableUrlId={CLASSIFICATION_EDITS_TABLE_ID}
      title={t('admin:classificationEdits.listTitle')}
      intro={t('admin:classificationEdits.intro')}
      columns={['id', 'state', 'percentage', 'timestamp', 'project', 'user', 'updatedAt']}
    />
  );
}
