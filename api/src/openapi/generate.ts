import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { createApp } from '../app.js';
import { loadConfig, REPO_ROOT } from '../config.js';
import { createDatabase } from '../db/client.js';
import { createLogger } from '../log.js';
import { openLocalStorage } from '../storage.js';

/** The committed OpenAPI document. */
export const OPENAPI_FILE = path.join(REPO_ROOT, 'api', 'openapi.json');
/** The web client's types, generated from the document. */
export const CLIENT_TYPES_FILE = path.join(REPO_ROOT, 'web', 'src', 'shared', 'api', 'schema.generated.ts');

const HEADER = `/**
 * Types of the Nuage API, generated from api/openapi.json by openapi-typescript.
 * Do not edit: run \`npm run generate\` (a test fails when this file drifts).
 */

`;

/**
 * The document the app serves at /api/openapi.json, built from an app whose
 * database is never reached (route groups do no I/O when they are built).
 */
export async function buildServedDocument(): Promise<OpenAPI3> {
  const dataDir = path.join(tmpdir(), 'nuage-openapi');
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'postgres://offline@127.0.0.1:1/x',
  });
  const database = createDatabase(config.DATABASE_URL, { max: 1 });
  try {
    const app = createApp({
      config,
      database,
      log: createLogger({ level: 'silent', role: 'generate' }),
      storage: await openLocalStorage(path.join(dataDir, 'files')),
      migrationVersion: 0,
    });
    const res = await app.request('/api/openapi.json');
    if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
    return (await res.json()) as OpenAPI3;
  } finally {
    await database.close();
  }
}

/** The contents both generated files must have. */
export async function renderGeneratedFiles(): Promise<{ openapi: string; clientTypes: string }> {
  const document = await buildServedDocument();
  const ast = await openapiTS(document, { alphabetize: false });
  return { openapi: `${JSON.stringify(document, null, 2)}\n`, clientTypes: HEADER + astToString(ast) };
}

/**
 * Writes api/openapi.json and web/src/shared/api/schema.generated.ts, or with
 * `check` only reports which of them differ from what generation produces.
 * @returns the files that changed (or would change).
 */
export async function generateApiFiles(options: { check?: boolean } = {}): Promise<string[]> {
  const { openapi, clientTypes } = await renderGeneratedFiles();
  const changed: string[] = [];
  for (const [file, content] of [
    [OPENAPI_FILE, openapi],
    [CLIENT_TYPES_FILE, clientTypes],
  ] as const) {
    const current = await readFile(file, 'utf8').catch(() => null);
    if (current === content) continue;
    changed.push(path.relative(REPO_ROOT, file));
    if (!options.check) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
    }
  }
  return changed;
}
