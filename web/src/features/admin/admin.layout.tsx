import { Menu, MenuDivider, MenuItem } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { ROUTES } from '../../app/route-paths.js';

interface Section {
  to: string;
  /** Paths under this prefix highlight the entry. */
  prefix: string;
  icon: IconName;
  label: string;
}

/** The admin area: a side menu of its sections and the selected screen. */
export function AdminLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const sections: Section[] = [
    {
      to: ROUTES.admin_projects_list,
      prefix: '/admin/projects',
      icon: 'projects',
      label: t('admin:projects.listTitle'),
    },
    {
      to: ROUTES.admin_process_data_list,
      prefix: '/admin/process-data',
      icon: 'cog',
      label: t('admin:processData.listTitle'),
    },
    { to: ROUTES.admin_tiling_list, prefix: '/admin/tiling', icon: 'grid-view', label: t('admin:tiling.listTitle') },
    {
      to: ROUTES.admin_metadata_list,
      prefix: '/admin/metadata-processing',
      icon: 'th-list',
      label: t('admin:metadata.listTitle'),
    },
    {
      to: ROUTES.admin_classification_edits_list,
      prefix: '/admin/classification-edits',
      icon: 'edit',
      label: t('admin:classificationEdits.listTitle'),
    },
    { to: ROUTES.admin_users_list, prefix: '/admin/users', icon: 'people', label: t('admin:users.listTitle') },
    {
      to: ROUTES.admin_subscriptions,
      prefix: '/admin/subscriptions',
      icon: 'credit-card',
      label: t('admin:subscriptions.listTitle'),
    },
    { to: ROUTES.admin_statistics, prefix: '/admin/statistics', icon: 'chart', label: t('admin:statistics.title') },
    { to: ROUTES.admin_settings, prefix: '/admin/settings', icon: 'settings', label: t('admin:settings.title') },
  ];
  return (
    <div className="nu-admin">
      <nav className="nu-admin__nav" aria-label={t('admin:title')}>
        <Menu large>
          <MenuDivider title={t('admin:title')} />
          {sections.map((s) => (
            <MenuItem
              key={s.to}
              icon={s.icon}
              text={s.label}
              href={`#${s.to}`}
              active={pathname.startsWith(s.prefix)}
              aria-current={pathname.startsWith(s.prefix) ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                navigate(s.to);
              }}
            />
          ))}
        </Menu>
      </nav>
      <div className="nu-admin__content">
        <Outlet />
      </div>
    </div>
  );
}
