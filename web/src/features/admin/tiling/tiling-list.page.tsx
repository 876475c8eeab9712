import { useTranslation } from 'react-i18next';
import { JobMonitor } from '../process-data/job-monitor.js';

export const TILING_TABLE_ID = 'admin-tiling';

/** Admin: tiling jobs (route admin/tiling/list). */
export function AdminTilingListPage() {
  const { t } = useTranslation();
  return (
    <JobMonitor
      kind="TILING"
      tableUrlId={TILING_TABLE_ID}
      title={t('admin:tiling.listTitle')}
      intro={t('admin:tiling.intro')}
      columns={['id', 'state', 'percentage', 'timestamp', 'project', 'lasName', 'user', 'area', 'epsg']}
    />
  );
}
