import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig, REPO_ROOT } from './config.js';

describe('config', () => {
  it('uses the documented defaults and the embedded database when DATABASE_URL is unset', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.databaseKind).toBe('embedded');
    expect(c.STORAGE_DIR).toBe(path.join(REPO_ROOT, 'data', 'files'));
    expect(c.EMBEDDED_DB_DIR).toBe(path.join(REPO_ROOT, 'data', 'db'));
  });

  it('follows DATA_DIR and PORT, and switches to the server database with DATABASE_URL', () => {
    const c = loadConfig({ DATA_DIR: '/srv/nuage', PORT: '9000', DATABASE_URL: 'postgres://x@db/nuage' });
    expect(c.STORAGE_DIR).toBe('/srv/nuage/files');
    expect(c.PUBLIC_URL).toBe('http://localhost:9000');
    expect(c.databaseKind).toBe('server');
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', ADMIN_EMAIL: 'nope' })).toThrow(/PORT[\s\S]*ADMIN_EMAIL/);
  });

  it('is documented in README: every variable appears in the configuration table', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    for (const key of Object.keys(CONFIG_VARIABLES)) expect(readme).toContain(`| \`${key}\` |`);
  });
});
