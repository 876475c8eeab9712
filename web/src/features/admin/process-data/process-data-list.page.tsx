import { useTranslation } from 'react-i18next';
import { JobMonitor } from './job-monitor.js';

export const PROCESS_DATA_TABLE_ID = 'admin-process-data';

/** Admin: processing jobs (route admin/process-data/list), with the retry of failed ones. */
export function AdminProcessDataListPage() {
  const { t } = useTranslation();
  return (
    <JobMonitor
      kind="PROCESSING"
      tableUrlId={PROCESS_DATA_TABLE_ID}
      title={t('admin:processData.listTitle')}
      intro={t('admin:processData.intro')}
      columns={['id', 'state', 'percentage', 'timestamp', 'project', 'lasName', 'user', 'area', 'retryCount']}
    />
  );
}
