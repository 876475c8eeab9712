import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, NAMESPACES } from './i18n.js';

const WEB = path.resolve(import.meta.dirname, '..', '..');
const LOCALES = path.join(WEB, 'public', 'locales');
const SRC = path.join(WEB, 'src');
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object') return [prefix];
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
}

/** Every key of a language as `ns:key`, plural forms folded into their base key. */
function keysOf(lang: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const ns of NAMESPACES) {
    const file = path.join(LOCALES, lang, `${ns}.json`);
    const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const k of flatten(json)) {
      const value = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], json);
      keys.set(`${ns}:${k.replace(PLURAL, '')}`, String(value));
    }
  }
  return keys;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.includes('.generated.') ? [p] : [];
  });
}

/** Keys written in the code: any string literal `'<namespace>:<key>'`. */
function usedKeys(): Map<string, string> {
  const pattern = new RegExp(`['"\`](${NAMESPACES.join('|')}):([A-Za-z0-9_.-]+)['"\`]`, 'g');
  const used = new Map<string, string>();
  for (const file of sourceFiles(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(pattern)) {
      used.set(`${m[1]}:${m[2]}`, path.relative(WEB, file));
    }
  }
  return used;
}

describe('translations', () => {
  const en = keysOf('en-US');
  const fr = keysOf('fr');

  it('has a file for every namespace in every language', () => {
    for (const lang of LANGUAGES) {
      for (const ns of NAMESPACES)
        expect(existsSync(path.join(LOCALES, lang, `${ns}.json`)), `${lang}/${ns}`).toBe(true);
    }
  });

  it('has the same keys in en-US and fr', () => {
    expect(
      [...en.keys()].filter((k) => !fr.has(k)),
      'missing in fr',
    ).toEqual([]);
    expect(
      [...fr.keys()].filter((k) => !en.has(k)),
      'missing in en-US',
    ).toEqual([]);
  });

  it('has no empty text', () => {
    for (const [lang, keys] of [
      ['en-US', en],
      ['fr', fr],
    ] as const) {
      expect(
        [...keys].filter(([, v]) => v.trim() === '').map(([k]) => k),
        lang,
      ).toEqual([]);
    }
  });

  it('knows every key the code uses', () => {
    const used = usedKeys();
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter(([k]) => !en.has(k) && !fr.has(k)).map(([k, file]) => `${k} (${file})`);
    expect(missing).toEqual([]);
  });

  it('translates every error code of the API', async () => {
    const codesFile = path.resolve(WEB, '..', 'api', 'src', 'errors.codes.ts');
    const codes = new Set<string>(['INTERNAL', 'NOT_FOUND', 'VALIDATION_FAILED', 'UNAUTHORIZED', 'FORBIDDEN']);
    if (existsSync(codesFile)) {
      const mod = (await import(pathToFileURL(codesFile).href)) as Record<string, unknown>;
      for (const value of Object.values(mod)) {
        if (value && typeof value === 'object') {
          for (const v of Object.values(value as Record<string, unknown>)) if (typeof v === 'string') codes.add(v);
        }
      }
    }
    const missing = [...codes].filter((c) => !en.has(`errors:${c}`) || !fr.has(`errors:${c}`));
    expect(missing).toEqual([]);
  });
});
