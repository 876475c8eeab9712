import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageFrame } from '../../../shared/ui/page-frame.js';

/** Admin: one tiling job (route admin/tiling/view/{projectId}/{tilingId}). */
export function AdminTilingViewPage() {
  const { t } = useTranslation();
  const { projectId, tilingId } = useParams();
  const ref = [projectId, tilingId].join(' / ');
  return (
    <PageFrame
      title={t('admin:tiling.viewTitle', { ref })}
      breadcrumbs={[
        { text: t('admin:title'), to: '/admin' },
        { text: t('admin:tiling.listTitle'), to: '/admin/tiling/list' },
        { text: ref },
      ]}
    >
      <p className="nu-lead">{t('admin:tiling.viewIntro')}</p>
    </PageFrame>
  );
}
