import { Alert, AnchorButton, Button, ButtonGroup, Intent, NonIdealState, Tooltip } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { ROUTES, routePath } from '../../app/route-paths.js';
import { formatDateTime } from '../../shared/format/format-date.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { type DataColumn, DataTable, tableKeyMatcher } from '../../shared/ui/data-table/data-table.js';
import { PageFrame } from '../../shared/ui/page-frame.js';
import { showToast } from '../../shared/ui/toaster.js';
import { ProjectMetadata } from './project-metadata.js';
import { ProjectProgress, StatusBadge } from './project-status.js';
import { deleteProject, listProjects } from './projects.api.js';
import { isInProgress, type Project } from './projects.types.js';
import './projects.css';

/** Names the projects table in the query values (spec §2 tableUrlId). */
export const MY_PROJECTS_TABLE_ID = 'projects';
/** Refresh period while a project is still being uploaded, tiled or processed (ms). */
const PROGRESS_REFRESH_MS = 2000;

/**
 * My projects (route user, where `/` leads): the user's projects in the
 * reusable table of spec §2 — sort by any column, search, 10/50/100/all rows,
 * line/columns/table views, a row expanding into the project's metadata —
 * with live progress and the queue's real state (the table refreshes every
 * 2 s while a project on the page is in progress), open, and delete with
 * confirmation.
 */
export function MyProjectsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  /** The projects the confirmation is about (one from its row, or the selected ones); empty: closed. */
  const [toDelete, setToDelete] = useState<Project[]>([]);
  const [afterDelete, setAfterDelete] = useState<(() => void) | null>(null);
  const [deleting, setDeleting] = useState(false);
  const f = (k: string) => t(`projects:fields.${k}`);
  const refresh = () => mutate(tableKeyMatcher(MY_PROJECTS_TABLE_ID));

  async function confirmDelete() {
    if (toDelete.length === 0) return;
    setDeleting(true);
    const done: Project[] = [];
    try {
      for (const p of toDelete) {
        await deleteProject(p.id);
        done.push(p);
      }
      void showToast({
        intent: Intent.SUCCESS,
        icon: 'trash',
        message:
          done.length === 1
            ? t('projects:list.deleted', { name: done[0]!.name })
            : t('projects:table.deletedMany', { count: done.length }),
      });
      setToDelete([]);
      afterDelete?.();
    } catch (err) {
      void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
    } finally {
      setDeleting(false);
      if (done.length > 0) await refresh();
    }
  }

  const open = (p: Project) => navigate(routePath('user_project_view', { id: p.id }));
  const columns: DataColumn<Project>[] = [
    {
      id: 'name',
      header: f('name'),
      sortable: true,
      truncate: true,
      maxWidth: 360,
      width: 240,
      text: (p) => p.name,
      render: (p) => (
        <a
          href={`#${routePath('user_project_view', { id: p.id })}`}
          className="nu-projects-table__name"
          data-testid="project-name"
        >
          {p.name}
        </a>
      ),
    },
    {
      id: 'lasName',
      header: f('lasName'),
      sortable: true,
      truncate: true,
      maxWidth: 220,
      width: 180,
      text: (p) => p.lasName ?? '',
      render: (p) => <span className="nu-muted">{p.lasName ?? '—'}</span>,
    },
    {
      id: 'lidarPointCount',
      header: f('points'),
      sortable: true,
      numeric: true,
      width: 110,
      text: (p) => p.lidarPointCount?.toLocaleString(lang) ?? '',
      render: (p) => p.lidarPointCount?.toLocaleString(lang) ?? '—',
    },
    {
      id: 'area',
      header: f('area'),
      sortable: true,
      numeric: true,
      width: 100,
      text: (p) => (p.area === null ? '' : `${p.area.toLocaleString(lang, { maximumFractionDigits: 2 })} ha`),
      render: (p) => (p.area === null ? '—' : `${p.area.toLocaleString(lang, { maximumFractionDigits: 2 })} ha`),
    },
    {
      id: 'status',
      header: f('status'),
      sortable: true,
      width: 140,
      text: (p) => t(`projects:status.${p.status}`, { defaultValue: p.status }),
      render: (p) => (
        <div className="nu-projects-table__status">
          <StatusBadge status={p.status} />
          <ProjectProgress project={p} compact />
        </div>
      ),
    },
    {
      id: 'creationDate',
      header: f('created'),
      sortable: true,
      width: 140,
      text: (p) => formatDateTime(p.creationDate),
      render: (p) => <span className="nu-nowrap">{formatDateTime(p.creationDate)}</span>,
    },
    {
      id: 'actions',
      header: t('projects:list.actions'),
      width: 90,
      text: () => '',
      render: (p) => (
        <ButtonGroup variant="minimal" className="nu-projects-table__actions">
          <Tooltip content={t('projects:list.open')}>
            <Button icon="eye-open" onClick={() => open(p)} aria-label={t('projects:table.open', { name: p.name })} />
          </Tooltip>
          <Tooltip content={t('projects:list.delete')}>
            <Button
              icon="trash"
              intent={Intent.DANGER}
              onClick={() => {
                setAfterDelete(null);
                setToDelete([p]);
              }}
              aria-label={t('projects:table.delete', { name: p.name })}
            />
          </Tooltip>
        </ButtonGroup>
      ),
    },
  ];

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
      <DataTable<Project>
        tableUrlId={MY_PROJECTS_TABLE_ID}
        label={t('projects:list.title')}
        columns={columns}
        fetchPage={listProjects}
        rowKey={(p) => p.id}
        defaultRowsPerPage="10"
        defaultSortBy="id"
        defaultDescending
        searchPlaceholder={t('projects:table.search')}
        renderExpanded={(p) => <ProjectMetadata project={p} />}
        refreshInterval={(page) => (page?.results.some(isInProgress) ? PROGRESS_REFRESH_MS : 0)}
        rowAttributes={(p) => ({ 'data-testid': 'project-row', 'data-project-id': p.id })}
        onRowDoubleClick={open}
        selectionActions={(selected, clear) => (
          <Button
            icon="trash"
            intent={Intent.DANGER}
            variant="outlined"
            text={t('projects:table.deleteSelected', { count: selected.length })}
            onClick={() => {
              setAfterDelete(() => clear);
              setToDelete(selected);
            }}
          />
        )}
        empty={
          <NonIdealState
            icon="cloud-upload"
            title={t('projects:list.emptyTitle')}
            description={t('projects:list.emptyText')}
            action={newButton}
          />
        }
      />
      <Alert
        isOpen={toDelete.length > 0}
        intent={Intent.DANGER}
        icon="trash"
        loading={deleting}
        cancelButtonText={t('projects:list.cancel')}
        confirmButtonText={t('projects:list.delete')}
        onCancel={() => setToDelete([])}
        onConfirm={() => void confirmDelete()}
      >
        <p className="nu-projects-confirm">
          {toDelete.length === 1
            ? t('projects:list.confirmDelete', { name: toDelete[0]!.name })
            : t('projects:table.confirmDeleteMany', { count: toDelete.length })}
        </p>
      </Alert>
    </PageFrame>
  );
}
