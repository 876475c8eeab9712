import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ROUTES } from '../../../app/route-paths.js';
import { JobView } from '../process-data/job-monitor.js';

/** Admin: one classification-edit job (route admin/classification-edits/view/{projectId}/{jobId}). */
export function AdminClassificationEditViewPage() {
  const { t } = useTranslation();
  const { projectId = '', jobId = '' } = useParams();
  return (
    <JobView
      kind="CLASSIFICATION_EDIT"
      jobId={jobId}
      projectId={projectId}
      listTitle={t('admin:classificationEdits.listTitle')}
      listPath={ROUTES.admin_classification_edits_list}
      title={(ref) => t('admin:classificationEdits.viewTitle', { ref })}
    />
  );
}
