import { readFileSync } from 'node:fs';
import path from 'node:path';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { queueMessage, stepLabel } from './project-status.js';
import type { JobSummary } from './projects.types.js';

const LOCALES = path.resolve(import.meta.dirname, '..', '..', '..', 'public', 'locales');
const load = (lang: string) => JSON.parse(readFileSync(path.join(LOCALES, lang, 'projects.json'), 'utf8'));

async function translator(lng: string): Promise<TFunction> {
  const instance = i18next.createInstance();
  await instance.init({
    lng,
    fallbackLng: false,
    resources: { [lng]: { projects: load(lng) } },
    interpolation: { escapeValue: false },
  });
  return instance.t;
}

const NOW = Date.parse('2026-11-26T10:00:00Z');
const pending = (queue: Partial<NonNullable<JobSummary['queue']>> | undefined): JobSummary => ({
  id: '7',
  state: 'PENDING',
  step: null,
  percentage: 0,
  errorCode: null,
  errorMessage: null,
  updatedAt: '2026-11-26T09:59:00Z',
  ...(queue
    ? {
        queue: {
          position: 1,
          running: 0,
          workers: 1,
          waitingForPointCloud: false,
          queuedAt: '2026-11-26T09:59:00Z',
          startedAt: null,
          runAt: '2026-11-26T09:59:00Z',
          attempts: 0,
          maxAttempts: 5,
          ...queue,
        },
      }
    : {}),
});

describe('waiting messages from the queue’s real state', () => {
  let en: TFunction;
  let fr: TFunction;
  beforeAll(async () => {
    [en, fr] = await Promise.all([translator('en-US'), translator('fr')]);
  });

  it('never promises a fixed delay', () => {
    for (const lang of ['en-US', 'fr']) {
      expect(JSON.stringify(load(lang))).not.toMatch(/3 minutes/);
    }
    expect(queueMessage(en, 'en-US', pending(undefined), NOW)).toBe('Waiting to start');
  });

  it('says the place in the queue and what runs, in English and French', () => {
    expect(queueMessage(en, 'en-US', pending({}), NOW)).toBe('next in the queue');
    expect(queueMessage(en, 'en-US', pending({ position: 4, running: 2 }), NOW)).toBe(
      'in the queue, 3 jobs ahead · 2 jobs running',
    );
    expect(queueMessage(en, 'en-US', pending({ position: 2, running: 1 }), NOW)).toBe(
      'in the queue, 1 job ahead · 1 job running',
    );
    expect(queueMessage(fr, 'fr', pending({ position: 3, running: 1 }), NOW)).toBe(
      'dans la file, 2 tâches devant · 1 tâche en cours',
    );
  });

  it('says when no worker runs, when a retry waits, and when a processing waits for its point cloud', () => {
    expect(queueMessage(en, 'en-US', pending({ workers: 0 }), NOW)).toBe(
      'next in the queue · no worker is running at the moment: it starts when one does',
    );
    const retry = queueMessage(en, 'en-US', pending({ runAt: '2026-11-26T10:05:00Z', attempts: 1 }), NOW);
    expect(retry).toMatch(/^next in the queue · attempt 2 of 5 at \d{2}:\d{2}/);
    expect(queueMessage(en, 'en-US', pending({ waitingForPointCloud: true, position: null }), NOW)).toBe(
      'waits for the point cloud to be ready',
    );
    expect(queueMessage(fr, 'fr', pending({ waitingForPointCloud: true, position: null }), NOW)).toBe(
      'attend que le nuage de points soit prêt',
    );
  });
});

describe('the step of a processing job', () => {
  const products = [{ id: 'contours', assetType: 'CONTOUR_LINE', title: 'Contour lines' }];
  const withViewer = async (lng: string) => {
    const instance = i18next.createInstance();
    const viewer = JSON.parse(readFileSync(path.join(LOCALES, lng, 'viewer.json'), 'utf8'));
    await instance.init({
      lng,
      fallbackLng: false,
      resources: { [lng]: { projects: load(lng), viewer } },
      interpolation: { escapeValue: false },
    });
    return instance.t;
  };

  it('names a product and its own steps (storing) by its layer, never by its id', async () => {
    for (const lng of ['en-US', 'fr']) {
      const t = await withViewer(lng);
      const name = t('viewer:assetTypes.CONTOUR_LINE');
      expect(name).not.toBe('viewer:assetTypes.CONTOUR_LINE');
      expect(stepLabel(t, { step: 'contours', state: 'PROGRESS' }, products)).toBe(name);
      expect(stepLabel(t, { step: 'contours:storing', state: 'PROGRESS' }, products)).toBe(name);
      expect(stepLabel(t, { step: 'contours:storing', state: 'PROGRESS' }, products)).not.toContain(':');
    }
  });
});
