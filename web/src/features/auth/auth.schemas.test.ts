import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from '../../shared/format/countries.js';
import {
  createUserSchema,
  EMAIL_RE,
  emailRule,
  loginSchema,
  passwordRule,
  profileSchema,
  registerSchema,
  resetPasswordSchema,
} from './auth.schemas.js';
import { DISPOSABLE_DOMAINS, isDisposableEmail } from './disposable-domains.js';

/** The messages (translation keys) a value gets from a schema. */
function messages(
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
) {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error!.issues.map((i) => i.message);
}

const valid = {
  username: 'ada@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  company: '',
  country: 'FR',
  password: 'Analytical-3ngine',
  confirmPassword: 'Analytical-3ngine',
};

describe('email rule', () => {
  it('needs an address with a TLD of at least 2 letters', () => {
    expect(messages(emailRule, 'ada@example.com')).toEqual([]);
    expect(messages(emailRule, '  Ada@Example.org ')).toEqual([]);
    expect(messages(emailRule, '')).toContain('validation:email.required');
    expect(messages(emailRule, 'ada@example.c')).toEqual(['validation:email.invalid']);
    expect(messages(emailRule, 'ada@example.123')).toEqual(['validation:email.invalid']);
    expect(messages(emailRule, 'ada.example.com')).toEqual(['validation:email.invalid']);
    expect(messages(emailRule, `${'a'.repeat(250)}@example.com`)).toContain('validation:email.tooLong');
  });

  it('refuses disposable-mail domains and their subdomains', () => {
    expect(messages(emailRule, 'someone@mailinator.com')).toEqual(['validation:email.disposable']);
    expect(messages(emailRule, 'someone@eu.mailinator.com')).toEqual(['validation:email.disposable']);
    expect(isDisposableEmail('someone@notmailinator.com')).toBe(false);
  });
});

describe('password rule (spec §5 main rule)', () => {
  it('accepts 8 to 255 characters with lower, upper, digit and special', () => {
    expect(messages(passwordRule, 'Abcdef1!')).toEqual([]);
    expect(messages(passwordRule, `Aa1!${'x'.repeat(251)}`)).toEqual([]);
  });

  it('names each missing part', () => {
    expect(messages(passwordRule, '')).toContain('validation:password.required');
    expect(messages(passwordRule, 'Ab1!')).toContain('validation:password.tooShort');
    expect(messages(passwordRule, `Aa1!${'x'.repeat(252)}`)).toContain('validation:password.tooLong');
    expect(messages(passwordRule, 'ABCDEF1!')).toEqual(['validation:password.lowercase']);
    expect(messages(passwordRule, 'abcdef1!')).toEqual(['validation:password.uppercase']);
    expect(messages(passwordRule, 'Abcdefg!')).toEqual(['validation:password.digit']);
    expect(messages(passwordRule, 'Abcdefg1')).toEqual(['validation:password.special']);
  });
});

describe('forms', () => {
  it('accepts a complete registration and checks every field', () => {
    expect(messages(registerSchema, valid)).toEqual([]);
    expect(messages(registerSchema, { ...valid, firstname: ' ' })).toEqual(['validation:name.required']);
    expect(messages(registerSchema, { ...valid, lastname: 'x'.repeat(255) })).toEqual(['validation:name.tooLong']);
    expect(messages(registerSchema, { ...valid, company: 'x'.repeat(201) })).toEqual(['validation:company.tooLong']);
    expect(messages(registerSchema, { ...valid, country: '' })).toContain('validation:country.required');
    expect(messages(registerSchema, { ...valid, country: 'XX' })).toEqual(['validation:country.unknown']);
    expect(messages(registerSchema, { ...valid, confirmPassword: 'other' })).toEqual(['validation:password.mismatch']);
  });

  it('reports a confirmation mismatch on the confirmation field', () => {
    const r = resetPasswordSchema.safeParse({ password: 'Abcdef1!', confirmPassword: 'Abcdef1?' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['confirmPassword']);
  });

  it('login only requires the fields and a remember-me of 7, 30 or 90 days', () => {
    expect(messages(loginSchema, { username: 'a', password: 'b', rememberMeDays: 30 })).toEqual([]);
    expect(messages(loginSchema, { username: '', password: '', rememberMeDays: 7 })).toEqual([
      'validation:email.required',
      'validation:password.required',
    ]);
    expect(loginSchema.safeParse({ username: 'a', password: 'b', rememberMeDays: 14 }).success).toBe(false);
  });

  it('profile and admin creation reuse the same rules', () => {
    expect(messages(profileSchema, { firstname: 'A', lastname: 'B', company: '', country: 'CA' })).toEqual([]);
    expect(messages(createUserSchema, { username: 'x@yopmail.com', password: 'weak', role: 'user' })).toEqual([
      'validation:email.disposable',
      'validation:password.tooShort',
    ]);
  });
});

describe('same rules as the server', () => {
  const rules = path.resolve(import.meta.dirname, '../../../../api/src/services/account-rules');
  const load = async (name: string) =>
    (await import(pathToFileURL(path.join(rules, name)).href)) as Record<string, unknown>;

  it('refuses the same disposable-mail domains', async () => {
    const server = (await load('disposable-domains.data.ts')).DISPOSABLE_DOMAINS as string[];
    expect([...DISPOSABLE_DOMAINS].sort()).toEqual([...server].sort());
  });

  it('knows the same countries', async () => {
    const server = (await load('countries.data.ts')).COUNTRY_CODES as string[];
    const list = server.flatMap((s) => s.split(/\s+/)).filter(Boolean);
    expect([...COUNTRY_CODES].sort()).toEqual([...list].sort());
  });

  it('agrees on emails and passwords', async () => {
    const server = await load('account.rules.ts');
    const isValidEmail = server.isValidEmail as (e: string) => boolean;
    const passwordProblem = server.passwordProblem as (p: string) => string | null;
    const emails = ['a@b.co', 'a@b.c', 'a.b@c-d.example', 'a@-b.com', 'a b@c.com', 'a@b..com', 'é@b.com', 'a@b.c0m'];
    for (const e of emails) expect(EMAIL_RE.test(e), e).toBe(isValidEmail(e));
    const passwords = [
      'Abcdef1!',
      'Ébcdef1!',
      'abcdef1!',
      'ABCDEF1!',
      'Abcdefg!',
      'Abcdefg1',
      'Ab1!',
      'Ünïcödé9 ',
      '日本語Aa1!',
    ];
    for (const p of passwords) expect(passwordRule.safeParse(p).success, p).toBe(passwordProblem(p) === null);
  });
});
