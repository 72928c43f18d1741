import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Code } from '@sunward/contracts/codes';
import type { WebhookCreated, WebhookDelivery } from '@sunward/contracts/open-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config.js';
import { webhookDeliveries, webhooks } from '../../db/schema.js';
import { apiClient, signedInUser } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

// Webhook SSRF guard (issue 25): with the default setting a webhook reaches public addresses only, checked when it
// is added and again on each delivery's connection. open-api.api.test.ts runs with WEBHOOK_ALLOW_PRIVATE=true and
// delivers to local receivers.
let server: TestServer;
let admin: string;
let companyId: number;
let receiver: Server;
let hits = 0;
const { get, post } = apiClient(() => server.app);

beforeAll(async () => {
  server = await startTestServer();
  companyId = await server.createCompany('Guarded Hooks');
  admin = (await signedInUser(server, 'company_admin', companyId)).token;
  receiver = createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await server?.close();
});

describe('webhook addresses', () => {
  it('refuse loopback, private, link-local and IPv4-mapped addresses and names resolving to them (4325, in the caller’s language)', async () => {
    const port = (receiver.address() as AddressInfo).port;
    const refused: [string, string][] = [
      [`http://127.0.0.1:${port}/hook`, '127.0.0.1'],
      ['http://10.20.30.40/hook', '10.20.30.40'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
      [`http://[::1]:${port}/hook`, '::1'],
      [`http://[::ffff:127.0.0.1]:${port}/hook`, '::ffff:7f00:1'],
      ['https://192.168.1.5/', '192.168.1.5'],
      ['http://0.0.0.0/', '0.0.0.0'],
      ['http://[fd00::1]/', 'fd00::1'],
    ];
    for (const [url, address] of refused) {
      const answer = await post<{ field: string; address: string; kind: string }>(
        '/api/v1/openApi/webhooks',
        { url, events: ['event.raised'] },
        admin,
      );
      expect(answer.code, url).toBe(Code.WEBHOOK_URL_REFUSED);
      expect(answer.data).toMatchObject({ field: 'url', address });
      expect(answer.message).toContain(address);
    }
    // A name is refused by the addresses it resolves to (localhost: 127.0.0.1 or ::1).
    const byName = await post<{ address: string; kind: string }>(
      '/api/v1/openApi/webhooks',
      { url: `http://localhost:${port}/hook`, events: ['event.raised'] },
      admin,
    );
    expect(byName.code).toBe(Code.WEBHOOK_URL_REFUSED);
    expect(byName.data.kind).toBe('loopback');
    const german = await post(
      '/api/v1/openApi/webhooks',
      { url: 'http://169.254.169.254/', events: ['event.raised'] },
      {
        token: admin,
        headers: { 'accept-language': 'de' },
      },
    );
    expect(german.message).toBe(
      'Die Webhook-Adresse führt zu 169.254.169.254, keiner öffentlichen Internetadresse (privat, Loopback, Link-Local oder reserviert); verwenden Sie eine öffentliche Adresse.',
    );
    expect((await get<unknown[]>('/api/v1/openApi/webhooks', admin)).data).toEqual([]);
    // A public address is accepted (nothing is sent until an event happens).
    const accepted = await post<WebhookCreated>(
      '/api/v1/openApi/webhooks',
      { url: 'https://93.184.216.34/hook', events: ['event.raised'] },
      admin,
    );
    expect(accepted.code).toBe(Code.OK);
  });

  it('refuse a delivery whose address is not public when it is sent (a name that resolves elsewhere later), logged with the reason and not retried', async () => {
    const port = (receiver.address() as AddressInfo).port;
    const { db } = server.database;
    // As if `localhost` had resolved to a public address when the webhook was added (DNS rebinding), and a literal
    // private address stored before the guard existed.
    const stored = await db
      .insert(webhooks)
      .values([
        { companyId, url: `http://localhost:${port}/rebound`, secret: 'whsec_test', events: ['event.raised'] },
        { companyId, url: `http://127.0.0.1:${port}/old`, secret: 'whsec_test', events: ['event.raised'] },
      ])
      .returning({ id: webhooks.id });
    await db.insert(webhookDeliveries).values(
      stored.map((hook, i) => ({
        webhookId: hook.id,
        eventId: `rebinding-${i}`,
        eventType: 'event.raised',
        payload: { id: `rebinding-${i}`, type: 'event.raised', createdAt: new Date().toISOString(), companyId, data: {} },
        status: 'pending',
      })),
    );
    for (const [hook, reason] of [
      [stored[0]?.id, /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/],
      [stored[1]?.id, /^refused: 127\.0\.0\.1 is a loopback address/],
    ] as const) {
      await vi.waitFor(
        async () => {
          const log = await get<WebhookDelivery[]>(`/api/v1/openApi/webhooks/${hook}/deliveries`, admin);
          expect(log.data[0]).toMatchObject({ status: 'failed', attempts: 1, responseStatus: null, nextAttemptAt: null });
          expect(log.data[0]?.error).toMatch(reason);
        },
        { timeout: 10_000, interval: 100 },
      );
    }
    expect(hits).toBe(0);
  });

  it('reach private addresses only with WEBHOOK_ALLOW_PRIVATE=true (on-premise installs, tests)', () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });
});
