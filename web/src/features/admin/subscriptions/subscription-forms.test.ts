import { describe, expect, it } from 'vitest';
import { BYTES_PER_GB } from '../../billing/billing-format.js';
import {
  subscriptionFormValues,
  subscriptionPatch,
  templateBody,
  templateFormSchema,
  templateFormValues,
} from './subscription-forms.js';

describe('template form', () => {
  it('turns GB, hectares and a price into the API body; empty limits are the server default', () => {
    const v = {
      ...templateFormValues(),
      name: ' Pro ',
      credits: '500',
      creditsAllowance: '300,5',
      price: '49,90',
      currency: 'eur',
      paymentProductId: 'price_1',
      maxInputFileGb: '20',
      maxStorageGb: '',
      maxProjects: '200',
      startDate: '2026-01-01',
    };
    expect(templateFormSchema.safeParse(v).success).toBe(true);
    expect(templateBody(v)).toMatchObject({
      name: 'Pro',
      credits: 500,
      creditsAllowance: 300.5,
      price: { amount: 4990, currency: 'eur' },
      paymentProductId: 'price_1',
      maxInputFileBytes: 20 * BYTES_PER_GB,
      maxStorageBytes: null,
      maxProjects: 200,
      startDate: '2026-01-01T00:00:00.000Z',
      endDate: null,
    });
  });

  it('refuses a FREEMIUM template with a payment product, an end before the start, a bad size', () => {
    const base = { ...templateFormValues(), name: 'Plan' };
    const issues = (over: Record<string, string>) =>
      templateFormSchema.safeParse({ ...base, ...over }).error?.issues.map((i) => i.message) ?? [];
    expect(issues({ category: 'FREEMIUM', paymentProductId: 'price_1' })).toEqual(['billing:form.paidOnly']);
    expect(issues({ startDate: '2026-02-01', endDate: '2026-01-01' })).toEqual(['billing:form.endAfterStart']);
    expect(issues({ maxStorageGb: 'lots' })).toEqual(['billing:form.gbInvalid']);
    expect(issues({ name: 'a/b' })).toEqual(['billing:form.noSlash']);
    expect(issues({ credits: '-1' })).toEqual(['billing:form.hectaresInvalid']);
  });
});

describe('subscription form', () => {
  it('sends only what changed, limits in bytes, null to go back to the default', () => {
    const sub = {
      name: 'Freemium',
      description: '',
      category: 'FREEMIUM',
      enabled: true,
      premium: false,
      creditsAllowance: 1000,
      allocationPeriod: 'MONTH',
      nextAllocationDate: '2026-06-01T10:00:00.000Z',
      validUntil: null,
      endDate: null,
      paymentProductId: null,
      paymentProductReference: null,
      limits: { maxProjects: 3, maxInputFileBytes: null, maxStorageBytes: 5 * BYTES_PER_GB },
    } as unknown as Parameters<typeof subscriptionFormValues>[0];
    const before = subscriptionFormValues(sub);
    expect(before).toMatchObject({
      maxProjects: '3',
      maxInputFileGb: '',
      maxStorageGb: '5',
      nextAllocationDate: '2026-06-01',
    });
    expect(subscriptionPatch(before, before)).toEqual({});
    expect(subscriptionPatch({ ...before, maxProjects: '', maxInputFileGb: '1.5', premium: true }, before)).toEqual({
      maxProjects: null,
      maxInputFileBytes: 1.5 * BYTES_PER_GB,
      premium: true,
    });
  });
});
