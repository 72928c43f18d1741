import { DeviceStatus } from '@sunward/contracts/device-status';
import type { PlantRealtime } from '@sunward/contracts/plant-energy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema.js';
import { createPlant } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

// One rule for a plant's power now, wherever it shows (list, map popup, overview): a device that is
// Offline counts 0 W; "--" (null) only for a plant whose generating devices never reported.
let server: TestServer;
let token: string;
const gateways: TestGateway[] = [];
const MINUTE = 60_000;

beforeAll(async () => {
  server = await startTestServer();
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
});
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await server?.close();
});

async function plantWithInverters(name: string, inverters: string[]) {
  const created = await createPlant(server, token, {
    name,
    capacityKwp: 10,
    latitude: 28.61,
    longitude: 77.21,
    timezone: 'Asia/Kolkata',
    tariff: { currency: 'INR', pricingMethod: 'constant', price: 7 },
  });
  const plantId = created.id;
  const { id: gatewayId, sn, key } = created.gateway;
  await server.database.db
    .insert(devices)
    .values(inverters.map((d) => ({ sn: d, protocolId: 'sunspec-inverter-1p', family: 'inverter', plantId, gatewayId, model: 'x' })));
  const gateway = await connectTestGateway(server.telemetry.mqttPort, sn, key);
  gateways.push(gateway);
  return { plantId, gateway };
}

async function powers(plantId: number) {
  const list = await call<{ records: { id: number; powerW: number | null }[] }>(server.app, 'GET', '/api/v1/plants', {
    token,
    query: { page: '1', size: '100' },
  });
  const realtime = await call<PlantRealtime>(server.app, 'GET', `/api/v1/plant/${plantId}/realtime`, { token });
  return { list: list.body.data.records.find((p) => p.id === plantId)?.powerW, overview: realtime.body.data.powerW };
}

describe('power of a plant whose devices are offline', () => {
  it('is 0 W in the plant list (and its map) as on the overview, once the sweep finds the devices silent', async () => {
    // Reported 2,510 W half an hour ago, then fell silent (report interval 300 s: Offline after 15 minutes).
    const { plantId, gateway } = await plantWithInverters('Delhi Cold Store', ['OPIN000001']);
    await gateway.report(Date.now() - 30 * MINUTE, [
      { sn: 'OPIN000001', proto: 'sunspec-inverter-1p', values: { W: 2510, WH: 9000, St: 4 } },
    ]);
    await server.telemetry.pipeline.drain();
    await server.telemetry.pipeline.sweepOffline(3, DeviceStatus.OFFLINE);
    expect(await powers(plantId)).toEqual({ list: 0, overview: 0 });
  });

  it('counts only the devices still reporting when some are offline', async () => {
    const { plantId, gateway } = await plantWithInverters('Half Silent', ['OPIN000002', 'OPIN000003']);
    await gateway.report(Date.now() - 30 * MINUTE, [
      { sn: 'OPIN000002', proto: 'sunspec-inverter-1p', values: { W: 2510, WH: 9000, St: 4 } },
    ]);
    await gateway.report(Date.now() - 5000, [{ sn: 'OPIN000003', proto: 'sunspec-inverter-1p', values: { W: 1200, WH: 4000, St: 4 } }]);
    await server.telemetry.pipeline.drain();
    await server.telemetry.pipeline.sweepOffline(3, DeviceStatus.OFFLINE);
    expect(await powers(plantId)).toEqual({ list: 1200, overview: 1200 });
  });

  it('shows -- (null) in both places for a plant that never reported', async () => {
    const { plantId } = await plantWithInverters('Never Reported', ['OPIN000004']);
    expect(await powers(plantId)).toEqual({ list: null, overview: null });
  });
});
