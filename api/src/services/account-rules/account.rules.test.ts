import { describe, expect, it } from 'vitest';
import {
  countryList,
  isCommonPassword,
  isCountryCode,
  isDisposableEmail,
  isValidEmail,
  passwordProblem,
  pickLanguage,
} from './account.rules.js';
import { COMMON_PASSWORDS } from './common-passwords.data.js';
import { COUNTRY_CODES } from './countries.data.js';
import { DISPOSABLE_DOMAINS } from './disposable-domains.data.js';

describe('password main rule (spec §5)', () => {
  it.each([
    ['Aa1!aaa', 'TOO_SHORT'],
    [`Aa1!${'a'.repeat(252)}`, 'TOO_LONG'],
    ['AAAA1111!', 'NO_LOWERCASE'],
    ['aaaa1111!', 'NO_UPPERCASE'],
    ['Aaaaaaaa!', 'NO_DIGIT'],
    ['Aaaa1111', 'NO_SPECIAL'],
    ['Aa1!aaaa', null],
    [`Aa1!${'a'.repeat(251)}`, null],
    ['Éclair-9x', null],
  ])('%s → %s', (password, problem) => {
    expect(passwordProblem(password)).toBe(problem);
  });
});

describe('common passwords', () => {
  it('ships the 1000 most common, lower case, without duplicates', () => {
    expect(COMMON_PASSWORDS).toHaveLength(1000);
    expect(new Set(COMMON_PASSWORDS).size).toBe(1000);
    expect(COMMON_PASSWORDS.slice(0, 3)).toEqual(['123456', 'password', '12345678']);
    expect(COMMON_PASSWORDS.every((p) => p === p.toLowerCase())).toBe(true);
  });

  it.each([
    ['Password1!', true],
    ['P@ssw0rd!', true],
    ['Monkey2024!', true],
    ['!!Football99', true],
    ['Qwerty123!', true],
    ['Tr0ub4dor&3x', false],
    ['Lidar-Tr33tops!', false],
    ['Xk9!mPq2vL', false],
  ])('%s → %s', (password, common) => {
    expect(isCommonPassword(password)).toBe(common);
  });
});

describe('emails', () => {
  it.each([
    ['ada@example.com', true],
    ['first.last+tag@sub.example.fr', true],
    ['a@b.co', true],
    ['a@b.c', false],
    ['a@b', false],
    ['a@b.c0m', false],
    ['a b@example.com', false],
    ['@example.com', false],
    ['ada@-example.com', false],
  ])('%s valid: %s', (email, valid) => {
    expect(isValidEmail(email)).toBe(valid);
  });

  it('refuses about a hundred disposable domains and their subdomains, not look-alikes', () => {
    expect(DISPOSABLE_DOMAINS.length).toBeGreaterThanOrEqual(100);
    expect(isDisposableEmail('x@MAILINATOR.com')).toBe(true);
    expect(isDisposableEmail('x@eu.mailinator.com')).toBe(true);
    expect(isDisposableEmail('x@yopmail.fr')).toBe(true);
    expect(isDisposableEmail('x@notmailinator.com')).toBe(false);
    expect(isDisposableEmail('x@gmail.com')).toBe(false);
  });
});

describe('countries and languages', () => {
  it('knows the 249 ISO 3166-1 alpha-2 codes, each with an en-US and a French name', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(isCountryCode('FR')).toBe(true);
    expect(isCountryCode('UK')).toBe(false);
    const en = countryList('en-US');
    const fr = countryList('fr');
    expect(en.find((c) => c.code === 'CI')?.name).toBe('Côte d’Ivoire');
    expect(fr.find((c) => c.code === 'US')?.name).toBe('États-Unis');
    expect(en.every((c) => c.name !== c.code)).toBe(true);
    expect(fr[0]?.code).toBe('AF'); // Afghanistan sorts first in French
  });

  it('picks French for fr, fr-CA and fr-CH, else en-US (spec §1)', () => {
    expect(['fr', 'fr-CA', 'fr-CH,en;q=0.5', 'FR-fr'].map(pickLanguage)).toEqual(['fr', 'fr', 'fr', 'fr']);
    expect(['en-GB', 'de', '', undefined, 'french'].map(pickLanguage)).toEqual([
      'en-US',
      'en-US',
      'en-US',
      'en-US',
      'en-US',
    ]);
  });
});
