import {
  Alert,
  AnchorButton,
  Button,
  ButtonGroup,
  HTMLSelect,
  HTMLTable,
  Intent,
  NonIdealState,
  Tooltip,
} from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import useSWR from 'swr';
import { PageSpinner } from '../../app/root-layout.js';
import { ROUTES, routePath } from '../../app/route-paths.js';
import { formatDateTime } from '../../shared/format/format-date.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { ErrorCallout } from '../../shared/ui/error-callout.js';
import { PageFrame } from '../../shared/ui/page-frame.js';
import { showToast } from '../../shared/ui/toaster.js';
import { useQueryValues } from '../../shared/ui/use-query-values.js';
import { ProjectProgress, StatusBadge } from './project-status.js';
import { deleteProject, listProjects } from './projects.api.js';
import { isInProgress, type Project } from './projects.types.js';
import './projects.css';

/** Page sizes of the list (spec §9). */
const PAGE_SIZES = [10, 50, 100] as const;
/** Refresh period while a project is still being uploaded, tiled or processed (ms). */
const PROGRESS_REFRESH_MS = 2000;

/**
 * My projects (route user, where `/` leads): the user's projects with their
 * status and live progress (the list refreshes every 2 s while any project is
 * in progress), open, and delete with confirmation.
 */
export function MyProjectsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useQueryValues();
  const rowsPerPage = PAGE_SIZES.includes(Number(query.rowsPerPage) as 10) ? Number(query.rowsPerPage) : 10;
  const page = Math.max(1, Number(query.page) || 1);
  const [toDelete, setToDelete] = useState<Project | null>(null);
  const [deleting, setDeleting] = useState(false);
  const { data, error, mutate, isLoading } = useSWR(
    ['projects', page, rowsPerPage],
    () => listProjects({ limit: rowsPerPage, offset: (page - 1) * rowsPerPage, sortBy: 'id', order: 'DESC' }),
    { refreshInterval: (d) => (d?.results.some(isInProgress) ? PROGRESS_REFRESH_MS : 0), keepPreviousData: true },
  );

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteProject(toDelete.id);
      void showToast({
        intent: Intent.SUCCESS,
        icon: 'trash',
        message: t('projects:list.deleted', { name: toDelete.name }),
      });
      setToDelete(null);
      await mutate();
    } catch (err) {
      void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
    } finally {
      setDeleting(false);
    }
  }

  const pages = data ? Math.max(1, Math.ceil(data.count / rowsPerPage)) : 1;
  const newButton = (
    <AnchorButton
      intent={Intent.PRIMARY}
      icon="add"
      href={`#${ROUTES.user_project_new}`}
      text={t('projects:list.new')}
      data-testid="new-project"
    />
  );

  return (
    <PageFrame title={t('projects:list.title')} breadcrumbs={[{ text: t('projects:list.title') }]} actions={newButton}>
      <ErrorCallout error={error} />
      {isLoading && !data ? (
        <PageSpinner />
      ) : data && data.count === 0 ? (
        <NonIdealState
          icon="cloud-upload"
          title={t('projects:list.emptyTitle')}
          description={t('projects:list.emptyText')}
          action={newButton}
        />
      ) : data ? (
        <>
          <HTMLTable interactive striped className="nu-projects-table" aria-label={t('projects:list.title')}>
            <thead>
              <tr>
                <th>{t('projects:fields.name')}</th>
                <th>{t('projects:fields.lasName')}</th>
                <th className="nu-num">{t('projects:fields.points')}</th>
                <th className="nu-num">{t('projects:fields.area')}</th>
                <th>{t('projects:fields.status')}</th>
                <th>{t('projects:fields.created')}</th>
                <th>
                  <span className="nu-visually-hidden">{t('projects:list.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.results.map((p) => {
                const open = () => navigate(routePath('user_project_view', { id: p.id }));
                return (
                  <tr key={p.id} data-testid="project-row" data-project-id={p.id} onDoubleClick={open}>
                    <td>
                      <a href={`#${routePath('user_project_view', { id: p.id })}`} className="nu-projects-table__name">
                        {p.name}
                      </a>
                    </td>
                    <td className="nu-muted">{p.lasName ?? '—'}</td>
                    <td className="nu-num">{p.lidarPointCount?.toLocaleString(i18n.language) ?? '—'}</td>
                    <td className="nu-num">
                      {p.area !== null
                        ? `${p.area.toLocaleString(i18n.language, { maximumFractionDigits: 2 })} ha`
                        : '—'}
                    </td>
                    <td className="nu-projects-table__status">
                      <StatusBadge status={p.status} />
                      <ProjectProgress project={p} compact />
                    </td>
                    <td className="nu-nowrap">{formatDateTime(p.creationDate)}</td>
                    <td className="nu-projects-table__actions">
                      <ButtonGroup variant="minimal">
                        <Tooltip content={t('projects:list.open')}>
                          <Button icon="eye-open" onClick={open} aria-label={`${t('projects:list.open')} ${p.name}`} />
                        </Tooltip>
                        <Tooltip content={t('projects:list.delete')}>
                          <Button
                            icon="trash"
                            intent={Intent.DANGER}
                            onClick={() => setToDelete(p)}
                            aria-label={`${t('projects:list.delete')} ${p.name}`}
                          />
                        </Tooltip>
                      </ButtonGroup>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
          <div className="nu-pager">
            <span className="nu-muted">{t('projects:list.count', { count: data.count })}</span>
            <HTMLSelect
              value={rowsPerPage}
              aria-label={t('projects:list.rowsPerPage')}
              onChange={(e) => setQuery({ rowsPerPage: e.currentTarget.value, page: 1 })}
              options={PAGE_SIZES.map((n) => ({ value: n, label: t('projects:list.perPage', { count: n }) }))}
            />
            <ButtonGroup>
              <Button
                icon="chevron-left"
                disabled={page <= 1}
                onClick={() => setQuery({ page: page - 1 })}
                aria-label={t('projects:list.previous')}
              />
              <Button disabled text={`${page} / ${pages}`} />
              <Button
                icon="chevron-right"
                disabled={page >= pages}
                onClick={() => setQuery({ page: page + 1 })}
                aria-label={t('projects:list.next')}
              />
            </ButtonGroup>
          </div>
        </>
      ) : null}
      <Alert
        isOpen={toDelete !== null}
        intent={Intent.DANGER}
        icon="trash"
        loading={deleting}
        cancelButtonText={t('projects:list.cancel')}
        confirmButtonText={t('projects:list.delete')}
        onCancel={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
      >
        <p>{t('projects:list.confirmDelete', { name: toDelete?.name ?? '' })}</p>
      </Alert>
    </PageFrame>
  );
}
