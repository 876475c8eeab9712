import { describe, expect, it } from 'vitest';
import { standingFormSchema, standingFormValues, standingPatch } from './subscription-form.js';

const STANDING = {
  userId: '7',
  status: 'active' as const,
  creditsAllowance: 1000,
  creditsUsed: 12.5,
  credits: 987.5,
  defaultStatus: true,
  defaultAllowance: true,
  premium: false,
};

describe('admin subscription form', () => {
  it('shows server defaults as empty fields and set figures as they are', () => {
    expect(standingFormValues(STANDING)).toEqual({ status: '', creditsAllowance: '', premium: false });
    expect(
      standingFormValues({
        ...STANDING,
        status: 'suspended',
        creditsAllowance: 40.5,
        defaultStatus: false,
        defaultAllowance: false,
        premium: true,
      }),
    ).toEqual({ status: 'suspended', creditsAllowance: '40.5', premium: true });
  });

  it('turns the form into the PATCH body: empty is null (the default), a comma is a decimal point', () => {
    expect(standingPatch({ status: '', creditsAllowance: ' ', premium: false })).toEqual({
      status: null,
      creditsAllowance: null,
      premium: false,
    });
    expect(standingPatch({ status: 'inactive', creditsAllowance: '12,5', premium: true })).toEqual({
      status: 'inactive',
      creditsAllowance: 12.5,
      premium: true,
    });
  });

  it('accepts 0 to 1e9 hectares and refuses anything else with its translated message', () => {
    const check = (creditsAllowance: string) =>
      standingFormSchema.safeParse({ status: 'active', creditsAllowance, premium: false });
    for (const ok of ['', '0', '1000', '0.25', '1000000000']) expect(check(ok).success, ok).toBe(true);
    for (const bad of ['-1', 'ten', '1e3', '1000000001', '1.2.3']) {
      const r = check(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message).toBe('admin:users.subscription.allowanceInvalid');
    }
    expect(standingFormSchema.safeParse({ status: 'paused', creditsAllowance: '', premium: false }).success).toBe(
      false,
    );
  });
});
