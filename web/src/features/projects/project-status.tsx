import { Intent, ProgressBar, Tag } from '@blueprintjs/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useProcessingProducts } from './projects.api.js';
import { currentJob, isInProgress, type JobSummary, type Project, type ProjectStatus } from './projects.types.js';
import { SubscribePrompt } from './subscribe-prompt.js';

const STATUS_INTENTS: Record<ProjectStatus, Intent> = {
  NONE: Intent.NONE,
  PENDING: Intent.NONE,
  UPLOADING: Intent.PRIMARY,
  UPLOADED: Intent.PRIMARY,
  PROCESSING: Intent.WARNING,
  READY: Intent.SUCCESS,
  ERROR: Intent.DANGER,
};

/** A project status as a coloured badge (spec §4 statuses). */
export function StatusBadge({ status }: { status: ProjectStatus }) {
  const { t } = useTranslation();
  return (
    <Tag round intent={STATUS_INTENTS[status] ?? Intent.NONE} minimal={status !== 'READY'} data-status={status}>
      {t(`projects:status.${status}`, { defaultValue: status })}
    </Tag>
  );
}

/** Hours and minutes of an ISO time in the page's language. */
function clock(iso: string, lang: string): string {
  return new Date(iso).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' });
}

/**
 * What a waiting job waits for, from the queue's real state (the API's
 * `queue`): the point cloud it needs, no worker alive, a retry's back-off, or
 * its place in the queue and the jobs running — never a fixed delay.
 */
export function queueMessage(t: TFunction, lang: string, job: JobSummary, now = Date.now()): string {
  const q = job.queue;
  if (!q) return t('projects:jobStates.PENDING');
  if (q.waitingForPointCloud) return t('projects:queue.waitingForPointCloud');
  const parts: string[] = [];
  if (q.position === null) parts.push(t('projects:jobStates.PENDING'));
  else if (q.position === 1) parts.push(t('projects:queue.next'));
  else parts.push(t('projects:queue.ahead', { count: q.position - 1 }));
  if (q.runAt && Date.parse(q.runAt) > now + 1000) {
    parts.push(
      t('projects:queue.retryAt', {
        time: clock(q.runAt, lang),
        attempt: (q.attempts ?? 0) + 1,
        max: q.maxAttempts ?? 1,
      }),
    );
  }
  if (q.workers === 0) parts.push(t('projects:queue.noWorker'));
  else if (q.running > 0) parts.push(t('projects:queue.running', { count: q.running }));
  return parts.join(' · ');
}

/**
 * The step a job is at, as words: a product of a processing job by the name of its layer, its own steps
 * (`contours:storing`: its files stored, its features written) by that name too; other steps translated.
 */
export function stepLabel(
  t: TFunction,
  job: Pick<JobSummary, 'step' | 'state'>,
  products: ReadonlyArray<{ id: string; assetType: string; title: string }> | undefined,
): string {
  const productId = job.step?.split(':')[0];
  const product = productId ? products?.find((p) => p.id === productId) : undefined;
  if (product) return t(`viewer:assetTypes.${product.assetType}`, { defaultValue: product.title });
  return job.step
    ? t(`projects:steps.${job.step}`, { defaultValue: job.step })
    : t(`projects:jobStates.${job.state}`, { defaultValue: job.state });
}

/**
 * The step and percentage of the job a project is waiting on, as words. A processing job's steps are the
 * products it makes, named as the viewer names their layers ("Power lines", not `power-lines`).
 */
export function useJobLabel(
  project: Project,
): { label: string; value: number | undefined; state: JobSummary['state'] } | null {
  const { t, i18n } = useTranslation();
  const { data: products } = useProcessingProducts();
  const job = currentJob(project);
  if (!job || !isInProgress(project)) return null;
  const kind = t(`projects:jobs.${job.name}`);
  if (job.state === 'PENDING') {
    return {
      label: t('projects:queue.label', { kind, detail: queueMessage(t, i18n.language, job) }),
      value: undefined,
      state: job.state,
    };
  }
  const step = stepLabel(t, job, products);
  const value = job.state === 'PROGRESS' ? Math.max(0, Math.min(100, job.percentage)) / 100 : undefined;
  const pct = value !== undefined ? ` · ${Math.round(job.percentage)} %` : '';
  const since =
    job.state === 'PROGRESS' && job.queue?.startedAt
      ? ` · ${t('projects:queue.since', { time: clock(job.queue.startedAt, i18n.language) })}`
      : '';
  const detail = `${step}${pct}${since}`;
  return {
    label: t('projects:queue.label', { kind, detail }),
    value,
    state: job.state,
  };
}

/**
 * Live progress of a project still being uploaded, tiled or processed: the
 * job's step and a progress bar (indeterminate while pending); once settled,
 * the failure of its latest job, translated from its code (spec §8 Processing).
 */
export function ProjectProgress({ project, compact }: { project: Project; compact?: boolean }) {
  const { t } = useTranslation();
  const job = useJobLabel(project);
  if (!job) {
    const last = currentJob(project);
    if (last?.state !== 'FAILURE') return null;
    // A job failure has no details to fill the API error's message with: its own text first.
    const reason = last.errorCode
      ? t(`projects:jobFailures.${last.errorCode}`, {
          defaultValue: t(`errors:${last.errorCode}`, { defaultValue: last.errorMessage ?? '' }),
        })
      : (last.errorMessage ?? '');
    return (
      <div className="nu-progress nu-progress--failed" role="status" data-testid="project-failure">
        <span className="nu-progress__label">
          {t('projects:jobFailed', { job: t(`projects:jobs.${last.name}`) })}
          {` ${reason || t('projects:contactSupport')}`}
        </span>
        <SubscribePrompt code={last.errorCode} />
      </div>
    );
  }
  return (
    <div
      className={compact ? 'nu-progress nu-progress--compact' : 'nu-progress'}
      data-testid="project-progress"
      data-job-state={job.state}
    >
      <ProgressBar intent={Intent.PRIMARY} value={job.value} animate stripes={job.value === undefined} />
      <span className="nu-progress__label">{job.label}</span>
    </div>
  );
}
