import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ROUTES } from '../../../app/route-paths.js';
import { JobView } from '../process-data/job-monitor.js';

/** Admin: one tiling job (route admin/tiling/view/{projectId}/{tilingId}). */
export function AdminTilingViewPage() {
  const { t } = useTranslation();
  const { projectId = '', tilingId = '' } = useParams();
  return (
    <JobView
      kind="TILING"
      jobId={tilingId}
      projectId={projectId}
      listTitle={t('admin:tiling.listTitle')}
      listPath={ROUTES.admin_tiling_list}
      title={(ref) => t('admin:tiling.viewTitle', { ref })}
    />
  );
}
