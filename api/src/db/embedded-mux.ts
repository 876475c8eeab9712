import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/**
 * A PostgreSQL wire-protocol server in front of one PGlite session, shared by
 * many client connections.
 *
 * PGlite has a single session, so clients take turns. The unit of a turn is a
 * protocol *batch*: every message a connection sends up to and including a
 * Sync, a simple Query or a Flush. Running a whole batch at once keeps an
 * extended-protocol exchange (Parse, Bind, Describe, Execute, Sync) from being
 * cut by another connection's messages, which would otherwise wipe its unnamed
 * statement and portal. While a transaction is open, only the connection that
 * opened it is served; the others wait until it commits or rolls back (or
 * disconnects, which rolls it back).
 *
 * (`@electric-sql/pglite-socket` queues single messages instead of batches, and
 * concurrent parameterised queries then fail with "unnamed prepared statement
 * does not exist"; this server replaces it.)
 */
export class PgliteMultiplexServer {
  private readonly db: PGlite;
  private readonly maxConnections: number;
  private server: Server | null = null;
  private readonly connections = new Set<Connection>();
  private readonly queue: Batch[] = [];
  private processing = false;
  /** The connection whose transaction is open, if any. */
  private owner: Connection | null = null;
  private nextId = 1;

  constructor(options: { db: PGlite; maxConnections?: number }) {
    this.db = options.db;
    this.maxConnections = options.maxConnections ?? 32;
  }

  /** Listens on host:port (port 0: any free port) and resolves with the port. */
  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    await this.db.waitReady;
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address();
    if (!address || typeof address !== 'object') throw new Error('embedded database: no listening address');
    return address.port;
  }

  /** Closes every connection and the listening socket. */
  async close(): Promise<void> {
    for (const c of this.connections) c.socket.destroy();
    this.connections.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    if (this.connections.size >= this.maxConnections) {
      socket.end(errorResponse('53300', `too many connections (limit ${this.maxConnections})`));
      return;
    }
    const conn: Connection = { id: this.nextId++, socket, buffer: Buffer.alloc(0), pending: [], started: false };
    this.connections.add(conn);
    socket.on('data', (data) => this.onData(conn, data));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => void this.onClose(conn));
  }

  private onData(conn: Connection, data: Buffer): void {
    conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, data]) : data;
    for (;;) {
      const buf = conn.buffer;
      if (!conn.started) {
        // Untyped start-up phase: SSLRequest, GSSENCRequest, CancelRequest or StartupMessage.
        if (buf.length < 8) return;
        const len = buf.readInt32BE(0);
        if (buf.length < len) return;
        const code = buf.readInt32BE(4);
        conn.buffer = buf.subarray(len);
        if (code === 80877103 || code === 80877104) {
          conn.socket.write('N'); // no SSL / GSS encryption on loopback
          continue;
        }
        if (code === 80877102) {
          conn.socket.end(); // cancel requests are not supported
          return;
        }
        conn.started = true;
        this.enqueue(conn, [new Uint8Array(buf.subarray(0, len))]);
        continue;
      }
      if (buf.length < 5) return;
      const type = buf[0]!;
      const len = 1 + buf.readInt32BE(1);
      if (buf.length < len) return;
      const message = new Uint8Array(buf.subarray(0, len));
      conn.buffer = buf.subarray(len);
      if (type === 0x58 /* X: Terminate */) {
        conn.socket.end();
        return;
      }
      conn.pending.push(message);
      // S: Sync, Q: Query, H: Flush, c: CopyDone, f: CopyFail end a batch.
      if (type === 0x53 || type === 0x51 || type === 0x48 || type === 0x63 || type === 0x66) {
        const batch = conn.pending;
        conn.pending = [];
        this.enqueue(conn, batch);
      }
    }
  }

  private enqueue(conn: Connection, messages: Uint8Array[]): void {
    this.queue.push({ conn, messages });
    void this.process();
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        let index = 0;
        if (this.owner && this.db.isInTransaction()) {
          index = this.queue.findIndex((b) => b.conn === this.owner);
          if (index < 0) break; // wait for the transaction's owner to speak again
        }
        const batch = this.queue.splice(index, 1)[0]!;
        if (batch.conn.socket.destroyed) continue;
        const chunks: Uint8Array[] = [];
        try {
          await this.db.runExclusive(async () => {
            for (const m of batch.messages) {
              await this.db.execProtocolRawStream(m, { onRawData: (d) => chunks.push(d.slice()) });
            }
          });
        } catch (err) {
          chunks.push(errorResponse('XX000', (err as Error).message), readyForQuery(this.db.isInTransaction()));
        }
        this.owner = this.db.isInTransaction() ? batch.conn : null;
        if (!batch.conn.socket.destroyed && chunks.length) batch.conn.socket.write(Buffer.concat(chunks));
      }
    } finally {
      this.processing = false;
    }
  }

  private async onClose(conn: Connection): Promise<void> {
    this.connections.delete(conn);
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i]!.conn === conn) this.queue.splice(i, 1);
    if (this.owner === conn) {
      this.owner = null;
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK').catch(() => {});
    }
    void this.process();
  }
}

interface Connection {
  id: number;
  socket: Socket;
  buffer: Buffer;
  pending: Uint8Array[];
  started: boolean;
}

interface Batch {
  conn: Connection;
  messages: Uint8Array[];
}

/** An ErrorResponse message (severity ERROR, SQLSTATE, message). */
function errorResponse(code: string, message: string): Uint8Array {
  const fields = Buffer.concat([
    Buffer.from('SERROR\0'),
    Buffer.from('VERROR\0'),
    Buffer.from(`C${code}\0`),
    Buffer.from(`M${message}\0`),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head[0] = 0x45; // E
  head.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
}

/** A ReadyForQuery message with the transaction status byte. */
function readyForQuery(inTransaction: boolean): Uint8Array {
  return Buffer.from([0x5a, 0, 0, 0, 5, inTransaction ? 0x54 : 0x49]);
}
