import { z } from 'zod';
import type { SubscriptionStanding, SubscriptionStandingPatch, SubscriptionStatus } from './users.api.js';

/** Every subscription status, in the order the admin select lists them. */
export const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = [
  'active',
  'inactive',
  'suspended',
  'unsubscribed',
  'none',
];

/** Largest credits figure the API accepts (hectares). */
export const MAX_CREDIT_HECTARES = 1_000_000_000;

/** Hectares typed by an admin: digits with a dot or a comma, from 0 to 1e9; empty means the server default. */
function hectaresOf(text: string): number | null {
  const v = text.trim().replace(',', '.');
  if (v === '') return null;
  if (!/^\d+(\.\d+)?$/.test(v)) return Number.NaN;
  return Number(v);
}

/** The admin's subscription form: '' is the server default for the status and the allowance. */
export const standingFormSchema = z.object({
  status: z.enum(['', ...SUBSCRIPTION_STATUSES] as ['', ...SubscriptionStatus[]]),
  creditsAllowance: z.string().refine((v) => {
    const n = hectaresOf(v);
    return n === null || (Number.isFinite(n) && n >= 0 && n <= MAX_CREDIT_HECTARES);
  }, 'admin:users.subscription.allowanceInvalid'),
  premium: z.boolean(),
});
export type StandingFormValues = z.infer<typeof standingFormSchema>;

/** The form's starting values: a figure the server defaults shows as empty. */
export function standingFormValues(s: SubscriptionStanding): StandingFormValues {
  return {
    status: s.defaultStatus ? '' : s.status,
    creditsAllowance: s.defaultAllowance ? '' : String(s.creditsAllowance),
    premium: s.premium,
  };
}

/** The PATCH body of valid form values (null: back to the server default). */
export function standingPatch(v: StandingFormValues): SubscriptionStandingPatch {
  return {
    status: v.status === '' ? null : v.status,
    creditsAllowance: hectaresOf(v.creditsAllowance),
    premium: v.premium,
  };
}
