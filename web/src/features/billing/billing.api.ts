import useSWR from 'swr';
import { api } from '../../shared/api/api.js';
import type { components } from '../../shared/api/schema.generated.js';
import type { Page } from '../../shared/api/types.js';

type Schemas = components['schemas'];

/** A subscription (spec §3). */
export type Subscription = Schemas['Subscription'];
/** A subscription template. */
export type SubscriptionTemplate = Schemas['SubscriptionTemplate'];
/** The current subscription with what is used of it. */
export type CurrentSubscription = Schemas['CurrentSubscription'];
/** One movement of credits. */
export type LedgerEntry = Schemas['CreditsLedgerEntry'];
/** Who changed what, when. */
export type SubscriptionEvent = Schemas['SubscriptionEvent'];
/** What the buy page offers. */
export type Offers = Schemas['Offers'];
/** A purchase (Checkout session) as the return pages show it. */
export type Purchase = Schemas['Purchase'];
/** Subscription status (spec §4). */
export type SubscriptionStatus = Schemas['SubscriptionStatus'];
export type AllocationPeriod = Schemas['AllocationPeriod'];
export type SubscriptionCategory = Schemas['SubscriptionCategory'];

/** GET /subscriptions/current (404 NO_SUBSCRIPTION without one). */
export function getCurrentSubscription(): Promise<CurrentSubscription> {
  return api.get<CurrentSubscription>('/subscriptions/current');
}

/** SWR hook of the current subscription. */
export function useCurrentSubscription() {
  return useSWR(['subscription-current'], getCurrentSubscription);
}

/** GET /subscriptions/current/ledger: my credits history (table contract: limit, offset). */
export function listMyLedger(request: { limit: number; offset: number }): Promise<Page<LedgerEntry>> {
  return api.get<Page<LedgerEntry>>('/subscriptions/current/ledger', {
    query: { limit: request.limit, offset: request.offset },
  });
}

/** SWR hook of my latest credits movements. */
export function useRecentLedger(limit = 5) {
  return useSWR(['subscription-ledger-recent', limit], () => listMyLedger({ limit, offset: 0 }));
}

/** POST /subscriptions/current/cancel: cancelled at the anniversary. */
export function cancelMySubscription(): Promise<Subscription> {
  return api.post<Subscription>('/subscriptions/current/cancel');
}

/** GET /billing/offers. */
export function getOffers(): Promise<Offers> {
  return api.get<Offers>('/billing/offers');
}

export function useOffers() {
  return useSWR(['billing-offers'], getOffers);
}

/** POST /billing/checkout: the Stripe Checkout page to go to. */
export function startCheckout(templateId: string): Promise<{ url: string; sessionId: string }> {
  return api.post<{ url: string; sessionId: string }>('/billing/checkout', { body: { templateId } });
}

/** GET /billing/checkout/{sessionId} (brought up to date from Stripe by the server). */
export function getPurchase(sessionId: string): Promise<Purchase> {
  return api.get<Purchase>(`/billing/checkout/${encodeURIComponent(sessionId)}`);
}

/** POST /billing/checkout/{sessionId}/cancel. */
export function cancelPurchase(sessionId: string): Promise<Purchase> {
  return api.post<Purchase>(`/billing/checkout/${encodeURIComponent(sessionId)}/cancel`);
}
