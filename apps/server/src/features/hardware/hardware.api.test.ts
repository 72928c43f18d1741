import { createHash, randomBytes } from 'node:crypto';
import { Code } from '@sunward/contracts/codes';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { HardwareModel, HardwarePage, Products } from '@sunward/contracts/hardware';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gateways, hardwareModels } from '../../db/schema.js';
import { apiClient, createPlant, signedInCast } from '../../test/api.js';
import { call, multipartBody } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway } from '../../test/test-gateway.js';

// The hardware list and products (issue 19): seeded from the shipped maps, managed by platform administrators.

let server: TestServer;
let admin: string;
let companyAdmin: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ admin, companyAdmin } = await signedInCast(server, 'Hardware Test Company'));
});
afterAll(async () => {
  await server?.close();
});
const { get, post, del } = apiClient(
  () => server.app,
  () => admin,
);
const put = async <T>(path: string, json: unknown) => (await call<T>(server.app, 'PUT', path, { token: admin, json })).body;

/** An enabled remote inverter image of the main library at `swVersion`. */
const inverterImage = (swVersion: string) => firmwareImage(swVersion, 'inverter');

/** An enabled remote inverter or gateway image of the main library at `swVersion`. */
async function firmwareImage(swVersion: string, type: 'inverter' | 'gateway'): Promise<number> {
  const bytes = randomBytes(2048);
  const fields = {
    name: `HW-${type}-${swVersion}`,
    manufacturer: 'Sunward',
    product: type === 'gateway' ? 'SWG-TEST' : 'SW-inverter',
    swVersion,
    type,
    mode: 'remote',
    fileName: `hw_${type}_${swVersion}.bin`,
    md5: createHash('md5').update(bytes).digest('hex'),
  };
  const { payload, contentType } = multipartBody(fields, { name: fields.fileName, bytes });
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/v1/firmware',
    headers: { authorization: `Bearer ${admin}`, 'content-type': contentType },
    payload,
  });
  const created = response.json() as { code: number; data: { id: number } };
  if (created.code !== 0) throw new Error(JSON.stringify(created));
  await post(`/api/v1/firmware/${created.data.id}/enable`, { enabled: true });
  return created.data.id;
}

describe('the hardware list', () => {
  it('is seeded with the models the shipped maps’ devices name, one per device family', async () => {
    const page = await get<HardwarePage>('/api/v1/hardware?size=100');
    expect(page.code).toBe(0);
    expect(page.data.infos.find((m) => m.model === 'SW-inverter')).toMatchObject({
      manufacturer: 'Sunward',
      kind: 'inverter',
      protocolIdentifier: expect.stringMatching(/^sunspec-inverter/),
      builtIn: true,
    });
    expect(new Set(page.data.infos.map((m) => m.kind)).size).toBe(page.data.infos.length);
  });

  it('counts the devices that report a model on their nameplate', async () => {
    const plant = await createPlant(server, admin);
    const gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
    await gateway.report(Date.now() - 60_000, [{ sn: 'HWINV0001', proto: 'sunspec-inverter-3p', values: {} }]);
    await gateway.close();
    const page = await get<HardwarePage>('/api/v1/hardware?keyword=SW-inverter');
    expect(page.data.infos).toEqual([expect.objectContaining({ model: 'SW-inverter', devices: 1 })]);
  });

  it('gives firmware upgrades the range of versions a model can run: an image outside it is refused (4010)', async () => {
    const model = (await get<HardwarePage>('/api/v1/hardware?keyword=SW-inverter')).data.infos[0];
    if (!model) throw new Error('no SW-inverter model');
    const range = (firmwareCompatible: string) =>
      put(`/api/v1/hardware/${model.id}`, {
        manufacturer: model.manufacturer,
        model: model.model,
        kind: model.kind,
        protocolIdentifier: model.protocolIdentifier,
        firmwareCompatible,
      });
    expect((await range('>=2.0.0 <3.0.0')).code).toBe(0);
    const upgrade = async (swVersion: string) => {
      const firmId = await inverterImage(swVersion);
      const idempotencyKey = `hw-${swVersion.replaceAll('.', '-')}-${Date.now()}`;
      const answer = await post(`/api/v1/inverter/HWINV0001/upgrade`, { firmId, password: ADMIN.password, idempotencyKey });
      return answer.code;
    };
    // HWINV0001 reports model SW-inverter by Sunward on its nameplate (the test before).
    expect(await upgrade('3.1.0')).toBe(Code.FIRMWARE_INCOMPATIBLE);
    const inside = await upgrade('2.5.0');
    expect(inside).not.toBe(Code.FIRMWARE_INCOMPATIBLE);
    // Without a range the model runs any version.
    expect((await range('')).code).toBe(0);
    expect(await upgrade('3.2.0')).not.toBe(Code.FIRMWARE_INCOMPATIBLE);
  });

  it('applies a gateway model’s range to gateway upgrades, the model named by the gateway’s status (4010 outside it)', async () => {
    const plant = await createPlant(server, admin);
    const gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
    const status = { v: 1, online: true, fw: '1.0.0', make: 'Sunward', model: 'SWG-TEST' };
    await gateway.client.publishAsync(gatewayTopic(plant.gateway.sn, 'status'), JSON.stringify(status), { qos: 1, retain: true });
    await vi.waitFor(
      async () => {
        const [row] = await server.database.db.select().from(gateways).where(eq(gateways.sn, plant.gateway.sn));
        expect(row).toMatchObject({ manufacturer: 'Sunward', model: 'SWG-TEST' });
      },
      { timeout: 15_000, interval: 100 },
    );
    const model = await post<HardwareModel>('/api/v1/hardware', {
      manufacturer: 'Sunward',
      model: 'SWG-TEST',
      kind: 'gateway',
      firmwareCompatible: '>=1.0.0 <2.0.0',
    });
    expect(model.code).toBe(0);
    const upgrade = async (swVersion: string) => {
      const firmId = await firmwareImage(swVersion, 'gateway');
      const idempotencyKey = `gw-${swVersion.replaceAll('.', '-')}-${Date.now()}`;
      return (await post(`/api/v1/gateway/${plant.gateway.sn}/upgrade`, { firmId, password: ADMIN.password, idempotencyKey })).code;
    };
    expect(await upgrade('2.1.0')).toBe(Code.FIRMWARE_INCOMPATIBLE);
    expect(await upgrade('1.5.0')).toBe(0);
    await gateway.close();
  });

  it('adds, edits and deletes a model; manufacturer and model stay unique regardless of case (4220)', async () => {
    const body = {
      manufacturer: 'Zenit Energy',
      model: 'ZX-10K',
      kind: 'inverter',
      protocolIdentifier: 'zenit-inv',
      firmwareCompatible: '>=1.0.0 <3.0.0',
    };
    const added = await post<HardwareModel>('/api/v1/hardware', body);
    expect(added.code).toBe(0);
    expect(added.data).toMatchObject({ ...body, builtIn: false, devices: 0 });
    expect((await post('/api/v1/hardware', { ...body, manufacturer: 'zenit energy', model: 'zx-10k' })).code).toBe(
      Code.HARDWARE_MODEL_EXISTS,
    );
    const other = await post<HardwareModel>('/api/v1/hardware', { ...body, model: 'ZX-5K' });
    expect((await put(`/api/v1/hardware/${other.data.id}`, body)).code).toBe(Code.HARDWARE_MODEL_EXISTS);
    const edited = await put<HardwareModel>(`/api/v1/hardware/${other.data.id}`, { ...body, model: 'ZX-6K', firmwareCompatible: '' });
    expect(edited.data).toMatchObject({ model: 'ZX-6K', firmwareCompatible: null });
    const products = await get<Products>('/api/v1/products');
    expect(products.data.find((b) => b.manufacturer === 'Zenit Energy')?.models.map((m) => m.model)).toEqual(['ZX-10K', 'ZX-6K']);
    expect((await del(`/api/v1/hardware/${other.data.id}`)).code).toBe(0);
    expect((await del(`/api/v1/hardware/${other.data.id}`)).code).toBe(Code.NOT_FOUND);
  });

  it('refuses bad input naming the field, and stores nothing', async () => {
    const before = (await server.database.db.select().from(hardwareModels)).length;
    const refused = await post('/api/v1/hardware', {
      manufacturer: 'Acme',
      model: 'A1',
      kind: 'toaster',
      firmwareCompatible: '>=1.0 & <2',
    });
    expect(refused.code).toBe(Code.VALIDATION);
    const fields = (refused.data as { errors: { field: string }[] }).errors.map((e) => e.field).sort();
    expect(fields).toEqual(['firmwareCompatible', 'kind']);
    expect((await post('/api/v1/hardware', { manufacturer: '', model: 'A1', kind: 'inverter' })).code).toBe(Code.VALIDATION);
    expect((await server.database.db.select().from(hardwareModels)).length).toBe(before);
  });

  it('is for platform administrators only', async () => {
    expect((await call(server.app, 'GET', '/api/v1/hardware', { token: companyAdmin })).body.code).toBe(Code.NO_PERMISSION);
    const write = await call(server.app, 'POST', '/api/v1/hardware', {
      token: companyAdmin,
      json: { manufacturer: 'X', model: 'Y', kind: 'meter' },
    });
    expect(write.body.code).toBe(Code.NO_PERMISSION);
  });
});
