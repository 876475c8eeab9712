import { Button, Intent, Tag } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { routePath } from '../../../app/route-paths.js';
import type { User } from '../../../shared/api/types.js';
import { formatDateTime } from '../../../shared/format/format-date.js';
import { errorMessage } from '../../../shared/i18n/error-message.js';
import { type DataColumn, DataTable } from '../../../shared/ui/data-table/data-table.js';
import { PageFrame } from '../../../shared/ui/page-frame.js';
import { showToast } from '../../../shared/ui/toaster.js';
import { CreateUserDialog } from './create-user.dialog.js';
import { UserDetails } from './user-details.js';
import { listUsers, setUserEnabled } from './users.api.js';

export const USERS_TABLE_ID = 'admin-users';

/** Role and state tags of a user. */
export function UserTags({ user }: { user: User }) {
  const { t } = useTranslation();
  return (
    <span className="nu-tags">
      {user.roles.includes('admin') ? (
        <Tag intent={Intent.PRIMARY} minimal>
          {t('admin:users.roles.admin')}
        </Tag>
      ) : (
        <Tag minimal>{t('admin:users.roles.user')}</Tag>
      )}
      {!user.enabled && (
        <Tag intent={Intent.DANGER} minimal>
          {t('admin:users.disabled')}
        </Tag>
      )}
      {!user.activated && (
        <Tag intent={Intent.WARNING} minimal>
          {t('admin:users.notActivated')}
        </Tag>
      )}
    </span>
  );
}

/** Admin: the users table (route admin/users/list) with search, selection, details and user creation. */
export function AdminUsersListPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [creating, setCreating] = useState(false);
  const countryNames = useMemo(() => new Intl.DisplayNames([i18n.language], { type: 'region' }), [i18n.language]);
  const refresh = () => mutate((key) => Array.isArray(key) && key[0] === 'table' && key[1] === USERS_TABLE_ID);

  const columns: DataColumn<User>[] = [
    {
      id: 'email',
      header: t('admin:users.columns.email'),
      sortable: true,
      truncate: true,
      width: 240,
      text: (u) => u.email,
      render: (u) => <Link to={routePath('admin_users_view', { id: u.id })}>{u.email}</Link>,
    },
    {
      id: 'lastname',
      header: t('admin:users.columns.name'),
      sortable: true,
      truncate: true,
      maxWidth: 240,
      width: 180,
      text: (u) => [u.firstname, u.lastname].filter(Boolean).join(' '),
      render: (u) => [u.firstname, u.lastname].filter(Boolean).join(' '),
    },
    {
      id: 'company',
      header: t('admin:users.columns.company'),
      sortable: true,
      truncate: true,
      maxWidth: 240,
      text: (u) => u.company ?? '',
      render: (u) => u.company ?? '',
    },
    {
      id: 'country',
      header: t('admin:users.columns.country'),
      sortable: true,
      width: 140,
      text: (u) => (u.country ? (countryNames.of(u.country) ?? u.country) : ''),
      render: (u) => (u.country ? (countryNames.of(u.country) ?? u.country) : ''),
    },
    {
      id: 'roles',
      header: t('admin:users.columns.role'),
      width: 180,
      text: (u) => u.roles.join(', '),
      render: (u) => <UserTags user={u} />,
    },
    {
      id: 'ownedProjectsCount',
      header: t('admin:users.columns.projects'),
      sortable: true,
      width: 90,
      text: (u) => String(u.ownedProjectsCount),
      render: (u) => u.ownedProjectsCount,
    },
    {
      id: 'createdAt',
      header: t('admin:users.columns.createdAt'),
      sortable: true,
      width: 150,
      text: (u) => formatDateTime(u.createdAt),
      render: (u) => formatDateTime(u.createdAt),
    },
  ];

  const setEnabled = async (users: User[], enabled: boolean, clear: () => void) => {
    const results = await Promise.allSettled(users.map((u) => setUserEnabled(u.id, enabled)));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    const done = results.length - failed.length;
    if (done > 0) {
      void showToast({
        intent: Intent.SUCCESS,
        message: enabled
          ? t('admin:users.enabledCount', { count: done })
          : t('admin:users.disabledCount', { count: done }),
      });
    }
    for (const f of failed) void showToast({ intent: Intent.DANGER, message: errorMessage(t, f.reason) });
    clear();
    await refresh();
  };

  return (
    <PageFrame
      title={t('admin:users.listTitle')}
      breadcrumbs={[{ text: t('admin:title'), to: '/admin' }, { text: t('admin:users.listTitle') }]}
      actions={
        <Button intent={Intent.PRIMARY} icon="new-person" onClick={() => setCreating(true)}>
          {t('admin:users.create.open')}
        </Button>
      }
    >
      <DataTable<User>
        tableUrlId={USERS_TABLE_ID}
        label={t('admin:users.listTitle')}
        columns={columns}
        fetchPage={listUsers}
        rowKey={(u) => u.id}
        defaultRowsPerPage="10"
        defaultSortBy="id"
        defaultDescending
        searchPlaceholder={t('admin:users.search')}
        renderExpanded={(u) => <UserDetails user={u} />}
        selectionActions={(selected, clear) => (
          <>
            <Button size="small" icon="tick-circle" onClick={() => void setEnabled(selected, true, clear)}>
              {t('admin:users.enable')}
            </Button>
            <Button
              size="small"
              icon="disable"
              intent={Intent.DANGER}
              onClick={() => void setEnabled(selected, false, clear)}
            >
              {t('admin:users.disable')}
            </Button>
          </>
        )}
      />
      <CreateUserDialog
        isOpen={creating}
        onClose={() => setCreating(false)}
        onCreated={(user) => {
          setCreating(false);
          void refresh();
          void showToast({
            intent: Intent.SUCCESS,
            icon: 'tick',
            message: t('admin:users.create.done', { email: user.email }),
          });
          navigate(routePath('admin_users_view', { id: user.id }));
        }}
      />
    </PageFrame>
  );
}
