import { Intent, ProgressBar, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { currentJob, isInProgress, type Project, type ProjectStatus } from './projects.types.js';
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

/** The step and percentage of the job a project is waiting on, as words. */
export function useJobLabel(project: Project): { label: string; value: number | undefined } | null {
  const { t } = useTranslation();
  const job = currentJob(project);
  if (!job || !isInProgress(project)) return null;
  const step = job.step
    ? t(`projects:steps.${job.step}`, { defaultValue: job.step })
    : t(`projects:jobStates.${job.state}`, { defaultValue: job.state });
  const kind = t(`projects:jobs.${job.name}`);
  const value = job.state === 'PROGRESS' ? Math.max(0, Math.min(100, job.percentage)) / 100 : undefined;
  const pct = value !== undefined ? ` · ${Math.round(job.percentage)} %` : '';
  return { label: `${kind}: ${step}${pct}`, value };
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
    <div className={compact ? 'nu-progress nu-progress--compact' : 'nu-progress'} data-testid="project-progress">
      <ProgressBar intent={Intent.PRIMARY} value={job.value} animate stripes={job.value === undefined} />
      <span className="nu-progress__label">{job.label}</span>
    </div>
  );
}
