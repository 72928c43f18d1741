import { Code } from '@sunward/contracts/codes';
import type { DownloadRecord, DownloadRecordPage } from '@sunward/contracts/files';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { ConnectionLogPage, MaintenanceLogPage } from '@sunward/contracts/logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { call } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway } from '../../test/test-gateway.js';

/*
 * The logger family (issue 21): a gateway's connects, disconnects and refused reports, written in
 * batches from the broker and the pipeline; the maintenance log of equipment changes; both behind the
 * tenant boundary, filtered, and exported through the download centre.
 */

let server: TestServer;
let tokenA: string;
let tokenB: string;
let guestToken: string;
let gateway: { id: number; sn: string; key: string };
let deviceId = 0;
let companyA = 0;
let companyB = 0;

const { get, post } = apiClient(
  () => server.app,
  () => tokenA,
);

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const communication = async (query = '', token = tokenA) =>
  (await get<ConnectionLogPage>(`/api/v1/logger/communication${query}`, token)).data;

beforeAll(async () => {
  server = await startTestServer();
  companyA = await server.createCompany('Logs A');
  companyB = await server.createCompany('Logs B');
  tokenA = (await signedInUser(server, 'company_admin', companyA)).token;
  tokenB = (await signedInUser(server, 'company_admin', companyB)).token;
  guestToken = (await signedInUser(server, 'guest')).token;
  const plant = await createPlant(server, tokenA, { name: 'Logs Plant' }, companyA);
  gateway = plant.gateway;
  const [device] = await server.database.db
    .insert(devices)
    .values({ sn: 'LGIN000001', protocolId: 'sunspec-inverter-1p', family: 'inverter', plantId: plant.id, gatewayId: gateway.id })
    .returning({ id: devices.id });
  deviceId = device?.id ?? 0;
  await server.telemetry.pipeline.reloadDevices();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('communication log', () => {
  it('records a connect, a refused report and a disconnect with its session length and reason', async () => {
    const first = await connectTestGateway(server.telemetry.mqttPort, gateway.sn, gateway.key);
    // A report that is not the protocol's: refused with its reason (and acknowledged).
    await first.client.publishAsync(gatewayTopic(gateway.sn, 'report'), 'not a report', { qos: 1 });
    await first.close();
    const second = await connectTestGateway(server.telemetry.mqttPort, gateway.sn, gateway.key);
    const page = await until(
      () => communication(),
      (p) => p.infos.filter((r) => r.kind === 'connect').length >= 2 && p.infos.some((r) => r.kind === 'disconnect'),
    );
    await second.close();
    const kinds = page.infos.map((r) => r.kind);
    expect(kinds).toContain('refused');
    const refused = page.infos.find((r) => r.kind === 'refused');
    expect(refused).toMatchObject({ gatewaySn: gateway.sn, count: 1 });
    expect(refused?.reason).toMatch(/invalid|malformed|json|schema/i);
    const disconnect = page.infos.find((r) => r.kind === 'disconnect');
    expect(disconnect).toMatchObject({ gatewaySn: gateway.sn, reason: 'closed by the gateway' });
    expect(disconnect?.sessionSeconds).toBeGreaterThanOrEqual(0);
    expect(page.infos.find((r) => r.kind === 'connect')?.address).toMatch(/127\.0\.0\.1/);
  });

  it('filters by kind and SN and keeps another company out', async () => {
    const connects = await communication('?kind=connect');
    expect(connects.infos.every((r) => r.kind === 'connect')).toBe(true);
    expect((await communication(`?sn=${gateway.sn.slice(-4).toLowerCase()}`)).total).toBeGreaterThan(0);
    expect((await communication('?sn=NOPE')).total).toBe(0);
    expect((await communication('', tokenB)).total).toBe(0);
  });

  it('refuses bad input and callers without the logs permission', async () => {
    expect((await get('/api/v1/logger/communication?kind=hello')).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/logger/communication?from=yesterday')).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/logger/communication?size=1000')).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/logger/communication', guestToken)).code).toBe(Code.NO_PERMISSION);
    expect((await post('/api/v1/logger/communication/export', { format: 'pdf' })).code).toBe(Code.VALIDATION);
  });

  it('exports through the download centre', async () => {
    const started = await post<DownloadRecord>('/api/v1/logger/communication/export', { format: 'csv' });
    expect(started.code).toBe(0);
    const done = await until(
      async () => (await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list')).data.infos.find((r) => r.id === started.data.id),
      (r) => r?.status === 'done',
    );
    expect(done?.kind).toBe('connection-log');
    const file = await server.app.inject({
      method: 'GET',
      url: `/api/v1/fileDownloadRecord/${started.data.id}/download`,
      headers: { authorization: `Bearer ${tokenA}` },
    });
    expect(file.body).toContain('Gateway SN');
    expect(file.body).toContain('Disconnected');
    expect(file.body.trim().split('\r\n')).toHaveLength((done?.rows ?? 0) + 1);
  });
});

describe('command log export', () => {
  it('exports the company’s debug reads through the download centre, not another company’s', async () => {
    const { sql } = await import('drizzle-orm');
    await server.database.db.execute(sql`insert into device_commands (account, company_id, device_sn, op, status, request, result)
      values ('a@logs', ${companyA}, 'LGIN000001', 'read', 'ok', '{"address":40000}', '{"values":[1]}'),
             ('b@logs', ${companyB}, 'OTHER00001', 'read', 'ok', '{"address":40001}', null)`);
    const started = await post<DownloadRecord>('/api/v1/logger/commands/export', { format: 'csv', op: 'read,write' });
    expect(started.code).toBe(0);
    const done = await until(
      async () => (await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list')).data.infos.find((r) => r.id === started.data.id),
      (r) => r?.status === 'done',
    );
    expect(done).toMatchObject({ kind: 'command-log', rows: 1 });
    const file = await server.app.inject({
      method: 'GET',
      url: `/api/v1/fileDownloadRecord/${started.data.id}/download`,
      headers: { authorization: `Bearer ${tokenA}` },
    });
    expect(file.body).toContain('LGIN000001');
    expect(file.body).not.toContain('OTHER00001');
    expect((await post('/api/v1/logger/commands/export', { op: 'DROP TABLE' })).code).toBe(Code.VALIDATION);
    expect((await post('/api/v1/logger/commands/export', {}, guestToken)).code).toBe(Code.NO_PERMISSION);
  });
});

describe('maintenance log', () => {
  it('shows who changed which equipment, when and with what result, to the right company only', async () => {
    const renamed = await call(server.app, 'POST', `/api/v1/inverter/${deviceId}/alias`, { token: tokenA, json: { alias: 'Roof' } });
    expect(renamed.body.code).toBe(0);
    const page = (await get<MaintenanceLogPage>('/api/v1/logger/maintenance')).data;
    expect(page.infos[0]).toMatchObject({ action: 'inverter.alias', target: 'LGIN000001', targetType: 'device', result: 'ok' });
    expect((await get<MaintenanceLogPage>('/api/v1/logger/maintenance?target=lgin&result=ok')).data.total).toBe(1);
    expect((await get<MaintenanceLogPage>('/api/v1/logger/maintenance?result=failed')).data.total).toBe(0);
    expect((await get<MaintenanceLogPage>('/api/v1/logger/maintenance', tokenB)).data.total).toBe(0);
    expect((await get('/api/v1/logger/maintenance?result=maybe')).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/logger/maintenance', guestToken)).code).toBe(Code.NO_PERMISSION);
  });

  it('exports as .xlsx through the download centre', async () => {
    const started = await post<DownloadRecord>('/api/v1/logger/maintenance/export', { format: 'xlsx' });
    const done = await until(
      async () => (await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list')).data.infos.find((r) => r.id === started.data.id),
      (r) => r?.status === 'done',
    );
    expect(done).toMatchObject({ kind: 'operation-log', rows: 1, format: 'xlsx' });
  });
});
