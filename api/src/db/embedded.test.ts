import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedDatabase } from './embedded.js';

describe('embedded database (PGlite + PostGIS behind the multiplexing socket)', () => {
  let emb: EmbeddedDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    emb = await startEmbeddedDatabase({ dir: 'memory://' });
    pool = new pg.Pool({ connectionString: emb.url, max: 8 });
    await pool.query('CREATE TABLE t (id int PRIMARY KEY, v text)');
  }, 180_000);
  afterAll(async () => {
    await pool?.end();
    await emb?.stop();
  });

  it('serves PostGIS: ST_Transform from WGS84 to Lambert-93', async () => {
    const { rows } = await pool.query<{ x: number; y: number }>(
      'SELECT ST_X(p) AS x, ST_Y(p) AS y FROM (SELECT ST_Transform(ST_SetSRID(ST_MakePoint($1::float8, $2::float8), 4326), 2154) AS p) s',
      [2, 48],
    );
    expect(rows[0]!.x).toBeCloseTo(625422.4, 0);
    expect(rows[0]!.y).toBeCloseTo(6767095.9, 0);
  });

  it('keeps many concurrent parameterised queries and transactions apart', async () => {
    // Parameterised queries use the extended protocol (Parse/Bind/Execute/Sync):
    // interleaving them message by message would break them.
    const work = Array.from({ length: 40 }, async (_, i) => {
      if (i % 4 === 0) {
        const c = await pool.connect();
        try {
          await c.query('BEGIN');
          await c.query('INSERT INTO t (id, v) VALUES ($1, $2)', [i, `row ${i}`]);
          const r = await c.query<{ v: string }>('SELECT v FROM t WHERE id = $1', [i]);
          await c.query(i % 8 === 0 ? 'COMMIT' : 'ROLLBACK');
          return r.rows[0]!.v;
        } finally {
          c.release();
        }
      }
      const r = await pool.query<{ n: number }>('SELECT $1::int * 2 AS n', [i]);
      return String(r.rows[0]!.n);
    });
    const results = await Promise.all(work);
    expect(results).toEqual(results.map((_, i) => (i % 4 === 0 ? `row ${i}` : String(i * 2))));
    const { rows } = await pool.query<{ id: number }>('SELECT id FROM t ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual([0, 8, 16, 24, 32]);
  });

  it('isolates two interleaved transactions on two connections', async () => {
    const a = await pool.connect();
    const b = await pool.connect();
    try {
      await a.query('BEGIN');
      await a.query('INSERT INTO t (id, v) VALUES (100, $1)', ['from a']);
      // b's read waits for a's transaction to end, then sees only committed data.
      const bRead = b.query<{ n: string }>('SELECT count(*) AS n FROM t WHERE id = 100');
      await a.query('ROLLBACK');
      expect((await bRead).rows[0]!.n).toBe('0');
    } finally {
      a.release();
      b.release();
    }
  });

  it('rolls back the transaction of a client that disconnects in the middle of it', async () => {
    const c = new pg.Client({ connectionString: emb.url });
    await c.connect();
    await c.query('BEGIN');
    await c.query('INSERT INTO t (id, v) VALUES (200, $1)', ['lost']);
    await c.end();
    const { rows } = await pool.query('SELECT 1 FROM t WHERE id = 200');
    expect(rows).toHaveLength(0);
  });

  it('answers a SQL error without breaking the connection', async () => {
    await expect(pool.query('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
  });
});
