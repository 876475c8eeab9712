import { Button, Callout, Card, H2, HTMLTable, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageSpinner } from '../../../app/root-layout.js';
import { ROUTES, routePath } from '../../../app/route-paths.js';
import { formatDateTime } from '../../../shared/format/format-date.js';
import { errorMessage } from '../../../shared/i18n/error-message.js';
import { ErrorCallout } from '../../../shared/ui/error-callout.js';
import { PageFrame } from '../../../shared/ui/page-frame.js';
import { formatBytes } from '../process-data/job-format.js';
import { JobProgress, JobStatusBadge, LiveTag } from '../process-data/job-parts.js';
import type { Job } from '../process-data/jobs.api.js';
import {
  type AdminProject,
  type Asset,
  isProjectBusy,
  useAdminProject,
  useAssetMonitor,
} from './admin-projects.api.js';
import { AssetStatusBadge, ProjectDetails, ProjectStatusBadge } from './project-parts.js';

type JobSummary = NonNullable<NonNullable<AdminProject['jobs']>['metadata']>;
const JOB_KINDS = [
  { key: 'metadata', kind: 'METADATA' },
  { key: 'tiling', kind: 'TILING' },
  { key: 'processing', kind: 'PROCESSING' },
] as const;

function jobLink(projectId: string, kind: Job['kind'], id: string): string {
  if (kind === 'PROCESSING') return routePath('admin_process_data_view', { id });
  if (kind === 'TILING') return routePath('admin_tiling_view', { projectId, tilingId: id });
  return routePath('admin_metadata_view', { projectId, metadataId: id });
}

/** The latest job of each kind, with its state, progress and a link to its monitor view. */
function ProjectJobs({ project }: { project: AdminProject }) {
  const { t } = useTranslation();
  const rows = JOB_KINDS.flatMap(({ key, kind }) => {
    const j: JobSummary | undefined = project.jobs?.[key];
    return j ? [{ kind, key, j }] : [];
  });
  if (rows.length === 0) return <p className="nu-muted">{t('admin:projects.noJobs')}</p>;
  return (
    <div className="nu-admin-scroll">
      <HTMLTable compact className="nu-admin-assets">
        <caption className="nu-visually-hidden">{t('admin:projects.jobsTitle')}</caption>
        <thead>
          <tr>
            <th>{t('admin:projects.jobKind')}</th>
            <th>{t('admin:jobs.fields.id')}</th>
            <th>{t('admin:jobs.fields.status')}</th>
            <th>{t('admin:jobs.fields.percentage')}</th>
            <th>{t('admin:jobs.fields.updatedAt')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ kind, key, j }) => (
            <tr key={key}>
              <td>{t(`admin:projects.jobKinds.${key}`)}</td>
              <td>
                <Link to={jobLink(project.id, kind, j.id)}>{j.id}</Link>
              </td>
              <td>
                <JobStatusBadge status={j.state} />
              </td>
              <td>
                <JobProgress job={{ status: j.state, percentage: j.percentage, step: j.step }} showStep />
              </td>
              <td>{formatDateTime(j.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

/** A metadata key of the asset monitor in words: `pointDensity` → `point density`. */
function metadataLabel(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The asset monitor (GET /assets?id=): metadata and files of one asset. */
function AssetMonitorDetails({ asset }: { asset: Asset }) {
  const { t, i18n } = useTranslation();
  const { data, error } = useAssetMonitor(asset.id, true);
  if (error) return <ErrorCallout error={error} />;
  if (!data) return <Spinner size={20} aria-label={t('common:loading')} />;
  const metadata = Object.entries(data.metadata ?? {}).filter(([, v]) => v !== null && typeof v !== 'object');
  return (
    <div className="nu-stack">
      {data.errorMessage && (
        <Callout intent={Intent.DANGER} icon="error">
          {[data.errorCode, data.errorMessage].filter(Boolean).join(': ')}
        </Callout>
      )}
      <dl className="nu-details">
        {metadata.map(([k, v]) => (
          <div key={k} className="nu-details__item">
            <dt>{metadataLabel(k)}</dt>
            <dd>{String(v)}</dd>
          </div>
        ))}
        <div className="nu-details__item">
          <dt>{t('admin:projects.assets.normalisation')}</dt>
          <dd>{data.intensityNormalisation ? t('common:yes') : t('common:no')}</dd>
        </div>
        <div className="nu-details__item">
          <dt>{t('admin:projects.assets.files')}</dt>
          <dd>
            {data.files.length === 0
              ? '—'
              : data.files.map((f) => `${f.fileName} (${formatBytes(f.size, i18n.language)})`).join(', ')}
          </dd>
        </div>
      </dl>
    </div>
  );
}

/** Every layer and asset of the project with its status; a row opens the asset monitor. */
function ProjectAssets({ project }: { project: AdminProject }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<Set<string>>(new Set());
  const layers = project.layers ?? [];
  const assets = layers.flatMap((l) => l.assets.map((a) => ({ layer: l, asset: a })));
  if (assets.length === 0) return <p className="nu-muted">{t('admin:projects.noAssets')}</p>;
  const toggle = (id: string) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <div className="nu-admin-scroll">
      <HTMLTable compact striped className="nu-admin-assets" data-testid="admin-project-assets">
        <caption className="nu-visually-hidden">{t('admin:projects.assetsTitle')}</caption>
        <thead>
          <tr>
            <th>
              <span className="nu-visually-hidden">{t('common:table.details')}</span>
            </th>
            <th>{t('admin:projects.assets.layer')}</th>
            <th>{t('admin:projects.assets.name')}</th>
            <th>{t('admin:projects.assets.type')}</th>
            <th>{t('admin:projects.assets.status')}</th>
            <th>{t('admin:projects.assets.size')}</th>
            <th>{t('admin:projects.assets.updated')}</th>
          </tr>
        </thead>
        <tbody>
          {assets.map(({ layer, asset }) => {
            const isOpen = open.has(asset.id);
            const size = asset.files.reduce((s, f) => s + f.size, 0);
            return (
              <Fragment key={asset.id}>
                <tr>
                  <td>
                    <Button
                      variant="minimal"
                      size="small"
                      icon={isOpen ? 'chevron-down' : 'chevron-right'}
                      aria-expanded={isOpen}
                      aria-label={isOpen ? t('common:table.collapse') : t('common:table.expand')}
                      onClick={() => toggle(asset.id)}
                    />
                  </td>
                  <td title={t(`admin:projects.layerTypes.${layer.type}`)}>{layer.name}</td>
                  <td>{asset.name}</td>
                  <td>{t(`viewer:assetTypes.${asset.type}`, { defaultValue: asset.type })}</td>
                  <td>
                    <AssetStatusBadge status={asset.status} />
                  </td>
                  <td>{size > 0 ? formatBytes(size, i18n.language) : '—'}</td>
                  <td>{formatDateTime(asset.updatedAt)}</td>
                </tr>
                {isOpen && (
                  <tr className="nu-table__expanded">
                    <td colSpan={7}>
                      <AssetMonitorDetails asset={asset} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </HTMLTable>
    </div>
  );
}

/** Admin: one project (route admin/projects/view/{id}): owner, status, metadata, jobs, layers and assets. */
export function AdminProjectViewPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data: project, error } = useAdminProject(id);
  const crumbs = [
    { text: t('admin:title'), to: ROUTES.admin },
    { text: t('admin:projects.listTitle'), to: ROUTES.admin_projects_list },
  ];
  if (error && !project) {
    return (
      <PageFrame title={t('admin:projects.viewTitle', { ref: id })} breadcrumbs={[...crumbs, { text: id }]}>
        <NonIdealState icon="error" title={errorMessage(t, error)} />
      </PageFrame>
    );
  }
  if (!project) return <PageSpinner />;
  return (
    <PageFrame
      title={project.name}
      breadcrumbs={[...crumbs, { text: project.name }]}
      actions={
        <span className="nu-tags">
          <LiveTag running={isProjectBusy(project)} />
          <ProjectStatusBadge status={project.status} />
        </span>
      }
    >
      <div className="nu-stack">
        <div className="nu-settings">
          <Card className="nu-settings__card">
            <H2>{t('admin:projects.detailsTitle')}</H2>
            <ProjectDetails project={project} />
          </Card>
          <Card className="nu-settings__card">
            <H2>{t('admin:projects.jobsTitle')}</H2>
            <ProjectJobs project={project} />
          </Card>
        </div>
        <Card className="nu-settings__card">
          <H2>{t('admin:projects.assetsTitle')}</H2>
          <ProjectAssets project={project} />
        </Card>
      </div>
    </PageFrame>
  );
}
