import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Code } from '@sunward/contracts/codes';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import {
  type ApiKeyCreated,
  type ApiKeyRow,
  OPEN_API_LIMITS,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookPayload,
} from '@sunward/contracts/open-api';
import type { EnergyBars, PlantRealtime } from '@sunward/contracts/plant-energy';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiKeys, devices } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { call } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';
import { verifyWebhook } from './webhook-signature.js';

const ZONE = 'Africa/Abidjan';
let server: TestServer;
let adminA: string;
let adminB: string;
let staffA: string;
const plants: Record<'a1' | 'a2' | 'b', { id: number; sn: string; gateway: TestGateway }> = {} as never;
const gateways: TestGateway[] = [];

const { get, post } = apiClient(() => server.app);
const open = <T>(method: 'GET' | 'POST', url: string, key: string | undefined, json?: unknown) =>
  call<T>(server.app, method, url, { ...(key ? { token: key } : {}), ...(json === undefined ? {} : { json }) });

async function reportingPlant(token: string, companyId: number, name: string, sn: string) {
  const plant = await createPlant(server, token, { name, capacityKwp: 10, timezone: ZONE }, companyId);
  await server.database.db.insert(devices).values({
    sn,
    protocolId: 'sunspec-inverter-1p',
    family: 'inverter',
    model: 'sunspec-inverter-1p',
    plantId: plant.id,
    gatewayId: plant.gateway.id,
  });
  const gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  gateways.push(gateway);
  const t = Date.now() - 60_000;
  await gateway.report(t - 3_600_000, [{ sn, proto: 'sunspec-inverter-1p', values: { W: 1000, WH: 5000, St: 4, Evt1: 0 } }]);
  await gateway.report(t, [{ sn, proto: 'sunspec-inverter-1p', values: { W: 2000, WH: 7000, St: 4, Evt1: 0 } }]);
  return { id: plant.id, sn, gateway };
}

async function newKey(token: string, body: object): Promise<ApiKeyCreated> {
  const created = await post<ApiKeyCreated>('/api/v1/openApi/keys', { expiresInDays: 30, ...body }, token);
  expect(created.code).toBe(0);
  return created.data;
}

beforeAll(async () => {
  // The webhook tests deliver to receivers on this machine: private addresses are allowed (webhook-address.api.test.ts
  // checks the default, public addresses only).
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  const companyA = await server.createCompany('Open Company A');
  const companyB = await server.createCompany('Open Company B');
  adminA = (await signedInUser(server, 'company_admin', companyA)).token;
  staffA = (await signedInUser(server, 'company_staff', companyA)).token;
  adminB = (await signedInUser(server, 'company_admin', companyB)).token;
  plants.a1 = await reportingPlant(adminA, companyA, 'Open Alpha', 'OPIN000001');
  plants.a2 = await reportingPlant(adminA, companyA, 'Open Beta', 'OPIN000002');
  plants.b = await reportingPlant(adminB, companyB, 'Open Gamma', 'OPIN000003');
  await server.telemetry.pipeline.drain();
}, 120_000);

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await server?.close();
});

/** Every /open/v1 route, with the path for a plant (and its inverter) and what a key scoped elsewhere gets. */
function openRoutes() {
  return server.app.routeAccessTable.filter((r) => r.url.startsWith('/open/v1') && r.method !== 'HEAD');
}
function pathFor(url: string, plant: { id: number; sn: string }): string {
  return url.replace(':id', String(plant.id)).replace(':sn', plant.sn);
}
function bodyFor(url: string): object | undefined {
  if (url.endsWith('/commands/params')) return { params: { WMaxLimPct: 90 } };
  return url.includes('/commands/') ? {} : undefined;
}

describe('API keys', () => {
  it('are shown once, stored hashed, scoped to one plant: that plant reads on every route, every other plant is refused', async () => {
    const { key, secret } = await newKey(adminA, { name: 'Alpha reader', scope: 'plants', plantIds: [plants.a1.id], access: 'read' });
    expect(secret).toMatch(/^sw_[0-9a-f]{10}_/);
    expect(key).toMatchObject({ name: 'Alpha reader', scope: 'plants', access: 'read', state: 'active', lastUsedAt: null });
    expect(secret.startsWith(key.prefix)).toBe(true);
    const [stored] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(stored?.secretHash).not.toContain(secret.slice(14));
    // The list never answers the secret again.
    const listed = await get<ApiKeyRow[]>('/api/v1/openApi/keys', adminA);
    expect(JSON.stringify(listed.data)).not.toContain(secret.slice(14));

    const routes = openRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(13);
    for (const route of routes) {
      const method = route.method as 'GET' | 'POST';
      const own = await open(method, pathFor(route.url, plants.a1), secret, bodyFor(route.url));
      const isCommand = route.url.includes('/commands/');
      // A read key reads its plant everywhere; commands need an operator key.
      expect(own.body.code, `${route.method} ${route.url} on its plant`).toBe(isCommand ? Code.NO_PERMISSION : Code.OK);
      expect(own.headers['ratelimit-limit'], route.url).toBe(String(OPEN_API_LIMITS.quotaDefault));
      if (route.url === '/open/v1/plants') {
        expect((own.body.data as { id: number }[]).map((p) => p.id)).toEqual([plants.a1.id]);
        continue;
      }
      for (const other of [plants.a2, plants.b]) {
        const answer = await open(method, pathFor(route.url, other), secret, bodyFor(route.url));
        const expected = isCommand ? Code.NO_PERMISSION : route.url.includes(':sn') ? Code.DEVICE_NOT_FOUND : Code.PLANT_NOT_FOUND;
        expect(answer.body.code, `${route.method} ${route.url} on another plant`).toBe(expected);
      }
    }
    const after = await get<ApiKeyRow[]>('/api/v1/openApi/keys', adminA);
    expect(after.data.find((k) => k.id === key.id)?.lastUsedAt).not.toBeNull();
  });

  it('give the console overview’s figures to the watt-hour', async () => {
    const { secret } = await newKey(adminA, { name: 'Figures', scope: 'all', access: 'read' });
    const id = plants.a1.id;
    const openRealtime = await open<PlantRealtime>('GET', `/open/v1/plants/${id}/realtime`, secret);
    const consoleRealtime = await get<PlantRealtime>(`/api/v1/plant/${id}/realtime`, adminA);
    expect(openRealtime.body.data).toEqual(consoleRealtime.data);
    expect(openRealtime.body.data.energyTodayWh).toBeGreaterThan(0);
    const month = await open<EnergyBars>('GET', `/open/v1/plants/${id}/energy/month`, secret);
    expect(month.body.data).toEqual((await get<EnergyBars>(`/api/v1/plant/${id}/power/month`, adminA)).data);
    const year = await open<EnergyBars>('GET', `/open/v1/plants/${id}/energy/year`, secret);
    expect(year.body.data).toEqual((await get<EnergyBars>(`/api/v1/plant/${id}/power/year`, adminA)).data);
    // Scope 'all': the creator's company plants, not another company's.
    const list = await open<{ id: number }[]>('GET', '/open/v1/plants', secret);
    expect(list.body.data.map((p) => p.id).sort()).toEqual([plants.a1.id, plants.a2.id].sort());
    expect((await open('GET', `/open/v1/plants/${plants.b.id}/realtime`, secret)).body.code).toBe(Code.PLANT_NOT_FOUND);
  });

  it('are refused when missing, unknown, revoked or expired (HTTP 401), and revoked only by their creator or company administrator', async () => {
    const missing = await open('GET', '/open/v1/plants', undefined);
    expect([missing.status, missing.body.code]).toEqual([401, Code.API_KEY_INVALID]);
    const unknown = await open('GET', '/open/v1/plants', `sw_0123456789_${'A'.repeat(43)}`);
    expect(unknown.body.code).toBe(Code.API_KEY_INVALID);
    const { key, secret } = await newKey(adminA, { name: 'Short-lived', scope: 'plants', plantIds: [plants.a1.id], access: 'read' });
    expect((await post(`/api/v1/openApi/keys/${key.id}/revoke`, {}, adminB)).code).toBe(Code.API_KEY_INVALID);
    expect((await open('GET', '/open/v1/plants', secret)).body.code).toBe(0);
    expect((await post(`/api/v1/openApi/keys/${key.id}/revoke`, {}, adminA)).code).toBe(0);
    const revoked = await open('GET', '/open/v1/plants', secret);
    expect([revoked.status, revoked.body.code]).toEqual([401, Code.API_KEY_INVALID]);
    const second = await newKey(adminA, { name: 'Expired', scope: 'all', access: 'read' });
    await server.database.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, second.key.id));
    expect((await open('GET', '/open/v1/plants', second.secret)).body.code).toBe(Code.API_KEY_EXPIRED);
  });

  it('are made for managed plants only; scope all is for the company administrator', async () => {
    const other = await post(
      '/api/v1/openApi/keys',
      { name: 'x', scope: 'plants', plantIds: [plants.b.id], access: 'read', expiresInDays: 1 },
      adminA,
    );
    expect(other.code).toBe(Code.PLANT_NOT_FOUND);
    const all = await post('/api/v1/openApi/keys', { name: 'x', scope: 'all', access: 'read', expiresInDays: 1 }, staffA);
    expect(all.code).toBe(Code.NO_PERMISSION);
    const bad = await post('/api/v1/openApi/keys', { name: 'x', scope: 'plants', plantIds: [], access: 'read', expiresInDays: 1 }, adminA);
    expect(bad.code).toBe(Code.VALIDATION);
  });

  it('publish their quota in RateLimit-* headers and answer 429 past it', async () => {
    const { secret } = await newKey(adminA, { name: 'Tiny quota', scope: 'all', access: 'read', quotaPerMinute: 3 });
    const remaining: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await open('GET', '/open/v1/plants', secret);
      expect(answer.body.code).toBe(0);
      expect(answer.headers['ratelimit-limit']).toBe('3');
      expect(Number(answer.headers['ratelimit-reset'])).toBeGreaterThan(0);
      remaining.push(answer.headers['ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await open('GET', '/open/v1/plants', secret);
    expect([refused.status, refused.body.code]).toEqual([429, Code.RATE_LIMITED]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another key has its own quota.
    const { secret: other } = await newKey(adminA, { name: 'Other quota', scope: 'all', access: 'read' });
    expect((await open('GET', '/open/v1/plants', other)).body.code).toBe(0);
  });

  it('send commands only with an operator key, through the console’s checks and audit, without a password', async () => {
    const { secret } = await newKey(adminA, { name: 'Operator', scope: 'plants', plantIds: [plants.a1.id], access: 'operator' });
    const gateway = plants.a1.gateway;
    gateway.client.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as { id: string };
      void gateway.client.publishAsync(
        gatewayTopic(gateway.client.options.username ?? '', 'reply'),
        JSON.stringify({ v: 1, id: command.id, status: 'ok' }),
        {
          qos: 1,
        },
      );
    });
    await gateway.client.subscribeAsync(gatewayTopic(gateway.client.options.username ?? '', 'cmd'), { qos: 1 });
    const shutdown = await open<{ commandId: number; status: string }>(
      'POST',
      `/open/v1/devices/${plants.a1.sn}/commands/shutdown`,
      secret,
      {},
    );
    expect(shutdown.body.code).toBe(0);
    expect(shutdown.body.data.status).toBe('ok');
    const log = await get<{ records?: { account: string }[]; infos?: { account: string }[] }>('/api/v1/commands?page=1&size=5', adminA);
    expect(JSON.stringify(log.data)).toContain('API key sw_');
    const elsewhere = await open('POST', `/open/v1/devices/${plants.a2.sn}/commands/boot`, secret, {});
    expect(elsewhere.body.code).toBe(Code.DEVICE_NOT_FOUND);
  });
});

describe('webhooks', () => {
  let receiver: Server;
  const received: { body: string; signature: string; at: number }[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push({ body, signature: String(req.headers['sunward-signature'] ?? ''), at: Date.now() });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('deliver an event raised, signed, within 5 s, and log the delivery; another company hears nothing', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const created = await post<WebhookCreated>('/api/v1/openApi/webhooks', { url, events: ['event.raised', 'event.cleared'] }, adminA);
    expect(created.code).toBe(0);
    const { secret, webhook } = created.data;
    expect(secret).toMatch(/^whsec_/);
    expect((await post('/api/v1/openApi/webhooks', { url, events: ['event.raised'] }, staffA)).code).toBe(Code.NO_PERMISSION);
    const otherCompany = await post<WebhookCreated>('/api/v1/openApi/webhooks', { url: `${url}?b`, events: ['event.raised'] }, adminB);
    expect(otherCompany.code).toBe(0);

    const raisedAt = Date.now();
    await plants.a1.gateway.report(raisedAt - 1000, [
      { sn: plants.a1.sn, proto: 'sunspec-inverter-1p', values: { W: 2100, WH: 7100, St: 4, Evt1: 0b1 } },
    ]);
    await vi.waitFor(() => expect(received.some((r) => r.body.includes('"event.raised"'))).toBe(true), { timeout: 5000, interval: 50 });
    const hit = received.find((r) => r.body.includes('"event.raised"'));
    if (!hit) throw new Error('no delivery');
    expect(hit.at - raisedAt).toBeLessThan(5000);
    expect(verifyWebhook(secret, hit.body, hit.signature, Math.floor(Date.now() / 1000), OPEN_API_LIMITS.signatureToleranceSeconds)).toBe(
      true,
    );
    expect(verifyWebhook('whsec_wrong', hit.body, hit.signature, Math.floor(Date.now() / 1000), 300)).toBe(false);
    // An old signature is refused by a receiver that checks the timestamp (replay protection).
    expect(verifyWebhook(secret, hit.body, hit.signature, Math.floor(Date.now() / 1000) + 600, 300)).toBe(false);
    const payload = JSON.parse(hit.body) as WebhookPayload;
    expect(payload).toMatchObject({ type: 'event.raised', data: { plantId: plants.a1.id, sn: plants.a1.sn, code: 1001 } });
    expect(received.filter((r) => r.body.includes('"event.raised"'))).toHaveLength(1);
    await vi.waitFor(
      async () => {
        const log = await get<WebhookDelivery[]>(`/api/v1/openApi/webhooks/${webhook.id}/deliveries`, adminA);
        expect(log.data[0]).toMatchObject({ eventId: payload.id, status: 'delivered', attempts: 1, responseStatus: 204 });
      },
      { timeout: 5000, interval: 100 },
    );
    expect((await get(`/api/v1/openApi/webhooks/${webhook.id}/deliveries`, adminB)).code).toBe(Code.WEBHOOK_NOT_FOUND);
  });

  it('retry a delivery the receiver refused, with backoff, until it is accepted', async () => {
    let refusals = 1;
    const flaky = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (refusals-- > 0) res.writeHead(503).end();
        else res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/`;
      const created = await post<WebhookCreated>('/api/v1/openApi/webhooks', { url, events: ['event.cleared'] }, adminA);
      await plants.a1.gateway.report(Date.now() - 500, [
        { sn: plants.a1.sn, proto: 'sunspec-inverter-1p', values: { W: 2200, WH: 7200, St: 4, Evt1: 0 } },
      ]);
      await vi.waitFor(
        async () => {
          const log = await get<WebhookDelivery[]>(`/api/v1/openApi/webhooks/${created.data.webhook.id}/deliveries`, adminA);
          expect(log.data[0]).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 200 });
        },
        { timeout: 10_000, interval: 200 },
      );
    } finally {
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  });

  it('deliver command.finished when a command ends', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/commands`;
    const created = await post<WebhookCreated>('/api/v1/openApi/webhooks', { url, events: ['command.finished'] }, adminA);
    expect(created.code).toBe(0);
    const { secret } = await newKey(adminA, { name: 'Booter', scope: 'plants', plantIds: [plants.a1.id], access: 'operator' });
    const boot = await open<{ commandId: number }>('POST', `/open/v1/devices/${plants.a1.sn}/commands/boot`, secret, {});
    expect(boot.body.code).toBe(0);
    await vi.waitFor(() => expect(received.some((r) => r.body.includes(`"commandId":${boot.body.data.commandId}`))).toBe(true), {
      timeout: 5000,
      interval: 50,
    });
    const hit = received.find((r) => r.body.includes(`"commandId":${boot.body.data.commandId}`));
    const payload = JSON.parse(hit?.body ?? '{}') as WebhookPayload;
    expect(payload).toMatchObject({
      type: 'command.finished',
      data: { op: 'boot', status: 'ok', sn: plants.a1.sn, plantId: plants.a1.id },
    });
    expect(verifyWebhook(created.data.secret, hit?.body ?? '', hit?.signature ?? '', Math.floor(Date.now() / 1000), 300)).toBe(true);
  });

  it('keep a waiting delivery across a server restart and deliver it once the receiver answers', async () => {
    // A port nobody listens on yet: the first tries fail (connection refused) and the delivery waits.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const created = await post<WebhookCreated>(
      '/api/v1/openApi/webhooks',
      { url: `http://127.0.0.1:${port}/late`, events: ['event.raised'] },
      adminA,
    );
    const hook = created.data.webhook.id;
    await plants.a1.gateway.report(Date.now() - 200, [
      { sn: plants.a1.sn, proto: 'sunspec-inverter-1p', values: { W: 2300, WH: 7300, St: 4, Evt1: 0b1 } },
    ]);
    await vi.waitFor(
      async () => {
        const log = await get<WebhookDelivery[]>(`/api/v1/openApi/webhooks/${hook}/deliveries`, adminA);
        expect(log.data[0]).toMatchObject({ status: 'pending' });
        expect(log.data[0]?.attempts).toBeGreaterThanOrEqual(1);
      },
      { timeout: 5000, interval: 100 },
    );
    server = await server.restart();
    const late: string[] = [];
    const back = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        late.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve));
    try {
      await vi.waitFor(() => expect(late.some((b) => b.includes('"event.raised"'))).toBe(true), { timeout: 20_000, interval: 100 });
      await vi.waitFor(
        async () => {
          const log = await get<WebhookDelivery[]>(`/api/v1/openApi/webhooks/${hook}/deliveries`, adminA);
          expect(log.data[0]?.status).toBe('delivered');
        },
        { timeout: 5000, interval: 100 },
      );
    } finally {
      await new Promise<void>((resolve) => back.close(() => resolve()));
    }
  }, 60_000);
});
