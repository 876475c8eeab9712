import useSWR from 'swr';
import { api } from '../../../shared/api/api.js';
import type { components } from '../../../shared/api/schema.generated.js';
import type { Page } from '../../../shared/api/types.js';
import type { pageRequest } from '../../../shared/ui/data-table/table-state.js';
import type { LedgerEntry, Subscription, SubscriptionEvent, SubscriptionTemplate } from '../../billing/billing.api.js';

type Schemas = components['schemas'];
export type SubscriptionEdit = Schemas['SubscriptionEdit'];
export type TemplateInput = Schemas['SubscriptionTemplateInput'];
export type TemplateEdit = Schemas['SubscriptionTemplateEdit'];
export type Statistics = Schemas['Statistics'];

const enc = encodeURIComponent;

/** GET /admin/subscriptions (tab subscribed), with optional filters. */
export function listSubscriptions(
  request: ReturnType<typeof pageRequest>,
  filters: { userId?: string; status?: string; current?: boolean } = {},
): Promise<Page<Subscription>> {
  return api.get<Page<Subscription>>('/admin/subscriptions', { query: { ...request, ...filters } });
}

/** GET /admin/subscription-templates (tab templates). */
export function listTemplates(request: ReturnType<typeof pageRequest>): Promise<Page<SubscriptionTemplate>> {
  return api.get<Page<SubscriptionTemplate>>('/admin/subscription-templates', { query: request });
}

/** Every template (for pickers). */
export function useAllTemplates() {
  return useSWR(['admin-templates-all'], () =>
    listTemplates({ limit: 10_000, offset: 0, sortBy: 'name', order: 'ASC' }),
  );
}

export function getSubscription(id: string) {
  return api.get<{ subscription: Subscription; events: SubscriptionEvent[] }>(`/admin/subscriptions/${enc(id)}`);
}

export function useSubscription(id: string) {
  return useSWR(['admin-subscription', id], () => getSubscription(id));
}

export function editSubscription(id: string, body: SubscriptionEdit): Promise<Subscription> {
  return api.patch<Subscription>(`/admin/subscriptions/${enc(id)}`, { body });
}

export function listSubscriptionLedger(
  id: string,
  request: { limit: number; offset: number },
): Promise<Page<LedgerEntry>> {
  return api.get<Page<LedgerEntry>>(`/admin/subscriptions/${enc(id)}/ledger`, {
    query: { limit: request.limit, offset: request.offset },
  });
}

export type SubscriptionAction = 'activate' | 'suspend' | 'reactivate' | 'cancel';

/** POST /admin/subscriptions/{id}/{action}. */
export function subscriptionAction(id: string, action: SubscriptionAction): Promise<Subscription> {
  return api.post<Subscription>(`/admin/subscriptions/${enc(id)}/${action}`);
}

export function grantCredits(id: string, hectares: number, note?: string): Promise<Subscription> {
  return api.post<Subscription>(`/admin/subscriptions/${enc(id)}/credits`, {
    body: { hectares, ...(note ? { note } : {}) },
  });
}

export function suspendAll(userId?: string): Promise<{ suspended: number }> {
  return api.post<{ suspended: number }>('/admin/subscriptions/suspend-all', { body: userId ? { userId } : {} });
}

export function activateLast(userId: string): Promise<Subscription> {
  return api.post<Subscription>('/admin/subscriptions/activate-last', { body: { userId } });
}

export function subscribeUser(userId: string, templateId: string, activate = true): Promise<Subscription> {
  return api.post<Subscription>('/admin/subscriptions', { body: { userId, templateId, activate } });
}

export function getTemplate(id: string) {
  return api.get<{ template: SubscriptionTemplate; events: SubscriptionEvent[] }>(
    `/admin/subscription-templates/${enc(id)}`,
  );
}

export function useTemplate(id: string | null) {
  return useSWR(id ? ['admin-template', id] : null, () => getTemplate(id!));
}

export function createTemplate(body: TemplateInput): Promise<SubscriptionTemplate> {
  return api.post<SubscriptionTemplate>('/admin/subscription-templates', { body });
}

export function editTemplate(id: string, body: TemplateEdit): Promise<SubscriptionTemplate> {
  return api.patch<SubscriptionTemplate>(`/admin/subscription-templates/${enc(id)}`, { body });
}

/** GET /admin/statistics. */
export function getStatistics(q: { from?: string; to?: string; interval?: 'day' | 'month' }): Promise<Statistics> {
  return api.get<Statistics>('/admin/statistics', { query: q });
}

export function useStatistics(q: { from?: string; to?: string; interval?: 'day' | 'month' }) {
  return useSWR(['admin-statistics', q.from ?? '', q.to ?? '', q.interval ?? ''], () => getStatistics(q));
}
