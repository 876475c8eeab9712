import { readFileSync } from 'node:fs';
import path from 'node:path';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api/api-error.js';
import { errorMessage } from '../../shared/i18n/error-message.js';
import { needsSubscription, SUBSCRIBE_CODES } from './subscribe-prompt.js';

const LOCALES = path.resolve(import.meta.dirname, '..', '..', '..', 'public', 'locales');
const load = (lang: string, ns: string) =>
  JSON.parse(readFileSync(path.join(LOCALES, lang, `${ns}.json`), 'utf8')) as Record<string, unknown>;

/** The codes of spec §8 "Upload and project" and "Processing" the API answers with. */
const SECTION_8_CODES = [
  // Upload and project.
  'FILE_REQUIRED',
  'FORM_INVALID',
  'MAX_PROJECTS_REACHED',
  'FILE_TOO_LARGE',
  'FILE_SIZE_LIMIT_ZERO',
  'STORAGE_LIMIT_REACHED',
  'INTERNAL',
  'SUBSCRIPTION_SUSPENDED',
  'NO_SUBSCRIPTION',
  'DUPLICATE_PROJECT_NAME',
  'MISSING_LAS_HEADER',
  'INVALID_FILE',
  // Processing.
  'SUBSCRIPTION_INACTIVE',
  'INSUFFICIENT_CREDITS',
  'AREA_NOT_COMPUTED',
];

async function translator(lng: string): Promise<TFunction> {
  const instance = i18next.createInstance();
  await instance.init({
    lng,
    fallbackLng: false,
    ns: ['errors', 'projects'],
    resources: { [lng]: { errors: load(lng, 'errors'), projects: load(lng, 'projects') } },
    interpolation: { escapeValue: false },
  });
  return instance.t;
}

describe('spec §8 upload and processing errors in the web', () => {
  let en: TFunction;
  let fr: TFunction;
  beforeAll(async () => {
    [en, fr] = await Promise.all([translator('en-US'), translator('fr')]);
  });

  it('has an en-US and a fr message for every code, and they differ', () => {
    for (const code of SECTION_8_CODES) {
      const a = errorMessage(en, new ApiError(400, code, 'server text'));
      const b = errorMessage(fr, new ApiError(400, code, 'server text'));
      expect(a, code).not.toBe('server text');
      expect(b, code).not.toBe('server text');
      expect(a, code).not.toBe(b);
    }
  });

  it('says "contact support" for a suspended or missing subscription', () => {
    for (const code of ['SUBSCRIPTION_SUSPENDED', 'NO_SUBSCRIPTION']) {
      expect(errorMessage(en, new ApiError(403, code, 'x'))).toMatch(/contact support/i);
      expect(errorMessage(fr, new ApiError(403, code, 'x'))).toMatch(/contactez le support/i);
    }
  });

  it('shows the required and available hectares of INSUFFICIENT_CREDITS', () => {
    const err = new ApiError(402, 'INSUFFICIENT_CREDITS', 'x', { required: 12.35, available: 3.5 });
    expect(errorMessage(en, err)).toBe(
      'Insufficient credits: this project needs 12.35 ha, you have 3.5 ha left. Subscribe or buy credits to process it.',
    );
    expect(errorMessage(fr, err)).toContain('12.35 ha');
    expect(errorMessage(fr, err)).toContain('3.5 ha');
  });

  it('offers the buy page for credits, an inactive subscription and the zero file-size limit only', () => {
    expect([...SUBSCRIBE_CODES].sort()).toEqual([
      'FILE_SIZE_LIMIT_ZERO',
      'INSUFFICIENT_CREDITS',
      'SUBSCRIPTION_INACTIVE',
    ]);
    expect(needsSubscription('SUBSCRIPTION_SUSPENDED')).toBe(false);
    expect(needsSubscription(null)).toBe(false);
    expect(en('projects:subscribe')).toBe('Subscribe or buy credits');
    expect(fr('projects:subscribe')).not.toBe('projects:subscribe');
  });

  it('words a processing job refused for credits or subscription without the request details', () => {
    for (const code of ['INSUFFICIENT_CREDITS', 'SUBSCRIPTION_INACTIVE']) {
      for (const t of [en, fr]) {
        const text = t(`projects:jobFailures.${code}`);
        expect(text, code).not.toContain('{{');
        expect(text, code).not.toBe(`jobFailures.${code}`);
      }
    }
  });
});
