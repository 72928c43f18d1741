import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent along (a scheduled report), read from disk when the message is rendered. */
  attachments?: { filename: string; path: string }[];
}

export interface Mailer {
  /** smtp: sent through SMTP_URL; outbox: written as .eml files under DATA_DIR/outbox (no SMTP configured). */
  readonly kind: 'smtp' | 'outbox';
  /** Resolves once the SMTP server accepted the message (or the file is written); rejects on failure. */
  send(message: MailMessage): Promise<void>;
}

export interface MailerSettings {
  /** smtp://user:pass@host:port or smtps://…; undefined writes to the outbox. */
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
}

/**
 * One way out for every e-mail (verification codes, alarm notifications). Without SMTP settings the
 * product still works: messages land in DATA_DIR/outbox, and the log says where, once.
 */
export function createMailer(settings: MailerSettings, log: FastifyBaseLogger): Mailer {
  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport(settings.smtpUrl);
    return {
      kind: 'smtp',
      async send(message) {
        await transport.sendMail({ from: settings.from, ...message });
      },
    };
  }
  const outbox = join(settings.dataDir, 'outbox');
  // The stream transport renders the real RFC 5322 message, so an outbox file opens in any mail client.
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let announced = false;
  let sequence = 0;
  return {
    kind: 'outbox',
    async send(message) {
      const info = await render.sendMail({ from: settings.from, ...message });
      await mkdir(outbox, { recursive: true });
      const file = join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++sequence}.eml`);
      await writeFile(file, info.message as Buffer);
      if (!announced) {
        announced = true;
        log.warn({ event: 'mail_outbox', outbox }, 'SMTP_URL is not set: e-mail is written to the outbox directory');
      }
    },
  };
}
