import { Code } from '@sunward/contracts/codes';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deviceCommands, devices } from './db/schema.js';
import { createScratchDatabase } from './db/scratch-database.js';
import { provisionDemoFleet } from './features/fleet/demo-fleet.js';
import { call, signIn } from './test/client.js';
import { ADMIN, startTestServer, TEST_POSTGRES_URL, type TestServer } from './test/harness.js';

// Issue 26 parts 3 and 4: two server processes on one PostgreSQL behind a load balancer. Live changes published
// on one reach the live connections of the other (ingest/live-bus.ts, LISTEN/NOTIFY), and the request state
// (rate limits, sign-in lock-out, idempotency keys, sessions) is in the database, so any request may go anywhere.
// The embedded database is one process by construction: there the single-process behaviour is what the other
// suites check (ingest.api.test.ts "live push", rate-limit.api.test.ts, secret-throttle.api.test.ts).
describe.runIf(process.env.TEST_DATABASE === 'postgres')('two server processes on one PostgreSQL', () => {
  let a: TestServer;
  let b: TestServer;
  let fleet: SimulatedFleet;
  let drop: () => Promise<void>;
  const env = {
    RATE_LIMIT_PER_ADDRESS: '5',
    RATE_LIMIT_PER_TOKEN: '1000',
    TRUST_PROXY: 'true',
    SIGN_IN_LOCK_AFTER: '2',
    SIGN_IN_MAX_DELAY_MS: '0',
    COMMAND_TIMEOUT_S: '1',
  };

  beforeAll(async () => {
    const scratch = await createScratchDatabase(TEST_POSTGRES_URL, 'sunward_two', inject('postgresTemplate'));
    drop = scratch.drop;
    a = await startTestServer({ ...env, DATABASE_URL: scratch.url });
    b = await startTestServer({ ...env, DATABASE_URL: scratch.url });
    fleet = await provisionDemoFleet(a.database.db, { seed: 11, mqttUrl: `mqtt://127.0.0.1:${a.telemetry.mqttPort}`, intervalSeconds: 60 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop?.();
  });

  /** An SSE connection to `server`; `until` resolves with what it received once `done` holds, or rejects after 5 s. */
  async function liveStream(server: TestServer, token: string) {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/v1/live`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    let text = '';
    return {
      async until(done: (text: string) => boolean): Promise<string> {
        const timeout = setTimeout(() => controller.abort(), 5000);
        try {
          while (!done(text)) {
            const { value, done: ended } = await reader.read();
            if (ended) break;
            text += decoder.decode(value);
          }
        } finally {
          clearTimeout(timeout);
        }
        if (!done(text)) throw new Error(`stream ended without it: ${text}`);
        return text;
      },
      close: () => controller.abort(),
    };
  }

  it('a reading ingested by process A reaches a console connected to process B within 2 s, only for users who see the plant', async () => {
    const g = fleet.gateways.find((x) => !x.spare && x.devices.some((d) => d.family === 'inverter'));
    const device = g?.devices.find((d) => d.family === 'inverter');
    if (!g || !device) throw new Error('no inverter');
    const [row] = await a.database.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, device.sn));
    const outsiderCompany = await a.createCompany('Elsewhere Solar');
    const outsider = await a.createUser('company_admin', undefined, { companyId: outsiderCompany });
    const adminToken = (await signIn(b.app, ADMIN.account, ADMIN.password, '203.0.113.1')).access_token;
    const outsiderToken = (await signIn(b.app, outsider.account, outsider.password, '203.0.113.2')).access_token;
    const seeing = await liveStream(b, adminToken);
    const notSeeing = await liveStream(b, outsiderToken);

    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${a.telemetry.mqttPort}`, {
      clientId: g.sn,
      username: g.sn,
      password: g.key,
      reconnectPeriod: 0,
    });
    try {
      const protocol = protocolById(device.protocolId);
      if (!protocol) throw new Error('no protocol');
      const blocks = encodeValues(protocol, { W: 4321, WH: 1234 }).map((x) => ({
        fc: x.functionCode as 3 | 4,
        addr: x.address,
        hex: registersToHex(x.registers),
      }));
      const started = Date.now();
      await client.publishAsync(
        gatewayTopic(g.sn, 'report'),
        JSON.stringify({ v: 1, seq: 1, ts: Date.now(), devices: [{ sn: device.sn, proto: device.protocolId, blocks }] }),
        { qos: 1 },
      );
      const text = await seeing.until((t) => t.includes(`"deviceId":${row?.id}`));
      expect(Date.now() - started).toBeLessThan(2000);
      expect(text).toContain('"powerW":4321');
    } finally {
      await client.endAsync(true);
    }
    // A marker the outsider may see, published on A after the reading: the bus keeps one process's order,
    // so once it arrives, the reading's changes would have arrived before it.
    const marked = await call(a.app, 'POST', '/api/v1/message/update/states', { token: outsiderToken, json: {}, ip: '203.0.113.2' });
    expect(marked.body.code).toBe(0);
    const outsiderText = await notSeeing.until((t) => t.includes('event: message'));
    expect(outsiderText).not.toContain('event: device');
    expect(outsiderText).not.toContain('event: plant');
    seeing.close();
    notSeeing.close();
  });

  it('a rate limit counted on A applies on B', async () => {
    const from = (server: TestServer) => server.app.inject({ url: '/anonymous/about', headers: { 'x-forwarded-for': '198.51.100.40' } });
    for (const server of [a, b, a, b, a]) expect((await from(server)).statusCode).toBe(200);
    const refused = await from(b);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: Code.RATE_LIMITED });
    expect((await from(a)).statusCode).toBe(429);
  });

  it('wrong passwords on A lock the account on B', async () => {
    const user = await a.createUser('company_admin');
    const attempt = (server: TestServer, password: string) =>
      call(server.app, 'POST', '/oauth/token', { form: { grant_type: 'password', username: user.account, password }, ip: '198.51.100.50' });
    await attempt(a, 'Wrong-Password-1');
    await attempt(a, 'Wrong-Password-2');
    expect((await attempt(b, user.password)).body.code).toBe(Code.SIGN_IN_LOCKED);
  });

  it('an idempotency key used on A answers the same command on B', async () => {
    const device = fleet.gateways.flatMap((g) => (g.spare ? [] : g.devices)).find((d) => d.family === 'inverter');
    if (!device) throw new Error('no inverter');
    // Online but nobody answers: the command times out after 1 s and stays recorded.
    await a.database.db.update(devices).set({ status: 1 }).where(eq(devices.sn, device.sn));
    const token = (await signIn(a.app, ADMIN.account, ADMIN.password, '198.51.100.60')).access_token;
    const key = `two-${Date.now()}`;
    const boot = (server: TestServer) =>
      call<{ commandId?: number }>(server.app, 'POST', `/api/v1/inverter/${device.sn}/boot`, {
        token,
        json: { idempotencyKey: key },
        ip: '198.51.100.60',
      });
    const first = await boot(a);
    const again = await boot(b);
    expect(again.body.code).toBe(first.body.code);
    expect(again.body.data).toEqual(first.body.data);
    const rows = await b.database.db.select().from(deviceCommands).where(eq(deviceCommands.idempotencyKey, key));
    expect(rows).toHaveLength(1);
  });

  it('a session signed in on A is honoured and refreshed on B', async () => {
    const tokens = await signIn(a.app, ADMIN.account, ADMIN.password, '198.51.100.70');
    expect((await call(b.app, 'GET', '/api/v1/user', { token: tokens.access_token, ip: '198.51.100.70' })).status).toBe(200);
    const refreshed = await call<{ access_token: string }>(b.app, 'POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      ip: '198.51.100.70',
    });
    expect(refreshed.body.code).toBe(0);
    expect((await call(a.app, 'GET', '/api/v1/user', { token: refreshed.body.data.access_token, ip: '198.51.100.70' })).status).toBe(200);
  });
});
