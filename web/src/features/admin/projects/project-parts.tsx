import { Intent, Tag } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/format-date.js';
import { formatBytes, formatNumber } from '../process-data/job-format.js';
import type { AdminProject, AssetStatus, ProjectStatus } from './admin-projects.api.js';

const PROJECT_INTENTS: Record<ProjectStatus, Intent> = {
  NONE: Intent.NONE,
  PENDING: Intent.PRIMARY,
  UPLOADING: Intent.PRIMARY,
  UPLOADED: Intent.PRIMARY,
  PROCESSING: Intent.WARNING,
  READY: Intent.SUCCESS,
  ERROR: Intent.DANGER,
};

const ASSET_INTENTS: Record<AssetStatus, Intent> = {
  NONE: Intent.NONE,
  UPLOADING: Intent.PRIMARY,
  UPLOADED: Intent.PRIMARY,
  PROCESSING: Intent.WARNING,
  EXTRACTING_METADATA: Intent.WARNING,
  TILING: Intent.WARNING,
  ABORTED: Intent.DANGER,
  READY: Intent.SUCCESS,
  ERROR: Intent.DANGER,
};

/** A project status as a coloured badge (spec §4). */
export function ProjectStatusBadge({ status }: { status: ProjectStatus }) {
  const { t } = useTranslation();
  return (
    <Tag round intent={PROJECT_INTENTS[status] ?? Intent.NONE} minimal={status !== 'READY'} data-status={status}>
      {t(`admin:projects.status.${status}`, { defaultValue: status })}
    </Tag>
  );
}

/** An asset status as a coloured badge (spec §4). */
export function AssetStatusBadge({ status }: { status: AssetStatus }) {
  const { t } = useTranslation();
  return (
    <Tag round intent={ASSET_INTENTS[status] ?? Intent.NONE} minimal={status !== 'READY'} data-status={status}>
      {t(`admin:projects.assetStatus.${status}`, { defaultValue: status })}
    </Tag>
  );
}

/** A project's metadata (spec §3) as a definition list: expanded row and project view. */
export function ProjectDetails({ project: p }: { project: AdminProject }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const f = (k: string) => t(`admin:projects.fields.${k}`);
  const items: Array<[string, ReactNode]> = [
    [f('owner'), p.creatorEmail],
    [f('status'), <ProjectStatusBadge key="s" status={p.status} />],
    [f('lasName'), p.lasName ?? ''],
    [f('lasVersion'), p.lasVersion ?? ''],
    [f('points'), formatNumber(p.lidarPointCount, lang, 0)],
    [f('area'), p.area === null ? '' : `${formatNumber(p.area, lang)} ha`],
    [f('lasSize'), p.pointCloudMemory === null ? '' : formatBytes(p.pointCloudMemory * 1e9, lang)],
    [f('epsg'), p.epsgCode === null ? '' : `EPSG:${p.epsgCode}`],
    [
      f('elevation'),
      p.minElevation === null || p.maxElevation === null
        ? ''
        : `${formatNumber(p.minElevation, lang)} – ${formatNumber(p.maxElevation, lang)} m`,
    ],
    [f('systemId'), p.systemId ?? ''],
    [f('software'), p.generatingSoftware ?? ''],
    [
      f('fileCreation'),
      p.creationYear
        ? `${p.creationYear}${p.creationDay ? ` (${t('admin:projects.day', { day: p.creationDay })})` : ''}`
        : '',
    ],
    [f('created'), formatDateTime(p.creationDate)],
    [f('updated'), formatDateTime(p.updatedAt)],
  ];
  if (p.errorCode || p.errorMessage) items.push([f('error'), [p.errorCode, p.errorMessage].filter(Boolean).join(': ')]);
  return (
    <dl className="nu-details">
      {items.map(([k, v]) => (
        <div key={k} className="nu-details__item">
          <dt>{k}</dt>
          <dd>{v === '' || v === null ? '—' : v}</dd>
        </div>
      ))}
    </dl>
  );
}
