import { describe, expect, it } from 'vitest';
import { languageFromBrowser, normalizeLanguage } from './i18n.js';

describe('interface language', () => {
  it('is French for fr, fr-CA and fr-CH browsers', () => {
    expect(languageFromBrowser(['fr'])).toBe('fr');
    expect(languageFromBrowser(['fr-CA', 'en-US'])).toBe('fr');
    expect(languageFromBrowser(['fr-CH'])).toBe('fr');
  });

  it('is en-US otherwise, the first known language deciding', () => {
    expect(languageFromBrowser(['en-GB', 'fr'])).toBe('en-US');
    expect(languageFromBrowser(['de-DE', 'fr-FR'])).toBe('fr');
    expect(languageFromBrowser(['de-DE', 'es'])).toBe('en-US');
    expect(languageFromBrowser([])).toBe('en-US');
  });

  it('maps stored preferences to a language we have', () => {
    expect(normalizeLanguage('fr')).toBe('fr');
    expect(normalizeLanguage('fr_CA')).toBe('fr');
    expect(normalizeLanguage('en-US')).toBe('en-US');
    expect(normalizeLanguage('french')).toBe('en-US');
    expect(normalizeLanguage(null)).toBe('en-US');
  });
});
