import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig, REPO_ROOT } from './config.js';

/**
 * No Docker engine runs on the development machines, so `docker compose up`
 * cannot be run here: this checks what it would start instead — the services,
 * the commands they run, and that the API's and workers' environment is a
 * valid configuration for many machines (a PostGIS server, an S3 bucket).
 */
describe('docker-compose.yml (many machines: PostGIS, MinIO, API, workers)', () => {
  const compose = parse(readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'));
  const scripts = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<
    string,
    string
  >;
  const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');

  it('runs PostGIS, an S3-compatible store, one API and several workers from the one image', () => {
    const s = compose.services;
    expect(Object.keys(s).sort()).toEqual(['api', 'db', 's3', 'worker']);
    expect(s.db.image).toMatch(/^postgis\/postgis:/);
    expect(s.s3.image).toMatch(/^minio\/minio/);
    for (const role of ['api', 'worker']) {
      expect(s[role].build).toBe('.');
      const [npm, run, script] = s[role].command as string[];
      expect([npm, run]).toEqual(['npm', 'run']);
      expect(scripts[script!], `package.json script ${script}`).toMatch(new RegExp(`--role ${role}$`));
      expect(s[role].depends_on.db.condition).toBe('service_healthy');
    }
    expect(s.worker.deploy.replicas).toBeGreaterThanOrEqual(2);
  });

  it('gives the API and the workers the same valid server configuration (database, bucket)', () => {
    const api = compose.services.api.environment as Record<string, string>;
    expect(compose.services.worker.environment).toEqual(api);
    for (const key of Object.keys(api)) {
      if (key.startsWith('AWS_')) continue;
      expect(Object.keys(CONFIG_VARIABLES), `${key} is a known variable`).toContain(key);
    }
    const config = loadConfig(api);
    expect(config.databaseKind).toBe('server');
    expect(new URL(config.DATABASE_URL).host).toBe('db:5432');
    const storage = new URL(config.STORAGE_URL);
    expect(storage.protocol).toBe('s3:');
    expect(storage.searchParams.get('endpoint')).toBe('http://s3:9000');
  });

  it('builds an image holding every workspace the commands need', () => {
    const workspaces = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).workspaces as string[];
    for (const w of workspaces) expect(dockerfile).toContain(`COPY ${w}/package.json ${w}/`);
    expect(dockerfile).toMatch(/RUN npm ci/);
    expect(dockerfile).toMatch(/RUN npm run build/);
    expect(scripts.build).toBeTruthy();
  });
});
