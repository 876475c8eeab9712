import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import MailDev from 'maildev';

/** A mail as maildev parsed it. */
export interface ReceivedMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: Array<{ address: string; name: string }>;
  from: Array<{ address: string; name: string }>;
}

/** A real SMTP server (maildev) for one test file, on a free loopback port. */
export interface TestMailServer {
  /** SMTP_URL for the app under test. */
  smtpUrl: string;
  /** Every mail received so far. */
  all(): Promise<ReceivedMail[]>;
  /** Waits for the next mail to `to` (or returns one already received after `since` mails). */
  next(to: string, options?: { timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
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
 * Starts maildev (SMTP only, no web UI) on a free port. One per process: maildev
 * keeps its state in a module singleton, and vitest runs each test file in its own fork.
 *
 * @example
 * const mail = await startMailServer();
 * const t = await createTestApp({ SMTP_URL: mail.smtpUrl });
 * const m = await mail.next('ada@example.com');
 */
export async function startMailServer(): Promise<TestMailServer> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'nuage-maildev-'));
  const server = new MailDev({ smtp: port, ip: '127.0.0.1', disableWeb: true, silent: true, mailDirectory: dir });
  await server.listen();
  const seen = new Set<string>();
  const all = () =>
    new Promise<ReceivedMail[]>((resolve, reject) =>
      server.getAllEmail((err: Error | null, mails: ReceivedMail[]) => (err ? reject(err) : resolve([...mails]))),
    );
  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    all,
    async next(to, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      for (;;) {
        const mail = (await all()).find((m) => !seen.has(m.id) && m.to.some((a) => a.address === to));
        if (mail) {
          seen.add(mail.id);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within the timeout`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
