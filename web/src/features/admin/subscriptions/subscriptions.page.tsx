import { Alert, Button, Intent, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSWRConfig } from 'swr';
import { ROUTES, routePath } from '../../../app/route-paths.js';
import { formatDateTime } from '../../../shared/format/format-date.js';
import { errorMessage } from '../../../shared/i18n/error-message.js';
import { type DataColumn, DataTable } from '../../../shared/ui/data-table/data-table.js';
import { PageFrame } from '../../../shared/ui/page-frame.js';
import { QueryTabs } from '../../../shared/ui/query-tabs.js';
import { showToast } from '../../../shared/ui/toaster.js';
import type { Subscription, SubscriptionTemplate } from '../../billing/billing.api.js';
import { formatGb, formatHectares, formatMoney } from '../../billing/billing-format.js';
import { CategoryTag, StatusTag } from '../../billing/subscription-parts.js';
import { EventList } from './event-list.js';
import {
  editTemplate,
  listSubscriptions,
  listTemplates,
  type SubscriptionAction,
  subscriptionAction,
  suspendAll,
  useTemplate,
} from './subscriptions.api.js';
import { TemplateDialog } from './template-dialog.js';
import '../../billing/billing.css';

export const TEMPLATES_TABLE_ID = 'admin-templates';
export const SUBSCRIBED_TABLE_ID = 'admin-subscribed';

/** Refreshes the tables of the subscriptions screens. */
function useRefresh() {
  const { mutate } = useSWRConfig();
  return () =>
    mutate(
      (key) =>
        Array.isArray(key) &&
        ((key[0] === 'table' && String(key[1]).startsWith('admin-')) || String(key[0]).startsWith('admin-')),
    );
}

/** Runs an action on several subscriptions, then tells how many it changed and why the others failed. */
export function useBulk() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  return async (ids: string[], action: SubscriptionAction, clear?: () => void) => {
    const results = await Promise.allSettled(ids.map((id) => subscriptionAction(id, action)));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    const done = results.length - failed.length;
    if (done > 0) {
      void showToast({
        intent: Intent.SUCCESS,
        icon: 'tick',
        message: t(`billing:actions.done.${action}`, { count: done }),
      });
    }
    for (const f of failed) void showToast({ intent: Intent.DANGER, message: errorMessage(t, f.reason) });
    clear?.();
    await refresh();
  };
}

function TemplateHistory({ id }: { id: string }) {
  const { data } = useTemplate(id);
  return data ? <EventList events={data.events} /> : null;
}

function TemplatesTab() {
  const { t, i18n } = useTranslation();
  const refresh = useRefresh();
  const [editing, setEditing] = useState<SubscriptionTemplate | 'new' | null>(null);
  const lang = i18n.language;
  const limit = (v: number | null, gb: boolean) =>
    v === null ? t('billing:fields.default') : gb ? formatGb(v, lang) : String(v);
  const allowance = (x: SubscriptionTemplate) =>
    x.allocationPeriod === 'NONE'
      ? t('billing:period.NONE')
      : `${formatHectares(x.creditsAllowance, lang)} · ${t(`billing:period.${x.allocationPeriod}`)}`;
  const columns: DataColumn<SubscriptionTemplate>[] = [
    {
      id: 'name',
      header: t('billing:fields.name'),
      sortable: true,
      width: 200,
      text: (x) => x.name,
      render: (x) => (
        <Button variant="minimal" size="small" className="nu-billing__name" onClick={() => setEditing(x)}>
          {x.name}
        </Button>
      ),
    },
    {
      id: 'category',
      header: t('billing:fields.category'),
      sortable: true,
      width: 110,
      text: (x) => t(`billing:category.${x.category}`),
      render: (x) => <CategoryTag category={x.category} />,
    },
    {
      id: 'enabled',
      header: t('billing:fields.enabled'),
      sortable: true,
      width: 110,
      text: (x) => (x.enabled ? t('billing:templates.enabled') : t('billing:templates.disabled')),
      render: (x) => (
        <span className="nu-tags">
          <Tag minimal intent={x.enabled ? Intent.SUCCESS : Intent.NONE}>
            {x.enabled ? t('billing:templates.enabled') : t('billing:templates.disabled')}
          </Tag>
          {x.isDefault && <Tag minimal>{t('billing:templates.default')}</Tag>}
        </span>
      ),
    },
    {
      id: 'credits',
      header: t('billing:fields.credits'),
      sortable: true,
      width: 110,
      text: (x) => formatHectares(x.credits, lang),
      render: (x) => formatHectares(x.credits, lang),
    },
    {
      id: 'creditsAllowance',
      header: t('billing:fields.creditsAllowance'),
      sortable: true,
      width: 170,
      text: (x) => allowance(x),
      render: (x) => allowance(x),
    },
    {
      id: 'price',
      header: t('billing:fields.price'),
      sortable: true,
      width: 100,
      text: (x) => (x.price ? formatMoney(x.price.amount, x.price.currency, lang) : ''),
      render: (x) => (x.price ? formatMoney(x.price.amount, x.price.currency, lang) : '—'),
    },
    {
      id: 'limits',
      header: t('billing:fields.limits'),
      width: 220,
      text: (x) =>
        `${limit(x.limits.maxProjects, false)} · ${limit(x.limits.maxInputFileBytes, true)} · ${limit(x.limits.maxStorageBytes, true)}`,
      render: (x) => (
        <span className="nu-billing__limits" title={t('billing:templates.limitsTitle')}>
          <span>{t('billing:templates.limitProjects', { value: limit(x.limits.maxProjects, false) })}</span>
          <span>{t('billing:templates.limitFile', { value: limit(x.limits.maxInputFileBytes, true) })}</span>
          <span>{t('billing:templates.limitStorage', { value: limit(x.limits.maxStorageBytes, true) })}</span>
        </span>
      ),
    },
    {
      id: 'activeSubscriptions',
      header: t('billing:templates.active'),
      sortable: true,
      width: 90,
      text: (x) => String(x.activeSubscriptions),
      render: (x) => x.activeSubscriptions,
    },
  ];
  const setEnabled = async (rows: SubscriptionTemplate[], enabled: boolean, clear: () => void) => {
    const results = await Promise.allSettled(rows.map((r) => editTemplate(r.id, { enabled })));
    const done = results.filter((r) => r.status === 'fulfilled').length;
    for (const r of results) {
      if (r.status === 'rejected') void showToast({ intent: Intent.DANGER, message: errorMessage(t, r.reason) });
    }
    if (done > 0) {
      void showToast({
        intent: Intent.SUCCESS,
        message: enabled
          ? t('billing:templates.reactivated', { count: done })
          : t('billing:templates.deactivated', { count: done }),
      });
    }
    clear();
    await refresh();
  };
  return (
    <>
      <DataTable<SubscriptionTemplate>
        tableUrlId={TEMPLATES_TABLE_ID}
        label={t('admin:subscriptions.templates')}
        columns={columns}
        fetchPage={listTemplates}
        rowKey={(x) => x.id}
        defaultRowsPerPage="10"
        searchPlaceholder={t('billing:templates.search')}
        renderExpanded={(x) => (
          <div>
            <p>{x.description || '—'}</p>
            <TemplateHistory id={x.id} />
          </div>
        )}
        selectionActions={(selected, clear) => (
          <>
            <Button size="small" icon="tick-circle" onClick={() => void setEnabled(selected, true, clear)}>
              {t('billing:templates.reactivate')}
            </Button>
            <Button
              size="small"
              icon="disable"
              intent={Intent.DANGER}
              onClick={() => void setEnabled(selected, false, clear)}
            >
              {t('billing:templates.deactivate')}
            </Button>
          </>
        )}
        toolbar={
          <Button intent={Intent.PRIMARY} icon="add" onClick={() => setEditing('new')}>
            {t('billing:templates.create')}
          </Button>
        }
      />
      <TemplateDialog
        isOpen={editing !== null}
        template={editing === 'new' || editing === null ? undefined : editing}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          setEditing(null);
          void refresh();
          void showToast({
            intent: Intent.SUCCESS,
            icon: 'tick',
            message: t('billing:templates.saved', { name: saved.name }),
          });
        }}
      />
    </>
  );
}

/** Columns of a subscriptions table (the subscribed tab, a user's subscriptions). */
export function useSubscriptionColumns(withUser = true): DataColumn<Subscription>[] {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const columns: DataColumn<Subscription>[] = [
    {
      id: 'id',
      header: t('billing:fields.id'),
      sortable: true,
      width: 70,
      text: (s) => s.id,
      render: (s) => <Link to={routePath('admin_subscriptions_view', { id: s.id })}>{s.id}</Link>,
    },
    {
      id: 'user',
      header: t('billing:fields.user'),
      sortable: true,
      truncate: true,
      maxWidth: 240,
      width: 220,
      text: (s) => s.user.email ?? '',
      render: (s) => <Link to={routePath('admin_users_view', { id: s.user.id })}>{s.user.email}</Link>,
    },
    {
      id: 'name',
      header: t('billing:fields.name'),
      sortable: true,
      truncate: true,
      maxWidth: 260,
      width: 180,
      text: (s) => s.name,
      render: (s) => (
        <Link to={routePath('admin_subscriptions_view', { id: s.id })}>
          {s.name}
          {s.current ? '' : ` (${t('billing:fields.notCurrent')})`}
        </Link>
      ),
    },
    {
      id: 'status',
      header: t('billing:fields.status'),
      sortable: true,
      width: 160,
      text: (s) => t(`billing:status.${s.status}`),
      render: (s) => <StatusTag subscription={s} />,
    },
    {
      id: 'globalStatus',
      header: t('billing:fields.globalStatus'),
      sortable: true,
      width: 110,
      text: (s) => s.globalStatus,
      render: (s) => s.globalStatus,
    },
    {
      id: 'category',
      header: t('billing:fields.category'),
      sortable: true,
      width: 110,
      text: (s) => t(`billing:category.${s.category}`),
      render: (s) => <CategoryTag category={s.category} />,
    },
    {
      id: 'credits',
      header: t('billing:fields.credits'),
      sortable: true,
      width: 110,
      text: (s) => formatHectares(s.credits, lang),
      render: (s) => formatHectares(s.credits, lang),
    },
    {
      id: 'nextAllocationDate',
      header: t('billing:fields.nextAllocationDate'),
      sortable: true,
      width: 150,
      text: (s) => formatDateTime(s.nextAllocationDate),
      render: (s) => formatDateTime(s.nextAllocationDate),
    },
    {
      id: 'validUntil',
      header: t('billing:fields.validUntil'),
      sortable: true,
      width: 150,
      text: (s) => formatDateTime(s.validUntil),
      render: (s) => formatDateTime(s.validUntil),
    },
  ];
  return withUser ? columns : columns.filter((c) => c.id !== 'user');
}

function SubscribedTab() {
  const { t } = useTranslation();
  const bulk = useBulk();
  const refresh = useRefresh();
  const columns = useSubscriptionColumns();
  const [confirmAll, setConfirmAll] = useState(false);
  return (
    <>
      <DataTable<Subscription>
        tableUrlId={SUBSCRIBED_TABLE_ID}
        label={t('admin:subscriptions.subscribed')}
        columns={columns}
        fetchPage={(r) => listSubscriptions(r)}
        rowKey={(s) => s.id}
        defaultRowsPerPage="10"
        searchPlaceholder={t('billing:subscribed.search')}
        selectionActions={(selected, clear) => {
          const ids = selected.map((s) => s.id);
          return (
            <>
              <Button size="small" icon="play" onClick={() => void bulk(ids, 'activate', clear)}>
                {t('billing:actions.activate')}
              </Button>
              <Button
                size="small"
                icon="pause"
                intent={Intent.WARNING}
                onClick={() => void bulk(ids, 'suspend', clear)}
              >
                {t('billing:actions.suspend')}
              </Button>
              <Button size="small" icon="refresh" onClick={() => void bulk(ids, 'reactivate', clear)}>
                {t('billing:actions.reactivate')}
              </Button>
            </>
          );
        }}
        toolbar={
          <Button icon="pause" intent={Intent.DANGER} variant="outlined" onClick={() => setConfirmAll(true)}>
            {t('billing:actions.suspendAll')}
          </Button>
        }
      />
      <Alert
        isOpen={confirmAll}
        intent={Intent.DANGER}
        icon="warning-sign"
        confirmButtonText={t('billing:actions.suspendAll')}
        cancelButtonText={t('common:actions.cancel')}
        onCancel={() => setConfirmAll(false)}
        onConfirm={async () => {
          setConfirmAll(false);
          try {
            const { suspended } = await suspendAll();
            void showToast({
              intent: Intent.SUCCESS,
              message: t('billing:actions.done.suspend', { count: suspended }),
            });
          } catch (err) {
            void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
          }
          await refresh();
        }}
      >
        <p>{t('billing:actions.suspendAllQuestion')}</p>
      </Alert>
    </>
  );
}

/** Admin: subscription templates and subscribed users (route admin/subscriptions, query value tab). */
export function AdminSubscriptionsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      title={t('admin:subscriptions.listTitle')}
      breadcrumbs={[{ text: t('admin:title'), to: ROUTES.admin }, { text: t('admin:subscriptions.listTitle') }]}
    >
      <QueryTabs
        id="subscriptions-tabs"
        tabs={[
          {
            id: 'templates',
            title: t('admin:subscriptions.templates'),
            panel: (
              <>
                <p className="nu-muted">{t('admin:subscriptions.templatesIntro')}</p>
                <TemplatesTab />
              </>
            ),
          },
          {
            id: 'subscribed',
            title: t('admin:subscriptions.subscribed'),
            panel: (
              <>
                <p className="nu-muted">{t('admin:subscriptions.subscribedIntro')}</p>
                <SubscribedTab />
              </>
            ),
          },
        ]}
      />
    </PageFrame>
  );
}
