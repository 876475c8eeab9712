import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { realFile } from '@nuage/fixtures/real-data.js';
import { startWorker, type WorkerHandle } from '../src/worker/runner.js';
import { bearer, insertUser, json, login, send } from './accounts.js';
import type { TestApp } from './app.js';

/** A logged-in test user: id, bearer token and an Authorization header. */
export interface TestUser {
  id: string;
  email: string;
  token: string;
  auth: Record<string, string>;
}

/** Creates and logs in a user (`roles` default ['user']). */
export async function testUser(t: TestApp, email: string, roles: string[] = ['user']): Promise<TestUser> {
  const id = await insertUser(t, { email, roles });
  const { token } = await login(t, email);
  return { id, email, token, auth: bearer(token) };
}

/** A JSON request with a user's bearer token. */
export function as(user: TestUser, method: string, body?: unknown): RequestInit {
  return send(method, body, user.auth);
}

/** Creates a project and returns its body (with layers). */
// biome-ignore lint/suspicious/noExplicitAny: test bodies are arbitrary JSON
export async function createProject(t: TestApp, user: TestUser, name: string): Promise<any> {
  const res = await t.app.request('/api/projects', as(user, 'POST', { name }));
  if (res.status !== 201) throw new Error(`create project ${name}: ${res.status} ${await res.text()}`);
  return json(res);
}

/** The point cloud layer id of a project body. */
// biome-ignore lint/suspicious/noExplicitAny: test bodies are arbitrary JSON
export function cloudLayerId(project: any): string {
  return project.layers.find((l: { type: string }) => l.type === 'POINT_CLOUD').id;
}

/** Asks for an upload URL for bytes of a given size and name. */
export async function uploadUrl(
  t: TestApp,
  user: TestUser,
  layerId: string,
  filename: string,
  fileSize: number,
  extra: Record<string, unknown> = {},
): Promise<Response> {
  return t.app.request(
    '/api/assets/upload-signed-url',
    as(user, 'POST', { layerId, type: 'POINT_CLOUD', filename, fileSize, lasHeaderData: {}, ...extra }),
  );
}

/** PUTs bytes to a signed URL through the app. */
export async function putBytes(
  t: TestApp,
  signedUrl: string,
  bytes: Uint8Array | ReadableStream<Uint8Array>,
): Promise<Response> {
  const init: RequestInit & { duplex?: 'half' } = {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes as RequestInit['body'],
  };
  if (bytes instanceof ReadableStream) init.duplex = 'half';
  else (init.headers as Record<string, string>)['content-length'] = String(bytes.byteLength);
  return await t.app.request(signedUrl, init);
}

/**
 * Creates a project and uploads a real file into it (steps 1 and 2 of the
 * upload flow); returns the project and the asset id.
 */
export async function uploadRealFile(
  t: TestApp,
  user: TestUser,
  projectName: string,
  file: string,
  extra: Record<string, unknown> = {},
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are arbitrary JSON
): Promise<{ project: any; assetId: string }> {
  const project = await createProject(t, user, projectName);
  const full = path.isAbsolute(file) ? file : realFile(file);
  const size = (await stat(full)).size;
  const urlRes = await uploadUrl(t, user, cloudLayerId(project), encodeURIComponent(path.basename(full)), size, extra);
  if (urlRes.status !== 200) throw new Error(`upload url: ${urlRes.status} ${await urlRes.text()}`);
  const { signedUrl, asset } = await json(urlRes);
  const put = await putBytes(t, signedUrl, new Uint8Array(await readFile(full)));
  if (put.status !== 200) throw new Error(`upload: ${put.status} ${await put.text()}`);
  return { project, assetId: asset.id };
}

/** Starts a worker on the test database (stop it in afterAll). */
export function testWorker(t: TestApp): Promise<WorkerHandle> {
  return startWorker(t.deps, { databaseUrl: t.tdb.url });
}

/** Polls `fn` until it returns a truthy value (or throws after `timeoutMs`). */
export async function waitFor<T>(
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
  what = 'condition',
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The project as its owner sees it. */
// biome-ignore lint/suspicious/noExplicitAny: test bodies are arbitrary JSON
export async function getProject(t: TestApp, user: TestUser, id: string): Promise<any> {
  const res = await t.app.request(`/api/projects/${id}`, as(user, 'GET'));
  if (res.status !== 200) throw new Error(`get project ${id}: ${res.status} ${await res.text()}`);
  return json(res);
}

/** The POINT_CLOUD asset of a project body. */
// biome-ignore lint/suspicious/noExplicitAny: test bodies are arbitrary JSON
export function cloudAsset(project: any): any {
  return project.layers
    .flatMap((l: { assets: unknown[] }) => l.assets)
    .find((a: { type: string }) => a.type === 'POINT_CLOUD');
}
