import { Button, Intent, ProgressBar, Tag } from '@blueprintjs/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSWRConfig } from 'swr';
import { routePath } from '../../../app/route-paths.js';
import { isApiError } from '../../../shared/api/api-error.js';
import type { Page } from '../../../shared/api/types.js';
import { formatDateTime } from '../../../shared/format/format-date.js';
import { errorMessage } from '../../../shared/i18n/error-message.js';
import type { DataColumn } from '../../../shared/ui/data-table/data-table.js';
import type { pageRequest } from '../../../shared/ui/data-table/table-state.js';
import { showToast } from '../../../shared/ui/toaster.js';
import { formatBytes, formatNumber, retryOutcome } from './job-format.js';
import { isJobRunning, JOB_REFRESH_MS, type Job, type JobState, retryProcessing } from './jobs.api.js';
import './admin-jobs.css';

/** Badge colours of the job states (spec §4). */
export const JOB_STATE_INTENTS: Record<JobState, Intent> = {
  NONE: Intent.NONE,
  PENDING: Intent.PRIMARY,
  PROGRESS: Intent.WARNING,
  SUCCESS: Intent.SUCCESS,
  FAILURE: Intent.DANGER,
};

/** A job state as a coloured badge. */
export function JobStatusBadge({ status }: { status: JobState }) {
  const { t } = useTranslation();
  return (
    <Tag round intent={JOB_STATE_INTENTS[status] ?? Intent.NONE} minimal={status !== 'SUCCESS'} data-status={status}>
      {t(`admin:jobs.states.${status}`, { defaultValue: status })}
    </Tag>
  );
}

/** The step of a job in words (the steps of spec §4 are translated in the projects namespace). */
export function useStepLabel(): (step: string | null) => string {
  const { t } = useTranslation();
  return (step) => (step ? t(`projects:steps.${step}`, { defaultValue: step }) : '');
}

/**
 * The percentage of a job: a progress bar while it runs (striped while
 * pending), else the number.
 */
export function JobProgress({
  job,
  showStep = false,
}: {
  job: Pick<Job, 'status' | 'percentage' | 'step'>;
  showStep?: boolean;
}) {
  const stepLabel = useStepLabel();
  const pct = Math.max(0, Math.min(100, job.percentage));
  const text = `${Math.round(pct)} %`;
  if (!isJobRunning(job)) return <span className="nu-job-progress__value">{text}</span>;
  const value = job.status === 'PROGRESS' ? pct / 100 : undefined;
  return (
    <div className="nu-job-progress" data-testid="job-progress">
      <ProgressBar
        intent={Intent.PRIMARY}
        value={value}
        animate
        stripes={value === undefined || value < 1}
        aria-label={text}
      />
      <span className="nu-job-progress__value">
        {text}
        {showStep && job.step ? ` · ${stepLabel(job.step)}` : ''}
      </span>
    </div>
  );
}

/** Where a job's row links to: its view in its monitor. */
export function jobViewPath(job: Job): string {
  if (job.kind === 'PROCESSING') return routePath('admin_process_data_view', { id: job.id });
  if (job.kind === 'TILING') return routePath('admin_tiling_view', { projectId: job.projectId, tilingId: job.id });
  if (job.kind === 'CLASSIFICATION_EDIT')
    return routePath('admin_classification_edits_view', { projectId: job.projectId, jobId: job.id });
  return routePath('admin_metadata_view', { projectId: job.projectId, metadataId: job.id });
}

/** The columns a job monitor can show, by id; each monitor picks its own list (spec §3). */
export function useJobColumns(): Record<string, DataColumn<Job>> {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const yesNo = (b: boolean | null) => (b === null ? '' : b ? t('common:yes') : t('common:no'));
  const cm = (n: number | null) => (n === null ? '' : `${formatNumber(n, lang)} cm`);
  const cols: Array<DataColumn<Job>> = [
    {
      id: 'id',
      header: t('admin:jobs.fields.id'),
      sortable: true,
      width: 80,
      text: (j) => j.id,
      render: (j) => <Link to={jobViewPath(j)}>{j.id}</Link>,
    },
    {
      id: 'taskId',
      header: t('admin:jobs.fields.taskId'),
      width: 110,
      text: (j) => j.taskId,
      render: (j) => <Link to={jobViewPath(j)}>{j.taskId}</Link>,
    },
    {
      id: 'state',
      header: t('admin:jobs.fields.status'),
      sortable: true,
      width: 110,
      text: (j) => t(`admin:jobs.states.${j.status}`, { defaultValue: j.status }),
      render: (j) => <JobStatusBadge status={j.status} />,
    },
    {
      id: 'percentage',
      header: t('admin:jobs.fields.percentage'),
      sortable: true,
      width: 130,
      text: (j) => `${Math.round(j.percentage)} %`,
      render: (j) => <JobProgress job={j} />,
    },
    {
      id: 'project',
      header: t('admin:jobs.fields.project'),
      sortable: true,
      truncate: true,
      maxWidth: 240,
      width: 160,
      text: (j) => j.projectName,
      render: (j) => <Link to={routePath('admin_projects_view', { id: j.projectId })}>{j.projectName}</Link>,
    },
    {
      id: 'lasName',
      header: t('admin:jobs.fields.lasName'),
      sortable: true,
      truncate: true,
      maxWidth: 220,
      width: 180,
      text: (j) => j.lasName ?? '',
      render: (j) => j.lasName ?? '',
    },
    {
      id: 'fileSize',
      header: t('admin:jobs.fields.fileSize'),
      width: 100,
      text: (j) => formatBytes(j.fileSize, lang),
      render: (j) => formatBytes(j.fileSize, lang),
    },
    {
      id: 'lasSize',
      header: t('admin:jobs.fields.lasSize'),
      width: 100,
      text: (j) => (j.lasSize === null ? '' : `${formatNumber(j.lasSize, lang, 3)} GB`),
      render: (j) => (j.lasSize === null ? '' : `${formatNumber(j.lasSize, lang, 3)} GB`),
    },
    {
      id: 'user',
      header: t('admin:jobs.fields.user'),
      sortable: true,
      truncate: true,
      maxWidth: 240,
      width: 200,
      text: (j) => j.user ?? '',
      render: (j) => j.user ?? '',
    },
    {
      id: 'area',
      header: t('admin:jobs.fields.area'),
      sortable: true,
      width: 100,
      text: (j) => (j.area === null ? '' : `${formatNumber(j.area, lang)} ha`),
      render: (j) => (j.area === null ? '' : `${formatNumber(j.area, lang)} ha`),
    },
    {
      id: 'epsg',
      header: t('admin:jobs.fields.epsg'),
      width: 90,
      text: (j) => (j.epsg === null ? '' : String(j.epsg)),
      render: (j) => (j.epsg === null ? '' : `EPSG:${j.epsg}`),
    },
    {
      id: 'dtmResolution',
      header: t('admin:jobs.fields.dtmResolution'),
      width: 110,
      text: (j) => cm(j.dtmResolution),
      render: (j) => cm(j.dtmResolution),
    },
    {
      id: 'shadedDtm',
      header: t('admin:jobs.fields.shadedDtm'),
      width: 90,
      text: (j) => yesNo(j.shadedDtm),
      render: (j) => yesNo(j.shadedDtm),
    },
    {
      id: 'contours',
      header: t('admin:jobs.fields.contours'),
      width: 90,
      text: (j) => yesNo(j.contours),
      render: (j) => yesNo(j.contours),
    },
    {
      id: 'contourResolution',
      header: t('admin:jobs.fields.contourResolution'),
      width: 140,
      text: (j) => (j.contourResolution ? `${cm(j.contourResolution.minor)} / ${cm(j.contourResolution.major)}` : ''),
      render: (j) => (j.contourResolution ? `${cm(j.contourResolution.minor)} / ${cm(j.contourResolution.major)}` : ''),
    },
    {
      id: 'gridResolution',
      header: t('admin:jobs.fields.gridResolution'),
      width: 110,
      text: (j) => cm(j.gridResolution),
      render: (j) => cm(j.gridResolution),
    },
    {
      id: 'buildingSimplification',
      header: t('admin:jobs.fields.buildingSimplification'),
      width: 120,
      text: (j) => (j.buildingSimplification ? t(`admin:jobs.simplification.${j.buildingSimplification}`) : ''),
      render: (j) => (j.buildingSimplification ? t(`admin:jobs.simplification.${j.buildingSimplification}`) : ''),
    },
    {
      id: 'retryCount',
      header: t('admin:jobs.fields.retryCount'),
      width: 80,
      text: (j) => String(j.retryCount),
      render: (j) => j.retryCount,
    },
    {
      id: 'timestamp',
      header: t('admin:jobs.fields.timestamp'),
      width: 140,
      text: (j) => formatDateTime(j.timestamp),
      render: (j) => formatDateTime(j.timestamp),
    },
    {
      id: 'createdAt',
      header: t('admin:jobs.fields.createdAt'),
      sortable: true,
      width: 140,
      text: (j) => formatDateTime(j.createdAt),
      render: (j) => formatDateTime(j.createdAt),
    },
    {
      id: 'updatedAt',
      header: t('admin:jobs.fields.updatedAt'),
      sortable: true,
      width: 140,
      text: (j) => formatDateTime(j.updatedAt),
      render: (j) => formatDateTime(j.updatedAt),
    },
  ];
  return Object.fromEntries(cols.map((c) => [c.id, c]));
}

/** The fields of spec §3 each kind of job shows, in order (classification edit jobs: issue 23). */
export const JOB_FIELDS: Record<Job['kind'], string[]> = {
  PROCESSING: [
    'id',
    'state',
    'timestamp',
    'lasName',
    'fileSize',
    'lasSize',
    'user',
    'area',
    'percentage',
    'taskId',
    'dtmResolution',
    'shadedDtm',
    'contours',
    'contourResolution',
    'gridResolution',
    'buildingSimplification',
    'retryCount',
  ],
  TILING: [
    'id',
    'state',
    'timestamp',
    'lasName',
    'fileSize',
    'lasSize',
    'user',
    'area',
    'percentage',
    'taskId',
    'epsg',
    'retryCount',
  ],
  METADATA: ['taskId', 'state', 'percentage', 'lasName', 'user', 'area', 'createdAt', 'updatedAt'],
  CLASSIFICATION_EDIT: ['id', 'state', 'timestamp', 'user', 'percentage', 'taskId', 'retryCount'],
};

/** Every field of a job as a definition list (expanded row and job view). */
export function JobDetails({ job, showError = true }: { job: Job; showError?: boolean }) {
  const { t } = useTranslation();
  const cols = useJobColumns();
  const stepLabel = useStepLabel();
  const ids = ['project', ...JOB_FIELDS[job.kind]];
  const items: Array<[string, React.ReactNode]> = ids.map((id) => {
    const c = cols[id]!;
    return [c.header, c.render(job)];
  });
  if (job.step) items.push([t('admin:jobs.fields.step'), stepLabel(job.step)]);
  if (job.tiles) {
    items.push([
      t('admin:jobs.fields.tiles'),
      t('admin:jobs.tiles', {
        done: job.tiles.done,
        total: job.tiles.total,
        running: job.tiles.running,
        failed: job.tiles.failed,
      }),
    ]);
  }
  if (job.startedAt) items.push([t('admin:jobs.fields.startedAt'), formatDateTime(job.startedAt)]);
  if (job.finishedAt) items.push([t('admin:jobs.fields.finishedAt'), formatDateTime(job.finishedAt)]);
  items.push([t('admin:jobs.fields.attempts'), String(job.attempts)]);
  if (showError && (job.errorCode || job.errorMessage)) {
    items.push([t('admin:jobs.fields.error'), [job.errorCode, job.errorMessage].filter(Boolean).join(': ')]);
  }
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

/**
 * Refreshes a table while one of its rows is a running job: wraps the page
 * call to learn whether a row runs, and revalidates the table every few
 * seconds until none does.
 */
export function useRefreshWhileRunning<T extends Job>(
  tableUrlId: string,
  fetchPage: (request: ReturnType<typeof pageRequest>) => Promise<Page<T>>,
) {
  const [running, setRunning] = useState(false);
  const { mutate } = useSWRConfig();
  useEffect(() => {
    if (!running) return;
    const id = setInterval(() => {
      void mutate((key) => Array.isArray(key) && key[0] === 'table' && key[1] === tableUrlId);
    }, JOB_REFRESH_MS);
    return () => clearInterval(id);
  }, [running, tableUrlId, mutate]);
  const wrapped = useCallback(
    async (request: ReturnType<typeof pageRequest>) => {
      const page = await fetchPage(request);
      setRunning(page.results.some(isJobRunning));
      return page;
    },
    [fetchPage],
  );
  return { fetchPage: wrapped, running };
}

/** A tag telling the table refreshes itself. */
export function LiveTag({ running }: { running: boolean }) {
  const { t } = useTranslation();
  if (!running) return null;
  return (
    <Tag icon="refresh" minimal intent={Intent.PRIMARY} role="status">
      {t('admin:jobs.live')}
    </Tag>
  );
}

/**
 * The retry button of a failed processing (spec §4), with its three messages:
 * new attempt launched, failed to launch, error on retry.
 */
export function RetryButton({ job, onRetried, small }: { job: Job; onRetried?: (job: Job) => void; small?: boolean }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  if (job.kind !== 'PROCESSING' || job.status !== 'FAILURE') return null;
  // The retry's PROJECT_NOT_READY names no project status: say what it means here.
  const retryReason = (err: unknown) =>
    isApiError(err) && err.code === 'PROJECT_NOT_READY' && err.details?.status === undefined
      ? t('admin:jobs.retry.cloudNotReady')
      : errorMessage(t, err);
  const retry = async () => {
    setBusy(true);
    try {
      const updated = await retryProcessing(job.id);
      void showToast({ intent: Intent.SUCCESS, icon: 'refresh', message: t('admin:jobs.retry.launched') });
      onRetried?.(updated);
    } catch (err) {
      const outcome = retryOutcome(err);
      void showToast({
        intent: outcome === 'refused' ? Intent.WARNING : Intent.DANGER,
        icon: 'error',
        message: `${t(outcome === 'refused' ? 'admin:jobs.retry.refused' : 'admin:jobs.retry.error')}: ${retryReason(err)}`,
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      icon="refresh"
      intent={Intent.WARNING}
      size={small ? 'small' : 'medium'}
      loading={busy}
      onClick={() => void retry()}
      aria-label={t('admin:jobs.retry.labelFor', { id: job.id })}
    >
      {t('admin:jobs.retry.button')}
    </Button>
  );
}
