import { Code } from '@sunward/contracts/codes';
import type { DaySeries } from '@sunward/contracts/devices';
import type { ProtocolRestorePreview, ProtocolSwitchPreview, ProtocolSwitchResult } from '@sunward/contracts/protocol-switch';
import type { ProtocolSave } from '@sunward/contracts/protocols';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceProtocolSwitches, deviceRealtime, devices, operationLog, readingsBeforeSwitch } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

// Issue 19: a device's protocol switched with a preview of what would decode differently.
const SN = 'SWITCH0001';
let server: TestServer;
let token: string;
let gateway: TestGateway;
const ids: Record<string, number> = {};
const { get, post } = apiClient(
  () => server.app,
  () => token,
);

const point = (id: string, address: number, extra: Record<string, unknown> = {}) => ({
  id,
  label: { en: id, zh: id },
  functionCode: 3 as const,
  address,
  count: 1,
  type: 'u16' as const,
  operation: 'r' as const,
  ...extra,
});

function protocol(
  identifier: string,
  points: ProtocolSave['content']['points'],
  family: ProtocolSave['family'] = 'inverter',
): ProtocolSave {
  return {
    identifier,
    code: identifier.toUpperCase(),
    name: `${identifier.slice(0, 8)} map`,
    manufacturer: 'Switch Energy',
    family,
    protocolVersion: '1.0',
    configurationVersion: '1',
    content: { title: { en: identifier, zh: identifier }, source: 'test', points, events: [] },
  };
}

// The device's map, and another brand's map of the same registers: power in tens of watts, the temperature
// left out, register 5 named differently, a voltage at a register the device's reports do not carry.
const FROM = protocol('switch-from', [
  point('Pac', 0, { count: 2, type: 'u32', unit: 'W', role: 'power' }),
  point('Etot', 2, { count: 2, type: 'u32', unit: 'Wh', role: 'energy_total' }),
  point('Temp', 4, { type: 's16', unit: '°C', scale: 0.1 }),
  point('Fault', 5),
]);
const TO = protocol('switch-to', [
  point('Pac', 0, { count: 2, type: 'u32', unit: 'W', scale: 10, role: 'power' }),
  point('Etot', 2, { count: 2, type: 'u32', unit: 'Wh', role: 'energy_total' }),
  point('Code', 5),
  point('Vac', 40, { unit: 'V', scale: 0.1 }),
]);

async function deviceRow() {
  const [row] = await server.database.db
    .select({ protocolId: devices.protocolId, protocolVersion: devices.protocolVersion })
    .from(devices)
    .where(eq(devices.sn, SN));
  return row;
}

beforeAll(async () => {
  server = await startTestServer();
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  for (const [name, body] of [
    ['from', FROM],
    ['to', TO],
    ['off', protocol('switch-off', TO.content.points)],
    ['meter', protocol('switch-meter', TO.content.points, 'meter')],
  ] as const) {
    const created = await post<{ id: number }>('/api/v1/protocols', body);
    expect(created.code, JSON.stringify(created)).toBe(0);
    ids[name] = created.data.id;
  }
  expect((await call(server.app, 'PUT', `/api/v1/protocols/${ids.off}/enabled`, { token, json: { enabled: false } })).body.code).toBe(0);
  const plant = await createPlant(server, token);
  await server.database.db
    .insert(devices)
    .values({ sn: SN, protocolId: 'switch-from', protocolVersion: 1, family: 'inverter', plantId: plant.id, gatewayId: plant.gateway.id });
  await server.telemetry.pipeline.reloadDevices();
  gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  await gateway.report(Date.now() - 60_000, [{ sn: SN, proto: 'switch-from', values: { Pac: 1500, Etot: 100_000, Temp: 35.5, Fault: 3 } }]);
  await server.telemetry.pipeline.drain();
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

describe('switching a device’s protocol', () => {
  it('previews its latest reading read with both maps, point by point', async () => {
    const answer = await get<ProtocolSwitchPreview>(`/api/v1/device/${SN}/protocol/preview?protocolId=${ids.to}`);
    expect(answer.code, JSON.stringify(answer)).toBe(0);
    const preview = answer.data;
    expect(preview).toMatchObject({
      sn: SN,
      from: { identifier: 'switch-from', version: 1 },
      to: { identifier: 'switch-to', version: 1, id: ids.to },
    });
    expect(preview.readingAt).not.toBeNull();
    const byId = Object.fromEntries(preview.rows.map((r) => [r.id, r]));
    expect(byId.Pac).toMatchObject({ before: 1500, after: 15_000, unitBefore: 'W', unitAfter: 'W', status: 'changed' });
    expect(byId.Etot).toMatchObject({ before: 100_000, after: 100_000, status: 'same' });
    expect(byId.Temp).toMatchObject({ before: 35.5, after: null, status: 'removed' });
    expect(byId.Fault).toMatchObject({ before: 3, status: 'removed' });
    expect(byId.Code).toMatchObject({ before: null, after: 3, status: 'added' });
    expect(byId.Vac).toMatchObject({ after: null, unitAfter: 'V', status: 'no_data' });
    expect(preview.uncovered).toEqual([{ functionCode: 3, address: 4, count: 1 }]);
  });

  it('refuses other users, unknown devices and protocols, disabled ones, the same one and another type; nothing changes', async () => {
    const admin = await signedInUser(server, 'company_admin', await server.createCompany('Switch Co'));
    expect((await get(`/api/v1/device/${SN}/protocol/preview?protocolId=${ids.to}`, admin.token)).code).toBe(Code.NO_PERMISSION);
    expect((await post(`/api/v1/device/${SN}/protocol`, { protocolId: ids.to, password: admin.password }, admin.token)).code).toBe(
      Code.NO_PERMISSION,
    );
    expect((await get(`/api/v1/device/NOSUCH0001/protocol/preview?protocolId=${ids.to}`)).code).toBe(Code.DEVICE_NOT_FOUND);
    for (const [protocolId, message] of [
      [999_999, 'No such protocol'],
      [ids.off, 'This protocol is disabled: enable it first'],
      [ids.from, 'The device already uses this protocol'],
      [ids.meter, 'This protocol is for another device type'],
    ] as const) {
      const refused = await post<null>(`/api/v1/device/${SN}/protocol`, { protocolId, password: ADMIN.password });
      expect(refused).toMatchObject({ code: Code.VALIDATION, data: { errors: [{ field: 'protocolId', message }] } });
    }
    const german = await get<null>(`/api/v1/device/${SN}/protocol/preview?protocolId=${ids.off}`, {
      token,
      headers: { 'accept-language': 'de' },
    });
    expect(german).toMatchObject({
      code: Code.VALIDATION,
      data: { errors: [{ message: 'Dieses Protokoll ist deaktiviert: zuerst aktivieren' }] },
    });
    expect((await post(`/api/v1/device/${SN}/protocol`, { protocolId: ids.to, password: 'wrong-password' })).code).toBe(
      Code.CONFIRM_PASSWORD_WRONG,
    );
    expect(await deviceRow()).toEqual({ protocolId: 'switch-from', protocolVersion: 1 });
  });

  it('switches on confirmation: logged, the next report decodes with the new map, one on the old map is refused', async () => {
    const done = await post<ProtocolSwitchResult>(`/api/v1/device/${SN}/protocol`, { protocolId: ids.to, password: ADMIN.password });
    expect(done).toMatchObject({ code: 0, data: { sn: SN, protocolId: 'switch-to', protocolVersion: 1, readingsCarried: 1 } });
    expect(await deviceRow()).toEqual({ protocolId: 'switch-to', protocolVersion: 1 });
    const [logged] = await server.database.db
      .select()
      .from(operationLog)
      .where(and(eq(operationLog.target, SN), eq(operationLog.action, 'device.protocol')));
    expect(logged?.request).toEqual({
      from: { protocol: 'switch-from', version: 1 },
      to: { protocol: 'switch-to', version: 1 },
      readingsCarried: 1,
    });

    // The history reads by point under the new protocol: the reading stored before the switch still shows its
    // 1500 W and 100 kWh, and the point only the new protocol has is empty there.
    const history = await get<DaySeries>(`/api/v1/inverter/${SN}/day?points=Pac,Etot,Code`);
    expect(history.code, JSON.stringify(history)).toBe(0);
    const values = Object.fromEntries(history.data.series.map((s) => [s.id, s.points.map(([, v]) => v)]));
    expect(values).toEqual({ Pac: [1500], Etot: [100_000], Code: [null] });
    // What was there before is kept aside, in the old order (Pac, Etot, Temp, Fault).
    const kept = await server.database.db
      .select({ values: readingsBeforeSwitch.values, fromOrder: deviceProtocolSwitches.fromOrder, toOrder: deviceProtocolSwitches.toOrder })
      .from(readingsBeforeSwitch)
      .innerJoin(deviceProtocolSwitches, eq(deviceProtocolSwitches.id, readingsBeforeSwitch.switchId));
    expect(kept).toEqual([
      { values: [1500, 100_000, 35.5, 3], fromOrder: ['Pac', 'Etot', 'Temp', 'Fault'], toOrder: ['Pac', 'Etot', 'Code', 'Vac'] },
    ]);

    const realtime = async () =>
      (
        await server.database.db
          .select()
          .from(deviceRealtime)
          .innerJoin(devices, eq(devices.id, deviceRealtime.deviceId))
          .where(eq(devices.sn, SN))
      )[0]?.device_realtime;
    // The old map is refused now (protocol_mismatch): nothing new stored.
    const before = await realtime();
    await gateway.report(Date.now() - 30_000, [{ sn: SN, proto: 'switch-from', values: { Pac: 900, Etot: 100_100, Temp: 30, Fault: 0 } }]);
    await server.telemetry.pipeline.drain();
    expect((await realtime())?.ts).toEqual(before?.ts);
    // The new map decodes: 2000 W sent as 200 tens of watts.
    await gateway.report(Date.now() - 10_000, [{ sn: SN, proto: 'switch-to', values: { Pac: 2000, Etot: 100_200, Code: 0, Vac: 230 } }]);
    await server.telemetry.pipeline.drain();
    const after = await realtime();
    expect(after?.powerW).toBe(2000);
    expect(after?.energyTotalWh).toBe(100_200);
  });

  it('moves every device of a protocol to another of its versions, previewed on the latest reading', async () => {
    // Version 2 reads power in watts again; version 1 (tens of watts) is restored as version 3.
    const edited = await call<{ currentVersion: number }>(server.app, 'PUT', `/api/v1/protocols/${ids.to}`, {
      token,
      json: {
        ...TO,
        content: { ...TO.content, points: TO.content.points.map((p) => (p.id === 'Pac' ? { ...p, scale: 1 } : p)) },
        baseVersion: 1,
      },
    });
    expect(edited.body).toMatchObject({ code: 0, data: { currentVersion: 2 } });
    expect(await deviceRow()).toEqual({ protocolId: 'switch-to', protocolVersion: 2 });
    await gateway.report(Date.now() - 5_000, [{ sn: SN, proto: 'switch-to', values: { Pac: 1800, Etot: 100_300, Code: 0, Vac: 230 } }]);
    await server.telemetry.pipeline.drain();

    const preview = await get<ProtocolRestorePreview>(`/api/v1/protocols/${ids.to}/versions/1/preview`);
    expect(preview).toMatchObject({ code: 0, data: { sn: SN, devices: 1, from: { version: 2 }, to: { version: 1 } } });
    const pac = preview.data.rows.find((r) => r.id === 'Pac');
    expect(pac).toMatchObject({ before: 1800, after: 18_000, status: 'changed' });

    // The current version, a stale base and a version that does not exist are refused; nothing changes.
    expect((await post(`/api/v1/protocols/${ids.to}/versions/2/restore`, { baseVersion: 2 })).code).toBe(Code.VALIDATION);
    expect((await post(`/api/v1/protocols/${ids.to}/versions/1/restore`, { baseVersion: 1 })).code).toBe(Code.PROTOCOL_VERSION_STALE);
    expect((await post(`/api/v1/protocols/${ids.to}/versions/9/restore`, { baseVersion: 2 })).code).toBe(Code.NOT_FOUND);
    const admin = await signedInUser(server, 'company_admin', await server.createCompany('Restore Co'));
    expect((await post(`/api/v1/protocols/${ids.to}/versions/1/restore`, { baseVersion: 2 }, admin.token)).code).toBe(Code.NO_PERMISSION);
    expect(await deviceRow()).toEqual({ protocolId: 'switch-to', protocolVersion: 2 });

    const restored = await post<{ version: number }>(`/api/v1/protocols/${ids.to}/versions/1/restore`, { baseVersion: 2 });
    expect(restored).toMatchObject({ code: 0, data: { version: 3 } });
    expect(await deviceRow()).toEqual({ protocolId: 'switch-to', protocolVersion: 3 });
    // The next report decodes with the restored version: 2200 W sent as 220 tens of watts.
    await gateway.report(Date.now() - 2_000, [{ sn: SN, proto: 'switch-to', values: { Pac: 2200, Etot: 100_400, Code: 0, Vac: 230 } }]);
    await server.telemetry.pipeline.drain();
    const [row] = await server.database.db
      .select({ powerW: deviceRealtime.powerW })
      .from(deviceRealtime)
      .innerJoin(devices, eq(devices.id, deviceRealtime.deviceId))
      .where(eq(devices.sn, SN));
    expect(row?.powerW).toBe(2200);
  });
});
