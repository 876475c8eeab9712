import i18next, { type BackendModule, type i18n as I18n, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '../shared/api/types.js';

/** Interface languages; en-US is the default (spec §9). */
export const LANGUAGES: readonly Language[] = ['en-US', 'fr'];
export const DEFAULT_LANGUAGE: Language = 'en-US';

/** Translation namespaces: one JSON file per namespace and language in public/locales/<lang>/. */
export const NAMESPACES = [
  'common',
  'auth',
  'account',
  'admin',
  'errors',
  'validation',
  'projects',
  'viewer',
  'billing',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** Browser storage key of a language chosen before logging in. */
const STORAGE_KEY = 'nuage.language';

/** Maps any language tag to an interface language: French for fr, fr-CA, fr-CH (any fr-*), else en-US. */
export function normalizeLanguage(tag: string | null | undefined): Language {
  return tag && /^fr(?:[-_]|$)/i.test(tag.trim()) ? 'fr' : DEFAULT_LANGUAGE;
}

/**
 * The language the browser asks for (spec §1): the first of its preferred
 * languages that we have (French or English) decides; none: en-US.
 */
export function languageFromBrowser(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    if (/^fr(?:[-_]|$)/i.test(tag)) return 'fr';
    if (/^en(?:[-_]|$)/i.test(tag)) return 'en-US';
  }
  return DEFAULT_LANGUAGE;
}

/** The language to start with: the one chosen on this browser, else the browser's. */
export function initialLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage can be disabled; the browser language still applies.
  }
  if (stored) return normalizeLanguage(stored);
  const list = navigator.languages?.length ? navigator.languages : [navigator.language];
  return languageFromBrowser(list);
}

/** Remembers a language chosen on this browser (before or after login). */
export function rememberLanguage(lang: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Not remembered: harmless.
  }
}

/** Loads `locales/<lang>/<ns>.json` next to index.html. */
const localesBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    fetch(`./locales/${language}/${namespace}.json`, { credentials: 'same-origin' })
      .then(async (res) => {
        if (!res.ok) throw new Error(`locales/${language}/${namespace}.json: HTTP ${res.status}`);
        callback(null, await res.json());
      })
      .catch((err: Error) => callback(err, null));
  },
};

/** Creates and initialises the app's i18next instance. */
export async function createI18n(lang: Language): Promise<I18n> {
  const instance = i18next.createInstance();
  instance.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
  });
  await instance
    .use(localesBackend)
    .use(initReactI18next)
    .init({
      lng: lang,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      ns: [...NAMESPACES],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
      returnNull: false,
    });
  return instance;
}
