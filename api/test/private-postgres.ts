import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A PostgreSQL server of one test file's own, which the test may stop and start. */
export interface PrivatePostgres {
  /** Connection string of its `postgres` database. */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: clients are disconnected, new connections are refused. */
  stop(): Promise<void>;
  /** `pg_ctl start -w`: back once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its data folder. */
  destroy(): Promise<void>;
}

/** The bin folder of the newest PostgreSQL under /usr/lib/postgresql, or null. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * initdb + pg_ctl into a temporary folder on a free loopback port (trust
 * authentication, PostGIS available when installed on the machine). PostgreSQL
 * refuses to run as root: as root, the server runs as the `postgres` user.
 *
 * @example
 * const pg = await startPrivatePostgres();
 * await pg.stop(); await pg.start();
 * await pg.destroy();
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql/*/bin');
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(tmpdir(), 'nuage-private-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const exec = async (tool: string, args: string[]) => {
    const file = path.join(bin, tool);
    return asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args);
  };
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  const start = async () => {
    await exec('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
  };
  const stop = async () => {
    await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      await stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
