import { z } from 'zod';
import type { Subscription, SubscriptionTemplate } from '../../billing/billing.api.js';
import { bytesToGbText, gbToBytes, parseDecimal } from '../../billing/billing-format.js';
import type { SubscriptionEdit, TemplateInput } from './subscriptions.api.js';

/** Largest hectares figure the API accepts. */
export const MAX_HECTARES = 1_000_000_000;

const hectares = z.string().refine((v) => {
  const n = parseDecimal(v);
  return n !== null && Number.isFinite(n) && n >= 0 && n <= MAX_HECTARES;
}, 'billing:form.hectaresInvalid');
const optionalGb = z.string().refine((v) => {
  const n = gbToBytes(v);
  return n === null || (Number.isFinite(n) && n >= 0);
}, 'billing:form.gbInvalid');
const optionalCount = z
  .string()
  .refine((v) => v.trim() === '' || /^\d{1,7}$/.test(v.trim()), 'billing:form.countInvalid');
const optionalDay = z.string().refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), 'billing:form.dateInvalid');
const name = z
  .string()
  .trim()
  .min(1, 'validation:name.required')
  .max(254, 'validation:name.tooLong')
  .refine((v) => !v.includes('/'), 'billing:form.noSlash');

const limitFields = { maxProjects: optionalCount, maxInputFileGb: optionalGb, maxStorageGb: optionalGb };

/** The template form: texts as typed (hectares, GB, money with a dot or a comma). */
export const templateFormSchema = z
  .object({
    name,
    description: z.string().max(2000, 'billing:form.descriptionTooLong'),
    category: z.enum(['PAID', 'FREEMIUM']),
    enabled: z.boolean(),
    premium: z.boolean(),
    credits: hectares,
    creditsAllowance: hectares,
    allocationPeriod: z.enum(['NONE', 'MONTH', 'YEAR']),
    durationMonths: optionalCount,
    price: z.string().refine((v) => {
      const n = parseDecimal(v);
      return n === null || (Number.isFinite(n) && n >= 0);
    }, 'billing:form.priceInvalid'),
    currency: z.string().refine((v) => /^[A-Za-z]{3}$/.test(v.trim()), 'billing:form.currencyInvalid'),
    paymentProductId: z.string().max(255),
    paymentProductReference: z.string().max(255),
    startDate: optionalDay,
    endDate: optionalDay,
    ...limitFields,
  })
  .refine((v) => v.category === 'PAID' || v.paymentProductId.trim() === '', {
    path: ['paymentProductId'],
    message: 'billing:form.paidOnly',
  })
  .refine((v) => !v.startDate || !v.endDate || v.endDate > v.startDate, {
    path: ['endDate'],
    message: 'billing:form.endAfterStart',
  });
export type TemplateFormValues = z.infer<typeof templateFormSchema>;

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');
const dayToIso = (d: string) => (d ? `${d}T00:00:00.000Z` : null);
const text = (v: string) => (v.trim() === '' ? null : v.trim());
const count = (v: string) => (v.trim() === '' ? null : Number(v.trim()));

export function templateFormValues(t?: SubscriptionTemplate): TemplateFormValues {
  return {
    name: t?.name ?? '',
    description: t?.description ?? '',
    category: t?.category ?? 'PAID',
    enabled: t?.enabled ?? true,
    premium: t?.premium ?? false,
    credits: String(t?.credits ?? 0),
    creditsAllowance: String(t?.creditsAllowance ?? 0),
    allocationPeriod: t?.allocationPeriod ?? 'MONTH',
    durationMonths: t?.durationMonths ? String(t.durationMonths) : '',
    price: t?.price ? String(t.price.amount / 100) : '',
    currency: t?.price?.currency.toUpperCase() ?? 'EUR',
    paymentProductId: t?.paymentProductId ?? '',
    paymentProductReference: t?.paymentProductReference ?? '',
    startDate: day(t?.startDate),
    endDate: day(t?.endDate),
    maxProjects: t?.limits.maxProjects === null || t === undefined ? '' : String(t.limits.maxProjects),
    maxInputFileGb: bytesToGbText(t?.limits.maxInputFileBytes),
    maxStorageGb: bytesToGbText(t?.limits.maxStorageBytes),
  };
}

/** The API body of valid template form values (empty limits: the server default). */
export function templateBody(v: TemplateFormValues): TemplateInput {
  const price = parseDecimal(v.price);
  return {
    name: v.name.trim(),
    description: v.description,
    category: v.category,
    enabled: v.enabled,
    premium: v.premium,
    credits: parseDecimal(v.credits) ?? 0,
    creditsAllowance: parseDecimal(v.creditsAllowance) ?? 0,
    allocationPeriod: v.allocationPeriod,
    durationMonths: count(v.durationMonths),
    price: price === null ? null : { amount: Math.round(price * 100), currency: v.currency.trim().toLowerCase() },
    paymentProductId: v.category === 'PAID' ? text(v.paymentProductId) : null,
    paymentProductReference: text(v.paymentProductReference),
    startDate: dayToIso(v.startDate),
    endDate: dayToIso(v.endDate),
    maxProjects: count(v.maxProjects),
    maxInputFileBytes: gbToBytes(v.maxInputFileGb),
    maxStorageBytes: gbToBytes(v.maxStorageGb),
  };
}

/** The subscription form of the admin view. */
export const subscriptionFormSchema = z.object({
  name,
  description: z.string().max(2000, 'billing:form.descriptionTooLong'),
  category: z.enum(['PAID', 'FREEMIUM']),
  enabled: z.boolean(),
  premium: z.boolean(),
  creditsAllowance: hectares,
  allocationPeriod: z.enum(['NONE', 'MONTH', 'YEAR']),
  nextAllocationDate: optionalDay,
  validUntil: optionalDay,
  endDate: optionalDay,
  paymentProductId: z.string().max(255),
  paymentProductReference: z.string().max(255),
  ...limitFields,
});
export type SubscriptionFormValues = z.infer<typeof subscriptionFormSchema>;

export function subscriptionFormValues(s: Subscription): SubscriptionFormValues {
  return {
    name: s.name,
    description: s.description,
    category: s.category,
    enabled: s.enabled,
    premium: s.premium,
    creditsAllowance: String(s.creditsAllowance),
    allocationPeriod: s.allocationPeriod,
    nextAllocationDate: day(s.nextAllocationDate),
    validUntil: day(s.validUntil),
    endDate: day(s.endDate),
    paymentProductId: s.paymentProductId ?? '',
    paymentProductReference: s.paymentProductReference ?? '',
    maxProjects: s.limits.maxProjects === null ? '' : String(s.limits.maxProjects),
    maxInputFileGb: bytesToGbText(s.limits.maxInputFileBytes),
    maxStorageGb: bytesToGbText(s.limits.maxStorageBytes),
  };
}

/** Only the fields that changed, as the PATCH body (dates kept when their day did not change). */
export function subscriptionPatch(v: SubscriptionFormValues, before: SubscriptionFormValues): SubscriptionEdit {
  const out: Record<string, unknown> = {};
  const changed = (k: keyof SubscriptionFormValues) => v[k] !== before[k];
  if (changed('name')) out.name = v.name.trim();
  if (changed('description')) out.description = v.description;
  if (changed('category')) out.category = v.category;
  if (changed('enabled')) out.enabled = v.enabled;
  if (changed('premium')) out.premium = v.premium;
  if (changed('creditsAllowance')) out.creditsAllowance = parseDecimal(v.creditsAllowance) ?? 0;
  if (changed('allocationPeriod')) out.allocationPeriod = v.allocationPeriod;
  if (changed('nextAllocationDate')) out.nextAllocationDate = dayToIso(v.nextAllocationDate);
  if (changed('validUntil')) out.validUntil = dayToIso(v.validUntil);
  if (changed('endDate')) out.endDate = dayToIso(v.endDate);
  if (changed('paymentProductId')) out.paymentProductId = text(v.paymentProductId);
  if (changed('paymentProductReference')) out.paymentProductReference = text(v.paymentProductReference);
  if (changed('maxProjects')) out.maxProjects = count(v.maxProjects);
  if (changed('maxInputFileGb')) out.maxInputFileBytes = gbToBytes(v.maxInputFileGb);
  if (changed('maxStorageGb')) out.maxStorageBytes = gbToBytes(v.maxStorageGb);
  return out as SubscriptionEdit;
}
