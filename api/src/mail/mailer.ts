import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { AppDeps } from '../deps.js';
import type { MailContent } from './mail.templates.js';

/** Sends mail: through SMTP_URL, or into `<DATA_DIR>/outbox/*.eml` when SMTP_URL is not set. */
export interface Mailer {
  readonly mode: 'smtp' | 'outbox';
  /** Sends one mail; rejects when the SMTP server refuses it or cannot be reached. */
  send(to: string, content: MailContent): Promise<{ messageId: string; file?: string }>;
}

const mailers = new WeakMap<AppDeps, Mailer>();

/**
 * The mailer of a process (one per deps, so SMTP connections are reused).
 *
 * With no SMTP_URL each mail is written as an .eml file and its links are logged,
 * so a fresh install can still activate accounts and reset passwords.
 *
 * @example
 * await mailer(deps).send('ada@example.com', renderMail({ id: 'activation', ... }, 'en-US'));
 */
export function mailer(deps: AppDeps): Mailer {
  let m = mailers.get(deps);
  if (!m) {
    m = deps.config.SMTP_URL ? smtpMailer(deps) : outboxMailer(deps);
    mailers.set(deps, m);
  }
  return m;
}

function smtpMailer(deps: AppDeps): Mailer {
  const transport = nodemailer.createTransport({
    url: deps.config.SMTP_URL,
    // A mail sent during a request must fail fast rather than hold the request.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as nodemailer.TransportOptions);
  return {
    mode: 'smtp',
    async send(to, content) {
      const info = await transport.sendMail({
        from: deps.config.MAIL_FROM,
        to,
        subject: content.subject,
        text: content.text,
        html: content.html,
      });
      deps.log.info({ to, subject: content.subject, messageId: info.messageId }, 'mail sent');
      return { messageId: info.messageId };
    },
  };
}

function outboxMailer(deps: AppDeps): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = path.join(deps.config.DATA_DIR, 'outbox');
  return {
    mode: 'outbox',
    async send(to, content) {
      const info = await transport.sendMail({
        from: deps.config.MAIL_FROM,
        to,
        subject: content.subject,
        text: content.text,
        html: content.html,
      });
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer);
      deps.log.info(
        { to, subject: content.subject, file, links: content.links },
        'mail written to the outbox (SMTP_URL is not set)',
      );
      return { messageId: info.messageId, file };
    },
  };
}
