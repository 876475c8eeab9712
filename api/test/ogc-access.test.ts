import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectionStats, findCollection, listCollectionsOfOwner } from '../src/db/queries/features.queries.js';
import { bearer, json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, createProject, type TestUser, testUser } from './projects.js';

/**
 * The OGC routes of one collection (document, items, tiles) read the token or
 * share, its user and the collection in a single query, with nothing cached:
 * what the credentials may open is decided afresh on every request.
 */
describe('OGC collection requests: credentials and collection in one round trip, decided on every request', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let projectId: string;
  let grid: string;
  let other: string;
  /** Queries the app's pool ran (kysely checks a client out per query). */
  let queries = 0;

  const get = (path: string, headers: Record<string, string> = {}) => t.app.request(path, { headers });
  const makeToken = async (user: TestUser, body: Record<string, unknown> = { name: 'GIS' }) =>
    json(await t.app.request('/api/users/current/access-tokens', as(user, 'POST', body)));
  const counted = async (path: string, headers: Record<string, string>) => {
    const before = queries;
    const res = await get(path, headers);
    await res.arrayBuffer();
    return { status: res.status, queries: queries - before };
  };

  /** A READY vector asset of a project with a 20 × 20 grid of points near 138.55°E 35.05°S. */
  async function vectorAsset(project: string, type: string): Promise<string> {
    const { db } = t.tdb;
    const layer = await db
      .insertInto('layers')
      .values({ project_id: project, name: `Vectors ${type}`, type: 'VECTOR' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id } = await db
      .insertInto('assets')
      .values({ project_id: project, layer_id: layer.id, type, status: 'READY', name: type.toLowerCase() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`
      INSERT INTO features (asset_id, geom, properties)
      SELECT ${id}, ST_SetSRID(ST_MakePoint(138.55 + i * 0.0002, -35.05 + j * 0.0002), 4326),
             jsonb_build_object('elevation', i * 20 + j)
      FROM generate_series(0, 19) i, generate_series(0, 19) j`.execute(db);
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    ada = await testUser(t, 'ada.ogc-access@example.com');
    bob = await testUser(t, 'bob.ogc-access@example.com');
    admin = await testUser(t, 'admin.ogc-access@example.com', ['user', 'admin']);
    projectId = (await createProject(t, ada, 'Access')).id;
    grid = await vectorAsset(projectId, 'GRID');
    other = await vectorAsset((await createProject(t, bob, 'Elsewhere')).id, 'GRID');
    t.tdb.pool.on('acquire', () => {
      queries++;
    });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('answers an items page and a tile with a personal access token after one look-up query', async () => {
    const { token } = await makeToken(ada);
    const auth = bearer(token);
    // The first request also reads the collection's count and extent, kept per asset version.
    expect((await counted(`/ogc/collections/${grid}/items?limit=5`, auth)).status).toBe(200);
    // Then the look-up, then the page.
    expect(await counted(`/ogc/collections/${grid}/items?limit=5&offset=10`, auth)).toEqual({
      status: 200,
      queries: 2,
    });
    expect(
      await counted(`/ogc/collections/${grid}/items?limit=5&bbox=138.5499,-35.0501,138.5503,-35.0497`, auth),
    ).toEqual({ status: 200, queries: 2 });
    // A CQL2 filter: the look-up, then the page (the first one also reads the queryables, kept per asset version).
    expect((await counted(`/ogc/collections/${grid}/items?limit=5&filter=elevation>50`, auth)).status).toBe(200);
    expect(await counted(`/ogc/collections/${grid}/items?limit=5&filter=elevation>100`, auth)).toEqual({
      status: 200,
      queries: 2,
    });
    expect(await counted(`/ogc/collections/${grid}?token=${token}`, {})).toEqual({ status: 200, queries: 1 });
    // A tile made on first request: the look-up, then ST_AsMVT.
    const tile = `/ogc/collections/${grid}/tiles/WebMercatorQuad/16/39588/57990`;
    const made = await get(tile, auth);
    expect(made.status).toBe(200);
    const bytes = Buffer.from(await made.arrayBuffer());
    const etag = made.headers.get('etag');
    // From the tiles store: the look-up only; the same bytes and entity tag.
    const stored = await get(tile, auth);
    expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true);
    expect(stored.headers.get('etag')).toBe(etag);
    expect(await counted(tile, auth)).toEqual({ status: 200, queries: 1 });
    expect(await counted(`/ogc/collections/${grid}/tiles/WebMercatorQuad/17/79176/115980`, auth)).toEqual({
      status: 200,
      queries: 2,
    });
    // Another user's token, with the tile in the store and the collection seen: 404, nothing handed out.
    const bobs = bearer((await makeToken(bob)).token);
    expect((await get(tile, bobs)).status).toBe(404);
    expect((await get(`/ogc/collections/${grid}/tiles/WebMercatorQuad/15/19794/28995`, bobs)).status).toBe(404);
    expect((await get(`/ogc/collections/${grid}/items?limit=5`, bobs)).status).toBe(404);
    // A bad address is told after the credentials.
    expect((await get(`/ogc/collections/${grid}/tiles/WebMercatorQuad/16/x/57990`, bobs)).status).toBe(404);
    expect((await get(`/ogc/collections/${grid}/tiles/WebMercatorQuad/16/x/57990`, auth)).status).toBe(400);
    expect((await get(`/ogc/collections/${grid}/tiles/OtherQuad/16/39588/57990`, bobs)).status).toBe(404);
    const page = await json(
      await get(`/ogc/collections/${grid}/items?limit=5&bbox=138.5499,-35.0501,138.5503,-35.0497`, auth),
    );
    expect(page.numberMatched).toBe(4);
    expect(page.features.map((f: { id: number }) => f.id)).toEqual(
      [...page.features.map((f: { id: number }) => f.id)].sort((a, b) => a - b),
    );
  });

  it('lets browsers of any origin read answers and errors (CORS), and answers preflights', async () => {
    const auth = { ...bearer((await makeToken(ada)).token), origin: 'https://gis.example.org' };
    for (const path of [
      `/ogc/collections/${grid}/items?limit=2`,
      `/ogc/collections/${grid}/tiles/WebMercatorQuad/16/39588/57990`,
      '/ogc/collections/99999999/items',
      '/ogc',
    ]) {
      const res = await get(path, auth);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      await res.arrayBuffer();
    }
    const items = await get(`/ogc/collections/${grid}/items?limit=2`, auth);
    expect(items.headers.get('access-control-expose-headers')).toBe('ETag,Content-Crs,Content-Length');
    expect(items.headers.get('content-crs')).toBe('<http://www.opengis.net/def/crs/OGC/1.3/CRS84>');
    expect(items.headers.get('x-content-type-options')).toBe('nosniff');
    const preflight = await t.app.request(`/ogc/collections/${grid}/items`, {
      method: 'OPTIONS',
      headers: { origin: 'https://gis.example.org', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization,If-None-Match');
    expect(preflight.headers.get('access-control-max-age')).toBe('86400');
  });

  it('refuses a revoked, expired or unknown token and a disabled account at the very next request', async () => {
    const made = await makeToken(ada);
    const items = `/ogc/collections/${grid}/items?limit=1`;
    const tile = `/ogc/collections/${grid}/tiles/WebMercatorQuad/16/39588/57990`;
    expect((await get(items, bearer(made.token))).status).toBe(200);
    expect((await get(tile, bearer(made.token))).status).toBe(200);
    expect((await t.app.request(`/api/users/current/access-tokens/${made.id}`, as(ada, 'DELETE'))).status).toBe(204);
    for (const res of [
      await get(items, bearer(made.token)),
      await get(`${items}&token=${made.token}`),
      await get(tile, bearer(made.token)),
      // A tile not stored yet.
      await get(`/ogc/collections/${grid}/tiles/WebMercatorQuad/18/158352/231961`, bearer(made.token)),
      await get(`/ogc/collections/${grid}`, bearer(made.token)),
    ]) {
      expect(res.status).toBe(401);
      expect((await json(res)).code).toBe('ACCESS_TOKEN_INVALID');
    }
    const expiring = await makeToken(ada);
    expect((await get(items, bearer(expiring.token))).status).toBe(200);
    await t.tdb.db
      .updateTable('access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    expect((await get(items, bearer(expiring.token))).status).toBe(401);
    // Unknown or malformed tokens: 401 before the collection is considered, even one that does not exist.
    expect((await get(items, bearer(`nuage_pat_${'x'.repeat(43)}`))).status).toBe(401);
    expect((await get(`/ogc/collections/99999999/items`, bearer(`nuage_pat_${'x'.repeat(43)}`))).status).toBe(401);
    expect((await get(`${items}&token=nuage_pat_short`)).status).toBe(401);
    expect((await get(`${items}&token=not*a*token`)).status).toBe(401);
    const bobs = await makeToken(bob);
    expect((await get(`/ogc/collections/${other}/items?limit=1`, bearer(bobs.token))).status).toBe(200);
    await t.tdb.db.updateTable('users').set({ enabled: false }).where('id', '=', bob.id).execute();
    expect((await get(`/ogc/collections/${other}/items?limit=1`, bearer(bobs.token))).status).toBe(401);
    await t.tdb.db.updateTable('users').set({ enabled: true }).where('id', '=', bob.id).execute();
  });

  it("opens only the collections a token's user may read: 404 for another user's, every one for an admin", async () => {
    const adas = (await makeToken(ada)).token;
    const bobs = (await makeToken(bob)).token;
    const admins = (await makeToken(admin)).token;
    expect((await get(`/ogc/collections/${other}/items?limit=1`, bearer(adas))).status).toBe(404);
    expect((await get(`/ogc/collections/${grid}/items?limit=1`, bearer(bobs))).status).toBe(404);
    expect((await get(`/ogc/collections/${grid}/tiles/WebMercatorQuad/16/39588/57990`, bearer(bobs))).status).toBe(404);
    // A tile not stored yet is made for none of them, and then opens to its owner.
    const fresh = `/ogc/collections/${grid}/tiles/WebMercatorQuad/17/79175/115981`;
    expect((await get(fresh, bearer(bobs))).status).toBe(404);
    expect((await get(fresh, bearer(`nuage_pat_${'x'.repeat(43)}`))).status).toBe(401);
    expect((await get(fresh)).status).toBe(401);
    expect((await get(fresh, bearer(adas))).status).toBe(200);
    expect((await get(`/ogc/collections/${grid}/items?limit=1`, bearer(admins))).status).toBe(200);
    expect((await get(`/ogc/collections/${other}/items?limit=1`, bearer(admins))).status).toBe(200);
    expect((await get(`/ogc/collections/99999999/items`, bearer(adas))).status).toBe(404);
    expect((await get(`/ogc/collections/nope/items`, bearer(adas))).status).toBe(404);
    // Sessions still open their own projects only.
    expect((await get(`/ogc/collections/${grid}/items?limit=1`, ada.auth)).status).toBe(200);
    expect((await get(`/ogc/collections/${grid}/items?limit=1`, bob.auth)).status).toBe(404);
    expect((await get(`/ogc/collections/${grid}/items?limit=1`)).status).toBe(401);
  });

  it("opens a shared project's collections with its share token until the share is revoked", async () => {
    const { token } = await json(await t.app.request(`/api/projects/${projectId}/share-token`, as(ada, 'POST')));
    expect((await counted(`/ogc/collections/${grid}/items?limit=1&token=${token}`, {})).status).toBe(200);
    expect(await counted(`/ogc/collections/${grid}/items?limit=1&token=${token}`, {})).toEqual({
      status: 200,
      queries: 2,
    });
    // Another project's collection: the share opens nothing there.
    expect((await get(`/ogc/collections/${other}/items?limit=1&token=${token}`)).status).toBe(404);
    await t.app.request(`/api/projects/${projectId}/share-token`, as(ada, 'DELETE'));
    const res = await get(`/ogc/collections/${grid}/items?limit=1&token=${token}`);
    expect(res.status).toBe(401);
    expect((await json(res)).code).toBe('ACCESS_TOKEN_INVALID');
    expect((await get(`/ogc/collections/${grid}/tiles/WebMercatorQuad/16/39588/57990?token=${token}`)).status).toBe(
      401,
    );
    expect((await get(`/ogc/collections/${grid}/tiles/WebMercatorQuad/18/158352/231962?token=${token}`)).status).toBe(
      401,
    );
  });

  it('pages by offset the same whether the ids are dense (read from the page start) or not', async () => {
    const { token } = await makeToken(ada);
    const auth = bearer(token);
    // Two collections whose features were stored interleaved: neither has dense ids.
    const { db } = t.tdb;
    const layer = await db
      .selectFrom('layers')
      .select('id')
      .where('project_id', '=', projectId)
      .where('type', '=', 'VECTOR')
      .executeTakeFirstOrThrow();
    const [odd, even] = await Promise.all(
      ['CONTOUR_LINE', 'TREE_TOP'].map(
        async (type) =>
          (
            await db
              .insertInto('assets')
              .values({ project_id: projectId, layer_id: layer.id, type, status: 'READY', name: type })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
      ),
    );
    await sql`
      INSERT INTO features (asset_id, geom, properties)
      SELECT CASE WHEN k % 2 = 1 THEN ${odd}::bigint ELSE ${even}::bigint END,
             ST_SetSRID(ST_MakePoint(138.55 + k * 0.0001, -35.05), 4326), jsonb_build_object('k', k)
      FROM generate_series(1, 60) k`.execute(db);
    const stats = await collectionStats(db, [grid, odd!]);
    expect(stats.get(grid)).toMatchObject({ features: 400, denseFrom: expect.stringMatching(/^\d+$/) });
    expect(stats.get(odd!)).toMatchObject({ features: 30, denseFrom: null });
    const ids = async (collection: string, query: string) =>
      (await json(await get(`/ogc/collections/${collection}/items?${query}`, auth))).features.map(
        (f: { id: number }) => f.id,
      );
    for (const [collection, n] of [
      [grid, 400],
      [odd!, 30],
    ] as const) {
      const all = await ids(collection, 'limit=10000');
      expect(all).toHaveLength(n);
      expect(all).toEqual([...all].sort((a: number, b: number) => a - b));
      for (const offset of [0, 1, 7, n - 3, n - 1, n, n + 5]) {
        expect(await ids(collection, `limit=5&offset=${offset}`), `offset ${offset} of ${n}`).toEqual(
          all.slice(offset, offset + 5),
        );
      }
    }
    // Features replaced behind the statistics' back (same asset version): the page is read again by offset.
    await sql`DELETE FROM features WHERE asset_id = ${grid}`.execute(db);
    await sql`
      INSERT INTO features (asset_id, geom, properties)
      SELECT ${grid}, ST_SetSRID(ST_MakePoint(138.55 + i * 0.0002, -35.05 + j * 0.0002), 4326),
             jsonb_build_object('elevation', i * 20 + j)
      FROM generate_series(0, 19) i, generate_series(0, 19) j`.execute(db);
    const fresh = (
      await sql<{ id: string }>`SELECT id FROM features WHERE asset_id = ${grid} ORDER BY id`.execute(db)
    ).rows.map((r) => Number(r.id));
    expect(await ids(grid, 'limit=3&offset=10')).toEqual(fresh.slice(10, 13));
    // A new version of the collection (as processing stores it: features and updated_at in one transaction), fewer
    // features: its statistics are read again, and the page with them.
    await db.transaction().execute(async (trx) => {
      await sql`DELETE FROM features WHERE asset_id = ${grid}`.execute(trx);
      await sql`
        INSERT INTO features (asset_id, geom, properties)
        SELECT ${grid}, ST_SetSRID(ST_MakePoint(138.56 + k * 0.0002, -35.05), 4326), jsonb_build_object('k', k)
        FROM generate_series(0, 99) k`.execute(trx);
      await sql`UPDATE assets SET updated_at = now() + interval '1 second' WHERE id = ${grid}`.execute(trx);
    });
    const replaced = (
      await sql<{ id: string }>`SELECT id FROM features WHERE asset_id = ${grid} ORDER BY id`.execute(db)
    ).rows.map((r) => Number(r.id));
    const page = await json(await get(`/ogc/collections/${grid}/items?limit=3&offset=98`, auth));
    expect(page.numberMatched).toBe(100);
    expect(page.features.map((f: { id: number }) => f.id)).toEqual(replaced.slice(98, 101));
    expect(page.features[0].properties).toEqual({ k: 98 });
  });

  it("records a token's use once a minute, outside the read-only look-up of each request", async () => {
    const made = await makeToken(ada);
    const auth = bearer(made.token);
    const lastUsed = async () =>
      (
        await t.tdb.db
          .selectFrom('access_tokens')
          .select('last_used_at')
          .where('id', '=', made.id)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    expect(await lastUsed()).toBeNull();
    // Never used: the look-up, the record of the use, the page.
    expect(await counted(`/ogc/collections/${grid}/items?limit=2`, auth)).toEqual({ status: 200, queries: 3 });
    const first = await lastUsed();
    expect(first).not.toBeNull();
    // Recorded less than a minute ago: nothing more to write.
    expect(await counted(`/ogc/collections/${grid}/items?limit=2&offset=4`, auth)).toEqual({ status: 200, queries: 2 });
    expect(await lastUsed()).toEqual(first);
    // Recorded two minutes ago (in the database; this process also remembers when it last wrote it, so moved back too).
    await sql`UPDATE access_tokens SET last_used_at = now() - interval '2 minutes' WHERE id = ${made.id}`.execute(
      t.tdb.db,
    );
    const stale = new Date((await lastUsed())!).getTime();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      expect((await get(`/ogc/collections/${grid}/items?limit=2`, auth)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect(new Date((await lastUsed())!).getTime()).toBeGreaterThan(stale + 60_000);
  });

  it('writes default-CRS items from the GeoJSON text stored with each feature, the same bytes as built from its parts', async () => {
    const { db } = t.tdb;
    const layer = await db
      .selectFrom('layers')
      .select('id')
      .where('project_id', '=', projectId)
      .where('type', '=', 'VECTOR')
      .executeTakeFirstOrThrow();
    const asset = (
      await db
        .insertInto('assets')
        .values({ project_id: projectId, layer_id: layer.id, type: 'POWER_LINE', status: 'READY', name: 'texts' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // 3D lines and points, a polygon with a hole, awkward properties, and an id above 2^53 (a JSON string).
    await sql`
      INSERT INTO features (asset_id, geom, properties) VALUES
        (${asset}, ST_GeomFromText('LINESTRING Z (138.550000001 -35.05 12.25, 138.5512345678912 -35.0498765432101 13.5)', 4326),
         '{"span": 1, "name": "ligne \\"A\\" — été", "nested": {"a": [1, 2.50, null]}, "tiny": 1e-9}'),
        (${asset}, ST_GeomFromText('POINT Z (138.551 -35.049 30.125)', 4326), '{}'),
        (${asset}, ST_GeomFromText('POLYGON ((138.55 -35.05, 138.552 -35.05, 138.552 -35.048, 138.55 -35.05), (138.5505 -35.0498, 138.5515 -35.0498, 138.5515 -35.0490, 138.5505 -35.0498))', 4326),
         '{"kind": "area", "ok": true}')`.execute(db);
    await sql`
      INSERT INTO features (id, asset_id, geom, properties) OVERRIDING SYSTEM VALUE
      VALUES (9007199254740993, ${asset}, ST_SetSRID(ST_MakePoint(138.5501, -35.0501), 4326), '{"big": true}')`.execute(
      db,
    );
    const { ogcCollection, itemsPage, itemsPageGeoJson, featureJson, parseItemsQuery } = await import(
      '../src/services/ogc.service.js'
    );
    const { token } = await makeToken(ada);
    const creds = { tokenParam: undefined, bearer: token, auth: { token: null } as never };
    // This collection's ids are not dense (paged by offset); the grid's are (paged from its first id).
    for (const id of [asset, grid]) {
      const col = await ogcCollection(t.deps, creds, id);
      for (const params of [{}, { offset: '1', limit: '2' }, { bbox: '138.5,-35.1,138.6,-35.0', offset: '1' }]) {
        const q = await parseItemsQuery(t.deps, col, params);
        const parts = await itemsPage(t.deps, col, q);
        const texts = await itemsPageGeoJson(t.deps, col, q);
        expect(parts.rows.length, `${id} ${JSON.stringify(params)}`).toBeGreaterThan(0);
        expect(texts).toEqual({
          matched: parts.matched,
          returned: parts.rows.length,
          features: parts.rows.map((r) => featureJson(r)).join(','),
        });
      }
    }
    const page = await json(await get(`/ogc/collections/${asset}/items`, bearer(token)));
    expect(page.features.map((f: { id: unknown }) => f.id).slice(-1)).toEqual(['9007199254740993']);
    expect(page.features[0].properties).toEqual({
      span: 1,
      name: 'ligne "A" — été',
      nested: { a: [1, 2.5, null] },
      tiny: 1e-9,
    });
    expect(page.features[0].geometry.coordinates[1]).toEqual([138.55123457, -35.04987654, 13.5]);
    // Another CRS is written from the geometry at request time, as before.
    const other = await json(await get(`/ogc/collections/${asset}/items?crs=EPSG:4326&limit=1`, bearer(token)));
    expect(other.features[0].geometry.coordinates[0]).toEqual([-35.05, 138.55, 12.25]);
  });

  it("finds whether a collection has features from the asset index, never by scanning other assets' rows", async () => {
    const { db } = t.tdb;
    // Two more assets, stored after the others, with planner statistics: most rows of the table come before the
    // second one's first row.
    const plans = (await createProject(t, ada, 'Plans')).id;
    const first = await vectorAsset(plans, 'CONTOUR_LINE_MAJOR');
    const second = await vectorAsset((await createProject(t, ada, 'Plans 2')).id, 'CONTOUR_LINE_MINOR');
    for (const id of [first, second]) {
      await sql`
        INSERT INTO features (asset_id, geom, properties)
        SELECT ${id}, ST_SetSRID(ST_MakePoint(138.56 + k * 0.00001, -35.04), 4326), jsonb_build_object('k', k)
        FROM generate_series(1, 3000) k`.execute(db);
    }
    await sql`ANALYZE features`.execute(db);
    const rows = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM features`.execute(db)).rows[0]!.n;
    expect(rows).toBeGreaterThan(6000);
    // Rows read by sequential scans of features (this backend's counters, before and after).
    const seqRowsRead = async (run: (trx: typeof db) => Promise<unknown>) =>
      db.transaction().execute(async (trx) => {
        const read = async () =>
          (
            await sql<{ n: number }>`SELECT pg_stat_get_xact_tuples_returned('features'::regclass)::int AS n`.execute(
              trx,
            )
          ).rows[0]!.n;
        const before = await read();
        await run(trx);
        return (await read()) - before;
      });
    expect(await seqRowsRead(async (trx) => expect((await findCollection(trx, second))?.asset_id).toBe(second))).toBe(
      0,
    );
    expect(
      await seqRowsRead(async (trx) =>
        expect((await listCollectionsOfOwner(trx, ada.id)).map((c) => c.asset_id)).toEqual(
          expect.arrayContaining([grid, first, second]),
        ),
      ),
    ).toBe(0);
  });
});
