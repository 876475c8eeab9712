import { COMMON_PASSWORDS } from './common-passwords.data.js';
import { COUNTRY_CODES } from './countries.data.js';
import { DISPOSABLE_DOMAINS } from './disposable-domains.data.js';

/**
 * Account validation rules of spec §5, as pure functions shared by the route
 * schemas (zod refinements) and the services.
 */

/** Field lengths of spec §5 (names "under 255", company at most 200, password at most 255). */
export const ACCOUNT_LIMITS = {
  nameMax: 254,
  companyMax: 200,
  passwordMin: 8,
  passwordMax: 255,
  emailMax: 254,
} as const;

/** Interface languages (spec §1); `fr` covers fr, fr-CA and fr-CH browsers. */
export const LANGUAGES = ['en-US', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The language for a stored preference or an Accept-Language header: French for fr*, else en-US. */
export function pickLanguage(value: string | null | undefined): Language {
  if (!value) return 'en-US';
  const first = value.split(',')[0]!.trim().toLowerCase();
  return first === 'fr' || first.startsWith('fr-') ? 'fr' : 'en-US';
}

// Local part and domain per the usual HTML5 rule, then a top-level domain of at least 2 letters.
const EMAIL_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;

/** Lower-cases and trims an email; every stored and compared email goes through this. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** True when `email` has the shape `local@domain.tld` with a TLD of at least 2 letters. */
export function isValidEmail(email: string): boolean {
  return email.length <= ACCOUNT_LIMITS.emailMax && EMAIL_RE.test(email);
}

const disposable = new Set(DISPOSABLE_DOMAINS);

/** True when the email's domain (or a parent domain) is a known disposable-mail provider. */
export function isDisposableEmail(email: string): boolean {
  const domain = normalizeEmail(email).split('@')[1] ?? '';
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (disposable.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

const countries = new Set(COUNTRY_CODES);

/** True for an ISO 3166-1 alpha-2 code (upper case). */
export function isCountryCode(code: string): boolean {
  return countries.has(code);
}

/** Every country with its display name in a language, sorted by that name. */
export function countryList(language: Language): Array<{ code: string; name: string }> {
  const names = new Intl.DisplayNames([language], { type: 'region' });
  return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
    a.name.localeCompare(b.name, language),
  );
}

/** Why a password breaks the main rule of spec §5, or null when it satisfies it. */
export type PasswordProblem = 'TOO_SHORT' | 'TOO_LONG' | 'NO_LOWERCASE' | 'NO_UPPERCASE' | 'NO_DIGIT' | 'NO_SPECIAL';

/** Checks the spec's main password rule: 8 to 255 characters, lower case, upper case, digit and special. */
export function passwordProblem(password: string): PasswordProblem | null {
  if (password.length < ACCOUNT_LIMITS.passwordMin) return 'TOO_SHORT';
  if (password.length > ACCOUNT_LIMITS.passwordMax) return 'TOO_LONG';
  if (!/\p{Ll}/u.test(password)) return 'NO_LOWERCASE';
  if (!/\p{Lu}/u.test(password)) return 'NO_UPPERCASE';
  if (!/\p{Nd}/u.test(password)) return 'NO_DIGIT';
  if (!/[^\p{L}\p{Nd}]/u.test(password)) return 'NO_SPECIAL';
  return null;
}

const common = new Set(COMMON_PASSWORDS);
const LEET: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  '3': 'e',
  '1': 'i',
  '!': 'i',
  '0': 'o',
  $: 's',
  '5': 's',
  '7': 't',
};

/**
 * True when a password is one of the 1000 most common ones, also once the
 * decorations the composition rule pushes people to add are taken off:
 * case, trailing digits and symbols ("Monkey123!"), and leet spelling ("P@ssw0rd").
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const trimEnd = (s: string) => s.replace(/[^\p{L}]+$/u, '');
  const trimStart = (s: string) => s.replace(/^[^\p{L}]+/u, '');
  const unleet = (s: string) => s.replace(/[@4310!$57]/g, (ch) => LEET[ch] ?? ch);
  const bases = [lower, trimEnd(lower), trimStart(lower), trimStart(trimEnd(lower))];
  const candidates = [...bases, ...bases.map(unleet)];
  return candidates.some((c) => c.length >= 4 && common.has(c));
}
