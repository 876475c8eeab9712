import { Button, ButtonGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { errorMessage } from '../../../shared/i18n/error-message.js';
import { DataTable } from '../../../shared/ui/data-table/data-table.js';
import { showToast } from '../../../shared/ui/toaster.js';
import type { Subscription } from '../../billing/billing.api.js';
import { activateLast, listSubscriptions, subscribeUser, suspendAll, useAllTemplates } from './subscriptions.api.js';
import { useSubscriptionColumns } from './subscriptions.page.js';

/**
 * Admin user view: the user's subscriptions (the current one and the history),
 * subscribe them to a template, activate the last one, suspend them all.
 */
export function UserSubscriptions({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { mutate } = useSWRConfig();
  const columns = useSubscriptionColumns(false);
  const templates = useAllTemplates();
  const [templateId, setTemplateId] = useState('');
  const [busy, setBusy] = useState(false);
  const tableId = `user-subs-${userId}`;
  const refresh = () => mutate((key) => Array.isArray(key) && key[0] === 'table' && key[1] === tableId);
  const act = async (fn: () => Promise<unknown>, message: (r: unknown) => string) => {
    setBusy(true);
    try {
      const r = await fn();
      void showToast({ intent: Intent.SUCCESS, icon: 'tick', message: message(r) });
      await refresh();
    } catch (err) {
      void showToast({ intent: Intent.DANGER, message: errorMessage(t, err) });
    } finally {
      setBusy(false);
    }
  };
  const options = (templates.data?.results ?? []).filter((x) => x.enabled);
  return (
    <div data-testid="user-subscriptions">
      <DataTable<Subscription>
        tableUrlId={tableId}
        label={t('billing:userSubscriptions.title')}
        columns={columns}
        fetchPage={(r) => listSubscriptions(r, { userId })}
        rowKey={(s) => s.id}
        searchable={false}
        defaultSortBy="id"
      />
      <div className="nu-billing__actions">
        <HTMLSelect
          aria-label={t('billing:userSubscriptions.template')}
          value={templateId}
          onChange={(e) => setTemplateId(e.currentTarget.value)}
          options={[
            { value: '', label: t('billing:userSubscriptions.chooseTemplate') },
            ...options.map((x) => ({ value: x.id, label: `${x.name} (${t(`billing:category.${x.category}`)})` })),
          ]}
        />
        <Button
          icon="add"
          intent={Intent.PRIMARY}
          disabled={!templateId}
          loading={busy}
          onClick={() =>
            void act(
              () => subscribeUser(userId, templateId),
              (s) => t('billing:userSubscriptions.subscribed', { name: (s as Subscription).name }),
            )
          }
        >
          {t('billing:userSubscriptions.subscribe')}
        </Button>
        <ButtonGroup>
          <Button
            icon="play"
            disabled={busy}
            onClick={() =>
              void act(
                () => activateLast(userId),
                () => t('billing:actions.done.activate', { count: 1 }),
              )
            }
          >
            {t('billing:actions.activateLast')}
          </Button>
          <Button
            icon="pause"
            intent={Intent.DANGER}
            disabled={busy}
            onClick={() =>
              void act(
                () => suspendAll(userId),
                (r) => t('billing:actions.done.suspend', { count: (r as { suspended: number }).suspended }),
              )
            }
          >
            {t('billing:actions.suspendAll')}
          </Button>
        </ButtonGroup>
      </div>
    </div>
  );
}
