import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ROUTES } from '../../../app/route-paths.js';
import { JobView } from './job-monitor.js';

/** Admin: one processing job (route admin/process-data/view/{id}). */
export function AdminProcessDataViewPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  return (
    <JobView
      kind="PROCESSING"
      jobId={id}
      listTitle={t('admin:processData.listTitle')}
      listPath={ROUTES.admin_process_data_list}
      title={(ref) => t('admin:processData.viewTitle', { ref })}
    />
  );
}
