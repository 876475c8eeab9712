import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { pidAlive } from '../src/jobs/recovery.js';

const run = promisify(execFile);

/**
 * Network hosts made on this machine for tests that need several machines
 * (issue 24: workers on many hosts sharing only PostgreSQL and the object
 * store). Each host is a network namespace joined to a bridge by a veth pair;
 * its processes also get their own mount, UTS and PID namespaces: a hostname
 * of its own, a tmpfs on /tmp, its own process table (pids start at 1) and the
 * repository read-only. So a host reaches the test process only through the
 * bridge address, shares no writable folder with it or with the other hosts,
 * and cannot see the other hosts' processes.
 *
 * Needs root and iproute2's `ip` and util-linux's `unshare`/`mount`: without
 * them `createNetHosts` throws (tests fail, never skip). Names carry the test
 * process id, so runs side by side do not collide; leftovers of runs that are
 * gone are swept first.
 */

/** One host: its namespace, address and hostname. */
export interface NetHost {
  /** 1-based. */
  index: number;
  /** Network namespace name (`ip netns`). */
  netns: string;
  /** Its address on the bridge. */
  address: string;
  /** What `os.hostname()` says inside it (distinct per host, as on separate machines). */
  hostname: string;
}

/** A command running on a host; `output` keeps what it printed. */
export type HostProcess = ChildProcess & { output: string[]; host: NetHost };

export interface NetHosts {
  /** The host side's address on the bridge: servers the hosts use listen there. */
  gateway: string;
  hosts: NetHost[];
  /**
   * Runs `command` on a host, in fresh mount/UTS/PID namespaces: `/tmp`,
   * `/var/tmp` and `/dev/shm` are empty tmpfs, `readOnly` folders are read-only. Killing the returned process
   * (SIGKILL) kills everything it started on the host (its PID namespace goes).
   */
  spawn(
    host: NetHost,
    command: string[],
    options: { env: NodeJS.ProcessEnv; cwd: string; readOnly?: string[]; name?: string },
  ): HostProcess;
  /** Pids (host side) of the processes still in a host's network namespace. */
  pidsOn(host: NetHost): Promise<number[]>;
  /** A TCP relay on the gateway address to `target` (host:port) on this machine; returns its port. */
  relay(target: { host: string; port: number }): Promise<number>;
  /** Kills every process started on the hosts, closes the relays, deletes namespaces, links and bridge. */
  destroy(): Promise<void>;
}

const PREFIX = 'nuage-';

async function ip(...args: string[]): Promise<string> {
  try {
    return (await run('ip', args)).stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`ip ${args.join(' ')}: ${e.stderr?.trim() || e.message}`);
  }
}

function which(cmd: string): boolean {
  return (process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin').split(':').some((d) => d && existsSync(`${d}/${cmd}`));
}

/** Throws a clear error when this machine cannot make network hosts. */
export function assertCanMakeHosts(): void {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push(`root (running as uid ${process.getuid?.()})`);
  for (const cmd of ['ip', 'unshare', 'mount', 'hostname']) if (!which(cmd)) missing.push(`the \`${cmd}\` command`);
  if (missing.length > 0) {
    throw new Error(
      `this test makes network hosts with Linux namespaces and needs ${missing.join(', ')}; ` +
        'run it as root on Linux with iproute2 and util-linux installed (CI does)',
    );
  }
}

/** Namespaces and links left by runs of this helper whose process is gone. */
async function sweepLeftovers(): Promise<void> {
  const gone = (name: string, re: RegExp) => {
    const m = re.exec(name);
    return m !== null && !pidAlive(Number(m[1]));
  };
  const netns = (await ip('netns', 'list'))
    .split('\n')
    .map((l) => l.split(' ')[0]!)
    .filter(Boolean);
  for (const ns of netns) if (gone(ns, /^nuage-(\d+)-h\d+$/)) await ip('netns', 'del', ns).catch(() => {});
  const links = (await ip('-o', 'link', 'show'))
    .split('\n')
    .map((l) => /^\d+: ([^:@]+)/.exec(l)?.[1])
    .filter((l): l is string => !!l);
  for (const l of links) if (gone(l, /^nu(\d+)(?:br|v\d+)$/)) await ip('link', 'del', l).catch(() => {});
}

/** A free 10.77.X.0/24 (none of this machine's addresses in it), starting from one the pid picks. */
async function freeSubnet(): Promise<string> {
  const used = new Set(
    [...(await ip('-o', '-4', 'addr', 'show')).matchAll(/inet 10\.77\.(\d+)\./g)].map((m) => Number(m[1])),
  );
  for (let i = 0; i < 250; i++) {
    const x = ((process.pid + i) % 250) + 1;
    if (!used.has(x)) return `10.77.${x}`;
  }
  throw new Error('no free 10.77.X.0/24 subnet for the test hosts');
}

/**
 * Makes `count` hosts on a bridge of this run. On failure half-way, what was
 * made is removed before the error is thrown.
 *
 * @example
 * const net = await createNetHosts(3);
 * const p = net.spawn(net.hosts[0]!, ['node', '-e', '…'], { env: {}, cwd: '/' });
 * await net.destroy();
 */
export async function createNetHosts(count: number): Promise<NetHosts> {
  assertCanMakeHosts();
  await sweepLeftovers();
  const pid = process.pid;
  const bridge = `nu${pid}br`;
  const subnet = await freeSubnet();
  const gateway = `${subnet}.1`;
  const hosts: NetHost[] = [];
  const processes: HostProcess[] = [];
  const relays: Array<{ server: Server; sockets: Set<Socket> }> = [];
  let bridgeMade = false;

  const destroy = async () => {
    for (const p of processes) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    await Promise.all(
      processes.map((p) =>
        p.exitCode !== null || p.signalCode !== null ? null : new Promise((r) => p.once('exit', r)),
      ),
    );
    for (const r of relays) {
      for (const s of r.sockets) s.destroy();
      await new Promise((res) => r.server.close(() => res(null)));
    }
    relays.length = 0;
    for (const h of hosts) {
      // Anything still in the namespace (a grandchild that escaped) goes first.
      const left = await ip('netns', 'pids', h.netns).catch(() => '');
      for (const p of left.split('\n').filter(Boolean)) {
        try {
          process.kill(Number(p), 'SIGKILL');
        } catch {}
      }
      await ip('netns', 'del', h.netns).catch(() => {});
      await ip('link', 'del', `nu${pid}v${h.index}`).catch(() => {});
    }
    hosts.length = 0;
    if (bridgeMade) await ip('link', 'del', bridge).catch(() => {});
    bridgeMade = false;
  };

  try {
    await ip('link', 'add', bridge, 'type', 'bridge');
    bridgeMade = true;
    await ip('addr', 'add', `${gateway}/24`, 'dev', bridge);
    await ip('link', 'set', bridge, 'up');
    for (let i = 1; i <= count; i++) {
      const host: NetHost = {
        index: i,
        netns: `${PREFIX}${pid}-h${i}`,
        address: `${subnet}.${10 + i}`,
        hostname: `nuage${pid}-host${i}`,
      };
      const veth = `nu${pid}v${i}`;
      await ip('netns', 'add', host.netns);
      hosts.push(host);
      await ip('link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.netns);
      await ip('link', 'set', veth, 'master', bridge, 'up');
      await ip('-n', host.netns, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0');
      await ip('-n', host.netns, 'link', 'set', 'eth0', 'up');
      await ip('-n', host.netns, 'link', 'set', 'lo', 'up');
    }
  } catch (err) {
    await destroy();
    throw err;
  }

  return {
    gateway,
    hosts,
    spawn(host, command, options) {
      // Inside: own hostname, empty tmpfs on /tmp (and /var/tmp, /dev/shm), read-only folders (kept visible even
      // below /tmp: bound on a staging tmpfs first, moved back once the tmpfs is on), then the command as PID 1.
      const q = (d: string) => `'${d.replaceAll("'", "'\\''")}'`;
      const readOnly = options.readOnly ?? [];
      const stage = readOnly.length > 0 ? 'mount -t tmpfs tmpfs /mnt && ' : '';
      const bindAside = readOnly.map((d, i) => `mkdir /mnt/k${i} && mount --bind ${q(d)} /mnt/k${i} && `).join('');
      const tmpfs = ['/tmp', '/var/tmp', '/dev/shm']
        .filter((d) => existsSync(d))
        .map((d) => `mount -t tmpfs -o mode=1777 tmpfs ${d} && `)
        .join('');
      const back = readOnly
        .map((d, i) => `mkdir -p ${q(d)} && mount --move /mnt/k${i} ${q(d)} && mount -o remount,bind,ro ${q(d)} && `)
        .join('');
      const script = `hostname ${q(host.hostname)} && ${stage}${bindAside}${tmpfs}${back}cd ${q(options.cwd)} && exec "$@"`;
      const child = spawn(
        'ip',
        [
          'netns',
          'exec',
          host.netns,
          'unshare',
          '--mount',
          '--propagation',
          'private',
          '--uts',
          '--pid',
          '--fork',
          '--kill-child',
          '--mount-proc',
          'sh',
          '-c',
          script,
          'sh',
          ...command,
        ],
        { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] },
      ) as HostProcess;
      child.output = [];
      child.host = host;
      const name = options.name ?? host.hostname;
      const keep = (d: Buffer) => child.output.push(`[${name}] ${d.toString()}`);
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      processes.push(child);
      return child;
    },
    async pidsOn(host) {
      return (await ip('netns', 'pids', host.netns)).split('\n').filter(Boolean).map(Number);
    },
    async relay(target) {
      const sockets = new Set<Socket>();
      const server = createServer((client) => {
        const upstream = createConnection(target.port, target.host);
        sockets.add(client);
        sockets.add(upstream);
        const end = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      relays.push({ server, sockets });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, gateway, () => resolve());
      });
      return (server.address() as { port: number }).port;
    },
    destroy,
  };
}
