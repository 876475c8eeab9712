import { Callout, Card, H2, Intent, NonIdealState, Pre } from '@blueprintjs/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSWRConfig } from 'swr';
import { PageSpinner } from '../../../app/root-layout.js';
import { routePath } from '../../../app/route-paths.js';
import { errorMessage } from '../../../shared/i18n/error-message.js';
import { DataTable } from '../../../shared/ui/data-table/data-table.js';
import type { pageRequest } from '../../../shared/ui/data-table/table-state.js';
import { type Crumb, PageFrame } from '../../../shared/ui/page-frame.js';
import {
  JobDetails,
  JobProgress,
  JobStatusBadge,
  LiveTag,
  RetryButton,
  useJobColumns,
  useRefreshWhileRunning,
} from './job-parts.js';
import { type Job, type JobKind, listJobs, useJob } from './jobs.api.js';

export interface JobMonitorProps {
  kind: JobKind;
  /** Names the table in the query values. */
  tableUrlId: string;
  title: string;
  intro: string;
  /** Column ids of {@link useJobColumns}, in order. */
  columns: string[];
}

/**
 * One admin job monitor (spec §2): the jobs of a kind in the shared table,
 * sorted by id descending, 10 rows a page; status badges, progress bars, an
 * expandable row with every field, the retry of failed processings, and a
 * refresh every few seconds while a job on the page runs.
 */
export function JobMonitor({ kind, tableUrlId, title, intro, columns }: JobMonitorProps) {
  const { t } = useTranslation();
  const all = useJobColumns();
  const { mutate } = useSWRConfig();
  const list = useCallback((request: ReturnType<typeof pageRequest>) => listJobs(kind, request), [kind]);
  const { fetchPage, running } = useRefreshWhileRunning(tableUrlId, list);
  const refresh = () => mutate((key) => Array.isArray(key) && key[0] === 'table' && key[1] === tableUrlId);
  const cols = columns.map((id) => all[id]!);
  if (kind === 'PROCESSING') {
    cols.push({
      id: 'actions',
      header: t('admin:jobs.fields.actions'),
      width: 110,
      text: () => '',
      render: (j) => <RetryButton job={j} small onRetried={() => void refresh()} />,
    });
  }
  return (
    <PageFrame
      title={title}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: title }]}
      actions={<LiveTag running={running} />}
    >
      <p className="nu-lead">{intro}</p>
      <DataTable<Job>
        tableUrlId={tableUrlId}
        label={title}
        columns={cols}
        fetchPage={fetchPage}
        rowKey={(j) => j.id}
        defaultRowsPerPage="10"
        defaultSortBy="id"
        defaultDescending
        searchPlaceholder={t('admin:table.searchJobs')}
        renderExpanded={(j) => <JobDetails job={j} />}
      />
    </PageFrame>
  );
}

export interface JobViewProps {
  kind: JobKind;
  jobId: string;
  projectId?: string;
  /** The monitor's title and path, for the breadcrumbs. */
  listTitle: string;
  listPath: string;
  /** The page title, given the job's reference. */
  title: (ref: string) => string;
}

/** One job of a monitor: state, live progress, every field, options and result, retry when it failed. */
export function JobView({ kind, jobId, projectId, listTitle, listPath, title }: JobViewProps) {
  const { t } = useTranslation();
  const { data: job, error, mutate } = useJob(kind, jobId, projectId);
  const { mutate: mutateAll } = useSWRConfig();
  const ref = [projectId, jobId].filter(Boolean).join(' / ');
  const crumbs: Crumb[] = [{ text: t('admin:title'), to: '/admin' }, { text: listTitle, to: listPath }, { text: ref }];
  if (error && !job) {
    return (
      <PageFrame title={title(ref)} breadcrumbs={crumbs}>
        <NonIdealState icon="error" title={errorMessage(t, error)} />
      </PageFrame>
    );
  }
  if (!job) return <PageSpinner />;
  const retried = (updated: Job) => {
    void mutate(updated, { revalidate: true });
    void mutateAll((key) => Array.isArray(key) && key[0] === 'table');
  };
  return (
    <PageFrame
      title={title(ref)}
      breadcrumbs={crumbs}
      actions={
        <span className="nu-tags">
          <JobStatusBadge status={job.status} />
          <RetryButton job={job} onRetried={retried} />
        </span>
      }
    >
      <div className="nu-settings">
        <Card className="nu-settings__card">
          <H2>{t('admin:jobs.view.progressTitle')}</H2>
          <div className="nu-job-view__progress">
            <JobProgress job={job} showStep />
          </div>
          {job.status === 'FAILURE' && (
            <Callout intent={Intent.DANGER} icon="error" className="nu-callout" title={t('admin:jobs.view.failed')}>
              {[job.errorCode, job.errorMessage].filter(Boolean).join(': ') || t('admin:jobs.view.noMessage')}
            </Callout>
          )}
          <p>
            <Link to={routePath('admin_projects_view', { id: job.projectId })}>
              {t('admin:jobs.view.openProject', { name: job.projectName })}
            </Link>
          </p>
        </Card>
        <Card className="nu-settings__card">
          <H2>{t('admin:jobs.view.detailsTitle')}</H2>
          <JobDetails job={job} showError={job.status !== 'FAILURE'} />
        </Card>
        {job.options !== null && job.options !== undefined && (
          <Card className="nu-settings__card">
            <H2>{t('admin:jobs.view.optionsTitle')}</H2>
            <Pre className="nu-job-view__options">{JSON.stringify(job.options, null, 2)}</Pre>
          </Card>
        )}
        {job.result !== null && job.result !== undefined && (
          <Card className="nu-settings__card">
            <H2>{t('admin:jobs.view.resultTitle')}</H2>
            <Pre className="nu-job-view__options">{JSON.stringify(job.result, null, 2)}</Pre>
          </Card>
        )}
      </div>
    </PageFrame>
  );
}
