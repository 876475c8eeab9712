import { z } from 'zod';
import { isCountryCode } from '../../shared/format/countries.js';
import { isDisposableEmail } from './disposable-domains.js';

/*
 * The validation rules of spec §5, the same the server applies. Messages are
 * translation keys of the `validation` namespace, shown under each field.
 */

/** Password limits of spec §5/§9 (main rule). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 255;
export const NAME_MAX = 254;
export const COMPANY_MAX = 200;
export const EMAIL_MAX = 254;

/** `local@domain.tld` with a top-level domain of at least 2 letters (the server's expression). */
export const EMAIL_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;

/** Email: required, an address whose domain ends in a TLD of at least 2 letters, not a disposable-mail service. */
export const emailRule = z
  .string()
  .trim()
  .min(1, 'validation:email.required')
  .max(EMAIL_MAX, 'validation:email.tooLong')
  .refine((v) => EMAIL_RE.test(v), { message: 'validation:email.invalid', abort: true })
  .refine((v) => !isDisposableEmail(v), 'validation:email.disposable');

/** The first problem of a password under the main rule, as a translation key; null when it is fine. */
export function passwordProblem(v: string): string | null {
  if (v.length === 0) return 'validation:password.required';
  if (v.length < PASSWORD_MIN) return 'validation:password.tooShort';
  if (v.length > PASSWORD_MAX) return 'validation:password.tooLong';
  if (!/\p{Ll}/u.test(v)) return 'validation:password.lowercase';
  if (!/\p{Lu}/u.test(v)) return 'validation:password.uppercase';
  if (!/\p{Nd}/u.test(v)) return 'validation:password.digit';
  if (!/[^\p{L}\p{Nd}]/u.test(v)) return 'validation:password.special';
  return null;
}

/**
 * Password main rule: 8 to 255 characters with a lowercase and an uppercase
 * letter, a digit and a special character; one message at a time, the first missing part.
 */
export const passwordRule = z.string().superRefine((v, ctx) => {
  const problem = passwordProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** First and last names: required, under 255 characters. */
export const nameRule = z.string().trim().min(1, 'validation:name.required').max(NAME_MAX, 'validation:name.tooLong');

/** Company: optional, at most 200 characters. */
export const companyRule = z.string().trim().max(COMPANY_MAX, 'validation:company.tooLong');

/** Country: required, an ISO 3166 alpha-2 code of the known list. */
export const countryRule = z
  .string()
  .min(1, 'validation:country.required')
  .refine((v) => isCountryCode(v), 'validation:country.unknown');

/** Login form: the simplified rule (required only), so old passwords still log in. */
export const loginSchema = z.object({
  username: z.string().trim().min(1, 'validation:email.required'),
  password: z.string().min(1, 'validation:password.required'),
  rememberMeDays: z.union([z.literal(7), z.literal(30), z.literal(90)]),
});
export type LoginValues = z.infer<typeof loginSchema>;

/** A new password typed twice must match. */
const confirmationMatches = {
  check: (v: { password: string; confirmPassword: string }) => v.password === v.confirmPassword,
  params: { message: 'validation:password.mismatch', path: ['confirmPassword'] },
};

/** Sign-up form: the registration payload of spec §3 plus the confirmation. */
export const registerSchema = z
  .object({
    username: emailRule,
    firstname: nameRule,
    lastname: nameRule,
    company: companyRule,
    country: countryRule,
    password: passwordRule,
    confirmPassword: z.string(),
  })
  .refine(confirmationMatches.check, confirmationMatches.params);
export type RegisterValues = z.infer<typeof registerSchema>;

/** Forgotten-password form. */
export const forgotPasswordSchema = z.object({ username: emailRule });
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

/** Password reset form. */
export const resetPasswordSchema = z
  .object({ password: passwordRule, confirmPassword: z.string() })
  .refine(confirmationMatches.check, confirmationMatches.params);
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;

/** Profile form of the account settings. */
export const profileSchema = z.object({
  firstname: nameRule,
  lastname: nameRule,
  company: companyRule,
  country: countryRule,
});
export type ProfileValues = z.infer<typeof profileSchema>;

/** Admin's user creation form (spec §2: email, password, role). */
export const createUserSchema = z.object({
  username: emailRule,
  password: passwordRule,
  role: z.enum(['user', 'admin']),
});
export type CreateUserValues = z.infer<typeof createUserSchema>;
