import { z } from '@hono/zod-openapi';
import {
  ALLOCATION_PERIODS,
  CATEGORIES,
  GLOBAL_STATUSES,
  SUBSCRIPTION_STATES,
} from '../services/subscription.service.js';

/** Largest credits figure (hectares) a template, a subscription or a grant may carry (France: 55 million ha). */
export const MAX_HECTARES = 1_000_000_000;

export const SubscriptionStateSchema = z.enum(SUBSCRIPTION_STATES).openapi('SubscriptionStatus', {
  description:
    'Spec §4: active; inactive (not activated, replaced or deactivated: no processing); suspended (no project creation, upload or processing); unsubscribed (cancelled and ended).',
});
export const GlobalStatusSchema = z.enum(GLOBAL_STATUSES).openapi('SubscriptionGlobalStatus', {
  description: 'The status in three: ACTIVE, INACTIVE (inactive or unsubscribed), SUSPENDED.',
});
export const CategorySchema = z.enum(CATEGORIES).openapi('SubscriptionCategory', {
  description: 'PAID (bought through the payment provider or given by an admin) or FREEMIUM.',
});
export const AllocationPeriodSchema = z.enum(ALLOCATION_PERIODS).openapi('AllocationPeriod', {
  description:
    'NONE: credits once; MONTH, YEAR: the allowance each period (a FREEMIUM subscription is refilled up to it, a PAID one receives it with each paid invoice).',
});

const dateTime = z.string().openapi({ format: 'date-time', example: '2026-05-01T00:00:00.000Z' });
const Hectares = z.number().openapi({ description: 'Hectares.' });

export const LimitsSchema = z
  .object({
    maxProjects: z.number().int().nullable(),
    maxInputFileBytes: z.number().nullable().openapi({ description: 'Bytes (shown in GB).' }),
    maxStorageBytes: z.number().nullable().openapi({ description: 'Total bytes of assets (shown in GB).' }),
  })
  .openapi('SubscriptionLimits', { description: 'Limits as set; null: the configured default (DEFAULT_MAX_*).' });

export const EffectiveLimitsSchema = z
  .object({ maxProjects: z.number().int(), maxInputFileBytes: z.number(), maxStorageBytes: z.number() })
  .openapi('EffectiveLimits', { description: 'The limits that apply, defaults filled in.' });

const Ref = z.object({ id: z.string(), email: z.string().nullable() });

export const SubscriptionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    enabled: z.boolean(),
    startDate: dateTime,
    endDate: dateTime.nullable(),
    status: SubscriptionStateSchema,
    globalStatus: GlobalStatusSchema,
    category: CategorySchema,
    credits: Hectares.openapi({ description: 'Hectares available now (reserved hectares already taken off).' }),
    creditsAllowance: Hectares.openapi({ description: 'Hectares of each allocation.' }),
    allocationPeriod: AllocationPeriodSchema,
    lastAllocationDate: dateTime.nullable(),
    nextAllocationDate: dateTime.nullable(),
    validUntil: dateTime.nullable().openapi({ description: 'End of the period paid for (the anniversary).' }),
    unsubscribePending: z
      .boolean()
      .openapi({ description: 'Cancelled: stays active until validUntil, then ends (waiting to be disabled).' }),
    premium: z.boolean(),
    paymentProductId: z.string().nullable(),
    paymentSubscriptionId: z.string().nullable(),
    paymentProductReference: z.string().nullable(),
    paymentFailedAt: dateTime.nullable(),
    graceUntil: dateTime.nullable(),
    suspensionReason: z.enum(['admin', 'payment']).nullable(),
    limits: LimitsSchema,
    effectiveLimits: EffectiveLimitsSchema,
    current: z.boolean().openapi({ description: 'The subscription that applies to its user now.' }),
    endedAt: dateTime.nullable(),
    user: Ref,
    creator: Ref.nullable(),
    template: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .openapi('Subscription');

export const TemplateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    enabled: z.boolean(),
    isDefault: z.boolean().openapi({ description: 'The freemium template every new account gets.' }),
    category: CategorySchema,
    startDate: dateTime.nullable(),
    endDate: dateTime.nullable(),
    credits: Hectares.openapi({ description: 'Hectares a new subscription starts with.' }),
    creditsAllowance: Hectares,
    allocationPeriod: AllocationPeriodSchema,
    durationMonths: z.number().int().nullable(),
    premium: z.boolean(),
    price: z.object({ amount: z.number().int(), currency: z.string() }).nullable().openapi({
      description: 'Price shown (minor units: cents).',
    }),
    paymentProductId: z.string().nullable().openapi({ description: 'The Stripe price id Checkout charges.' }),
    paymentProductReference: z.string().nullable(),
    limits: LimitsSchema,
    activeSubscriptions: z.number().int(),
    subscriptions: z.number().int(),
    creatorId: z.string().nullable(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .openapi('SubscriptionTemplate');

export const EventSchema = z
  .object({
    id: z.string(),
    action: z.string(),
    actor: Ref.nullable().openapi({ description: 'Who did it; null: the system (payments, schedule).' }),
    details: z.record(z.string(), z.unknown()),
    createdAt: dateTime,
  })
  .openapi('SubscriptionEvent');

export const LedgerEntrySchema = z
  .object({
    id: z.string(),
    kind: z.enum(['opening', 'allocation', 'grant', 'adjustment', 'reservation', 'release', 'charge', 'transfer']),
    hectares: Hectares,
    delta: Hectares.openapi({ description: 'Signed change of the credits available.' }),
    subscriptionId: z.string().nullable(),
    project: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
    jobId: z.string().nullable(),
    actor: Ref.nullable(),
    note: z.string().nullable(),
    createdAt: dateTime,
  })
  .openapi('CreditsLedgerEntry');

export const LedgerPageSchema = z
  .object({ count: z.number().int(), results: z.array(LedgerEntrySchema) })
  .openapi('CreditsLedgerPage');

export const CurrentSubscriptionSchema = z
  .object({
    subscription: SubscriptionSchema,
    usage: z.object({ projects: z.number().int(), storageBytes: z.number() }),
  })
  .openapi('CurrentSubscription');

const LimitInput = {
  maxProjects: z.number().int().min(0).max(1_000_000).nullable().optional(),
  maxInputFileBytes: z
    .number()
    .int()
    .min(0)
    .max(2 ** 50)
    .nullable()
    .optional(),
  maxStorageBytes: z
    .number()
    .int()
    .min(0)
    .max(2 ** 53 - 1)
    .nullable()
    .optional(),
};
const NameInput = z
  .string()
  .trim()
  .min(1)
  .max(254)
  .refine((s) => !s.includes('/'), 'must not contain a slash');
const DateInput = z.iso.datetime({ offset: true }).nullable().optional();

export const SubscriptionEditSchema = z
  .strictObject({
    name: NameInput.optional(),
    description: z.string().max(2000).optional(),
    enabled: z.boolean().optional(),
    endDate: DateInput,
    validUntil: DateInput,
    category: CategorySchema.optional(),
    creditsAllowance: z.number().min(0).max(MAX_HECTARES).optional(),
    allocationPeriod: AllocationPeriodSchema.optional(),
    nextAllocationDate: DateInput,
    premium: z.boolean().optional(),
    paymentProductId: z.string().max(255).nullable().optional(),
    paymentProductReference: z.string().max(255).nullable().optional(),
    ...LimitInput,
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field' })
  .openapi('SubscriptionEdit');

const templateFields = {
  name: NameInput,
  description: z.string().max(2000).optional(),
  enabled: z.boolean().optional(),
  category: CategorySchema,
  startDate: DateInput,
  endDate: DateInput,
  credits: z.number().min(0).max(MAX_HECTARES).optional(),
  creditsAllowance: z.number().min(0).max(MAX_HECTARES).optional(),
  allocationPeriod: AllocationPeriodSchema.optional(),
  durationMonths: z.number().int().min(1).max(1200).nullable().optional(),
  premium: z.boolean().optional(),
  price: z
    .object({
      amount: z.number().int().min(0).max(100_000_000),
      currency: z.string().regex(/^[A-Za-z]{3}$/, 'an ISO 4217 code'),
    })
    .nullable()
    .optional(),
  paymentProductId: z.string().max(255).nullable().optional(),
  paymentProductReference: z.string().max(255).nullable().optional(),
  ...LimitInput,
};

export const TemplateCreateSchema = z.strictObject(templateFields).openapi('SubscriptionTemplateInput');
export const TemplateEditSchema = z
  .strictObject({ ...templateFields, name: NameInput.optional(), category: CategorySchema.optional() })
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field' })
  .openapi('SubscriptionTemplateEdit');

export const IdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,18}$/, 'an id is a positive integer')
    .openapi({ param: { name: 'id', in: 'path' }, example: '7' }),
});
