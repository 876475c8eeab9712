/**
 * The IDOR matrix: every operation of the OpenAPI document that names a
 * resource (a path parameter, or an id in its query or body) is called on
 * Ada's resources by Bob (another user), by an anonymous client and with a
 * made-up share token; none may succeed, and Ada's project must come out
 * unchanged. Built from api/openapi.json, so a new route joins the matrix by
 * itself. Ada's own calls are the control: the same requests work for her.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, getProject, type TestUser, testUser, uploadRealFile } from './projects.js';

interface Operation {
  method: string;
  path: string;
  query: string[];
  hasBody: boolean;
  public: boolean;
}

const OPENAPI = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', 'openapi.json'), 'utf8')) as {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ name: string; in: string; required?: boolean }>;
        requestBody?: unknown;
        security?: unknown[];
      }
    >
  >;
};

/** Query or body names that point at someone's resource. */
const ID_NAMES = /^(id|assetId|layerId|projectId|userId|jobId|clipId)$/;

/** Operations that act on the caller's own account only, or on no resource (they take no foreign id). */
function namesAResource(op: Operation): boolean {
  if (op.public) return false;
  if (/\{[^}]+\}/.test(op.path)) return true;
  if (op.query.some((q) => ID_NAMES.test(q))) return true;
  // Body-addressed operations on assets and projects.
  return op.hasBody && /^\/(assets|projects)\b/.test(op.path) && `${op.method} ${op.path}` !== 'POST /projects';
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [p, methods] of Object.entries(OPENAPI.paths)) {
    for (const [method, o] of Object.entries(methods)) {
      out.push({
        method: method.toUpperCase(),
        path: p,
        query: (o.parameters ?? []).filter((x) => x.in === 'query' && x.required).map((x) => x.name),
        hasBody: Boolean(o.requestBody),
        public: Array.isArray(o.security) && o.security.length === 0,
      });
    }
  }
  return out.filter(namesAResource);
}

describe('IDOR matrix: Bob, an anonymous client and a made-up share token against every operation on Ada’s resources', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let ids: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    [ada, bob] = await Promise.all([testUser(t, 'ada@example.com'), testUser(t, 'bob@example.com')]);
    const { project, assetId } = await uploadRealFile(t, ada, 'Ada’s survey', 'warsaw_small.las');
    const layerId = project.layers[0].id;
    const tokens = await json(
      await t.app.request('/api/users/current/access-tokens', as(ada, 'POST', { name: 'qgis' })),
    );
    ids = {
      project: project.id,
      asset: assetId,
      layer: layerId,
      user: ada.id,
      accessToken: String(tokens.id ?? tokens.token?.id ?? '1'),
    };
  });
  afterAll(() => t.close());

  /** The request of `op` aimed at Ada's resources. */
  function aimedAtAda(op: Operation): { url: string; body: Record<string, unknown> | undefined } {
    const resource = op.path.startsWith('/assets')
      ? ids.asset
      : op.path.startsWith('/users/current/access-tokens')
        ? ids.accessToken
        : op.path.startsWith('/users') || op.path.startsWith('/admin/subscriptions')
          ? ids.user
          : ids.project;
    let p = op.path.replace(/\{(id|projectId)\}/g, (_, name: string) =>
      name === 'projectId' ? ids.project! : resource!,
    );
    p = p.replace(/\{[^}]+\}/g, '1');
    const q = new URLSearchParams();
    for (const name of op.query) {
      if (name === 'id') q.set('id', op.path.startsWith('/assets') ? ids.asset! : ids.project!);
      else if (name === 'layerId') q.set('layerId', ids.layer!);
      else if (name === 'extension') q.set('extension', 'las');
      else if (name === 'token') q.set('token', 'made-up-share-token');
      else if (name === 'tilesUrl') q.set('tilesUrl', 'http://localhost/tiles/s/x/1/');
      else q.set(name, ids.project!);
    }
    const body = !op.hasBody
      ? undefined
      : op.path.includes('/classification-edits')
        ? // A valid edit (strict body): Bob gets past validation and meets the access check.
          {
            region: {
              kind: 'map',
              polygon: [
                [21, 52],
                [21.1, 52],
                [21, 52.1],
              ],
            },
            toClass: 6,
          }
        : {
            id: ids.asset,
            assetId: ids.asset,
            layerId: ids.layer,
            projectId: ids.project,
            name: 'hijacked',
            epsgCode: 2180,
            type: 'POINT_CLOUD',
            filename: 'x.las',
            fileSize: 1000,
            token: 'made-up-share-token',
          };
    const qs = q.toString();
    return { url: `/api${p}${qs ? `?${qs}` : ''}`, body };
  }

  it('refuses every one of them to Bob (no 2xx), and to an anonymous client (401/403/404/400)', async () => {
    const ops = operations();
    // The matrix covers the resource routes (projects, assets, users, admin, measure, clip, exports, tiles…).
    expect(ops.length).toBeGreaterThan(40);
    const allowed: string[] = [];
    const anonymousAllowed: string[] = [];
    for (const op of ops) {
      const { url, body } = aimedAtAda(op);
      const asBob = await t.app.request(url, as(bob, op.method, body));
      if (asBob.status < 300) allowed.push(`${op.method} ${url} → ${asBob.status}`);
      const anon = await t.app.request(url, {
        method: op.method,
        headers: { 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (anon.status < 300 || ![400, 401, 403, 404, 405, 409, 413].includes(anon.status)) {
        anonymousAllowed.push(`${op.method} ${url} → ${anon.status}`);
      }
    }
    expect(allowed).toEqual([]);
    expect(anonymousAllowed).toEqual([]);
    // The classification edit routes are in the matrix, and Bob meets 404 on each (not a validation error).
    const editOps = ops.filter((op) => op.path.startsWith('/projects/{id}/classification-edits'));
    expect(editOps.length).toBe(7);
    for (const op of editOps) {
      const { url, body } = aimedAtAda(op);
      const res = await t.app.request(url, as(bob, op.method, body));
      expect([url, res.status, (await json(res)).error?.code]).toEqual([url, 404, 'PROJECT_NOT_FOUND']);
    }
    // Control: the same GET requests, made by Ada, reach her resources (the matrix aims right).
    const adaOk: string[] = [];
    for (const op of ops.filter((o) => o.method === 'GET' && !o.path.startsWith('/admin'))) {
      const { url } = aimedAtAda(op);
      const res = await t.app.request(url, as(ada, 'GET'));
      if (res.status < 300) adaOk.push(`${op.path}`);
    }
    expect(adaOk).toEqual(
      expect.arrayContaining([
        '/projects/{id}',
        '/projects/{id}/jobs',
        '/assets',
        '/assets/custom-tiler/file-supplier-url',
      ]),
    );
  }, 120_000);

  it('leaves Ada’s project, upload and token as they were, and Ada can still use them', async () => {
    const p = await getProject(t, ada, ids.project!);
    expect(p.name).toBe('Ada’s survey');
    expect(p.shareToken).toBeNull();
    expect(p.layers[0].assets.map((a: { id: string }) => a.id)).toContain(ids.asset);
    const tokens = await json(await t.app.request('/api/users/current/access-tokens', as(ada, 'GET')));
    expect(tokens.results.length).toBe(1);
    // Control: the owner's own call of one of the matrix's operations works.
    const rename = await t.app.request(`/api/projects/${ids.project}`, as(ada, 'PATCH', { name: 'Ada’s survey 2' }));
    expect(rename.status).toBe(200);
    expect(await json(await t.app.request(`/api/projects/${ids.project}`, as(bob, 'GET')))).toMatchObject({
      error: { code: expect.any(String) },
    });
  });
});
