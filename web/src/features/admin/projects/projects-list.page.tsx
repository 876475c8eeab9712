import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routePath } from '../../../app/route-paths.js';
import { formatDateTime } from '../../../shared/format/format-date.js';
import { type DataColumn, DataTable } from '../../../shared/ui/data-table/data-table.js';
import { PageFrame } from '../../../shared/ui/page-frame.js';
import { formatNumber } from '../process-data/job-format.js';
import { type AdminProject, listAdminProjects } from './admin-projects.api.js';
import { ProjectDetails, ProjectStatusBadge } from './project-parts.js';

export const ADMIN_PROJECTS_TABLE_ID = 'admin-projects';

/** Admin: every project of every user (route admin/projects/list), searchable, sorted by id descending. */
export function AdminProjectsListPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const f = (k: string) => t(`admin:projects.fields.${k}`);
  const columns: DataColumn<AdminProject>[] = [
    { id: 'id', header: f('id'), sortable: true, width: 70, text: (p) => p.id, render: (p) => p.id },
    {
      id: 'name',
      header: f('name'),
      sortable: true,
      truncate: true,
      width: 200,
      text: (p) => p.name,
      render: (p) => <Link to={routePath('admin_projects_view', { id: p.id })}>{p.name}</Link>,
    },
    {
      id: 'creatorEmail',
      header: f('owner'),
      sortable: true,
      truncate: true,
      maxWidth: 240,
      width: 220,
      text: (p) => p.creatorEmail,
      render: (p) => p.creatorEmail,
    },
    {
      id: 'status',
      header: f('status'),
      sortable: true,
      width: 110,
      text: (p) => t(`admin:projects.status.${p.status}`, { defaultValue: p.status }),
      render: (p) => <ProjectStatusBadge status={p.status} />,
    },
    {
      id: 'lasName',
      header: f('lasName'),
      sortable: true,
      truncate: true,
      maxWidth: 220,
      width: 180,
      text: (p) => p.lasName ?? '',
      render: (p) => p.lasName ?? '',
    },
    {
      id: 'lidarPointCount',
      header: f('points'),
      sortable: true,
      width: 110,
      text: (p) => formatNumber(p.lidarPointCount, lang, 0),
      render: (p) => formatNumber(p.lidarPointCount, lang, 0),
    },
    {
      id: 'area',
      header: f('area'),
      sortable: true,
      width: 100,
      text: (p) => (p.area === null ? '' : `${formatNumber(p.area, lang)} ha`),
      render: (p) => (p.area === null ? '' : `${formatNumber(p.area, lang)} ha`),
    },
    {
      id: 'creationDate',
      header: f('created'),
      sortable: true,
      width: 140,
      text: (p) => formatDateTime(p.creationDate),
      render: (p) => formatDateTime(p.creationDate),
    },
  ];
  return (
    <PageFrame
      title={t('admin:projects.listTitle')}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: t('admin:projects.listTitle') }]}
    >
      <p className="nu-lead">{t('admin:projects.intro')}</p>
      <DataTable<AdminProject>
        tableUrlId={ADMIN_PROJECTS_TABLE_ID}
        label={t('admin:projects.listTitle')}
        columns={columns}
        fetchPage={listAdminProjects}
        rowKey={(p) => p.id}
        defaultRowsPerPage="10"
        defaultSortBy="id"
        defaultDescending
        searchPlaceholder={t('admin:projects.search')}
        renderExpanded={(p) => <ProjectDetails project={p} />}
      />
    </PageFrame>
  );
}
