import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** Subject as sent (ASCII subjects; encoded words are left as they are). */
  subject: string;
  /** Body with quoted-printable soft breaks and escapes undone. */
  body: string;
}

export interface SmtpInbox {
  /** smtp://127.0.0.1:port, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Waits for the next mail to `to` after the ones already read, and returns it. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The six-digit verification code of the next mail to `to`. */
  nextCode(to: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

function decodeBody(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  return Buffer.from(
    body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_h, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

/** A real SMTP server on an ephemeral loopback port that keeps what it receives, for tests that read codes from mail. */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const received: ReceivedMail[] = [];
  const read = new Map<string, number>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        const head = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: /^Subject: (.*)$/im.exec(head)?.[1] ?? '',
          body: decodeBody(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;

  async function next(to: string, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = read.get(to) ?? 0;
      const mine = received.filter((m) => m.to.includes(to));
      const mail = mine[seen];
      if (mail) {
        read.set(to, seen + 1);
        return mail;
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next,
    async nextCode(to, timeoutMs) {
      const mail = await next(to, timeoutMs);
      const code = /\b(\d{6})\b/.exec(mail.body)?.[1];
      if (!code) throw new Error(`mail to ${to} has no code: ${mail.body}`);
      return code;
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
