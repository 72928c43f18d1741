import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createSmsProvider, type SmsProviderSettings } from '../sms/sms-provider.js';

/** Where verification codes for phone accounts go: the SMS provider, or the outbox when none is configured. */
export interface SmsSender {
  readonly kind: 'provider' | 'outbox';
  send(message: { to: string; text: string }): Promise<void>;
}

/**
 * With SMS_PROVIDER set, codes go through the same provider adapter as msg/send (features/sms). Without
 * one, each message is written as a text file to DATA_DIR/sms-outbox (like the mail outbox), so a code
 * can be read on a machine without a provider contract; the log says where once, and never shows a code.
 */
export function createSmsSender(settings: { provider: SmsProviderSettings; dataDir: string }, log: FastifyBaseLogger): SmsSender {
  if (settings.provider.kind !== 'log') {
    const provider = createSmsProvider(settings.provider);
    return {
      kind: 'provider',
      async send(message) {
        await provider.send(message.to, message.text);
      },
    };
  }
  const outbox = join(settings.dataDir, 'sms-outbox');
  let announced = false;
  let sequence = 0;
  return {
    kind: 'outbox',
    async send(message) {
      await mkdir(outbox, { recursive: true });
      const file = join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++sequence}.txt`);
      await writeFile(file, `To: ${message.to}\n\n${message.text}\n`, { mode: 0o600 });
      if (!announced) {
        announced = true;
        log.warn({ event: 'sms_outbox', outbox }, 'SMS_PROVIDER is not set: verification codes by SMS are written to the outbox directory');
      }
    },
  };
}
