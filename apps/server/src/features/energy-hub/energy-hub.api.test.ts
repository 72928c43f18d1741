import { Code } from '@sunward/contracts/codes';
import type { EnergyEvent, Enrollment, EnrollmentBody, EventList } from '@sunward/contracts/energy-hub';
import { CommandPayloadSchema, gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { MessagePage } from '@sunward/contracts/notifications';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';
import { createEnergyHubRepository } from './energy-hub.repository.js';
import { createEnergyHubDispatch } from './energy-hub-dispatch.js';

/*
 * The energy hub through the API and the real scheduler (a pass every 2 s): a plant's BMS batteries reported by a
 * gateway over MQTT that plays them: a DrDisW write makes a battery discharge (its SOC falls, its discharged-energy
 * counter rises in the reports that follow), 0 stops it. An event's time "comes" by moving its stored times.
 */

let server: TestServer;
let a: Awaited<ReturnType<typeof signedInUser>>;
let b: Awaited<ReturnType<typeof signedInUser>>;
/** A user of the same company whose role only reads plants (no station.edit). */
let reader: Awaited<ReturnType<typeof signedInUser>>;
let plantId: number;
let otherPlantId: number;
let wire: TestGateway | undefined;
let otherWire: TestGateway | undefined;
let reporter: NodeJS.Timeout | undefined;

/** The played batteries: SOC, discharged-energy counter, the power written, every DrDisW write in order. */
const battery = {
  EHBT000001: { SoC: 80, DisChaWH: 5000, drW: 0, writes: [] as number[] },
  EHBT000002: { SoC: 10, DisChaWH: 9000, drW: 0, writes: [] as number[] },
};
type BatterySn = keyof typeof battery;

const { get, post } = apiClient(() => server.app);

const report = () =>
  wire?.report(Date.now(), [
    ...Object.entries(battery).map(([sn, s]) => ({
      sn,
      proto: 'sunspec-battery-bms',
      values: { SoC: s.SoC, DisChaWH: s.DisChaWH, W: s.drW, DrDisW: s.drW, SoCRsvMin: 5 },
    })),
    { sn: 'EHIN000001', proto: 'sunspec-inverter-3p', values: { St: 4 } },
  ]);

const address = { country: 'DE', region: 'Berlin', locality: 'Berlin', street: 'Alexanderplatz 1', postalCode: '10178' };
const form = (over: Partial<EnrollmentBody> = {}): EnrollmentBody => ({
  plantId,
  programId: 'summer-peak-2026',
  sourceAccountNumber: '00123456',
  utilityAccountNumber: 'acct_0042',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  serviceAddress: address,
  mailingAddress: { ...address, street: 'Postfach 12' },
  devices: [
    { sn: 'EHBT000001', manufacturer: 'Generic', model: 'BMS-10', installDate: '2025-03-01', storageCapacityKwh: 10, chargeCapacityKw: 5 },
    { sn: 'EHBT000002', manufacturer: 'Generic', model: 'BMS-10', installDate: '2025-03-01', storageCapacityKwh: 10, chargeCapacityKw: 5 },
  ],
  ...over,
});
const count = async (table: string) =>
  Number(
    ((await server.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: { n: number }[] }).rows[0]
      ?.n,
  );
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const eventOf = async (id: number) => (await get<EnergyEvent>(`/api/v1/energyHub/events/${id}`, a.token)).data;
/** Moves an event's times so that its start (or its end) has come. */
const shift = (id: number, change: { start?: number; end?: number }) =>
  server.database.db.execute(
    sql`update energy_hub_events set start_at = coalesce(${change.start === undefined ? null : new Date(change.start).toISOString()}::timestamptz, start_at),
        end_at = coalesce(${change.end === undefined ? null : new Date(change.end).toISOString()}::timestamptz, end_at) where id = ${id}`,
  );
/** Sets the played battery's SOC and waits until the server has stored a report with it. */
async function charged(soc: number) {
  battery.EHBT000001.SoC = soc;
  await vi.waitFor(
    async () => {
      const rows = (await server.database.db.execute(
        sql`select r.soc from device_realtime r join devices d on d.id = r.device_id where d.sn = 'EHBT000001'`,
      )) as unknown as { rows: { soc: number }[] };
      expect(rows.rows[0]?.soc).toBe(soc);
    },
    { timeout: 10_000, interval: 100 },
  );
}
const wait = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 30_000, interval: 250 });

beforeAll(async () => {
  server = await startTestServer({ COMMAND_TIMEOUT_S: '3' });
  const company = await server.createCompany('Hub Co');
  a = await signedInUser(server, 'company_admin', company);
  reader = await signedInUser(server, 'guest', company);
  const stranger = await server.createCompany('Hub Stranger Co');
  b = await signedInUser(server, 'company_admin', stranger);
  for (const admin of [a, b]) expect((await post('/api/v1/component/apps/energy_hub/enable', { enabled: true }, admin.token)).code).toBe(0);
  const plant = await createPlant(server, a.token, { name: 'Hub Plant' }, company);
  plantId = plant.id;
  const other = await createPlant(server, a.token, { name: 'Hub Plant Two' }, company);
  otherPlantId = other.id;
  wire = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  const client = wire.client;
  client.on('message', (_topic, payload) => {
    const command = CommandPayloadSchema.parse(JSON.parse(payload.toString('utf8')));
    const watts = command.params?.DrDisW;
    const played = command.device && command.device in battery ? battery[command.device as BatterySn] : undefined;
    const answer =
      command.op === 'set' && watts !== undefined && played
        ? { status: 'ok', values: { DrDisW: watts } }
        : { status: 'error', error: 'unsupported' };
    if (played && watts !== undefined) {
      played.writes.push(watts);
      played.drW = watts;
    }
    void client
      .publishAsync(gatewayTopic(plant.gateway.sn, 'reply'), JSON.stringify({ v: 1, id: command.id, ...answer }), { qos: 1 })
      .then(report)
      .catch(() => undefined);
  });
  await client.subscribeAsync(gatewayTopic(plant.gateway.sn, 'cmd'), { qos: 1 });
  await report();
  otherWire = await connectTestGateway(server.telemetry.mqttPort, other.gateway.sn, other.gateway.key);
  await otherWire.report(Date.now(), [{ sn: 'EHBT000003', proto: 'sunspec-battery-bms', values: { SoC: 50 } }]);
  await server.telemetry.pipeline.drain();
  // A discharging battery: every 300 ms its SOC falls 2 points and it delivers drW for 6 minutes' worth.
  reporter = setInterval(() => {
    for (const s of Object.values(battery))
      if (s.drW > 0) {
        s.SoC = Math.max(0, s.SoC - 2);
        s.DisChaWH += s.drW / 10;
      }
    void report()?.catch(() => undefined);
  }, 300);
});

afterAll(async () => {
  clearInterval(reporter);
  await wire?.close();
  await otherWire?.close();
  await server?.close();
});

describe('enrollment', () => {
  it('refuses the spec’s bad input with its codes, beside the field, and creates nothing', async () => {
    const refused = async (body: EnrollmentBody, code: number, field?: string) => {
      const answer = await post<null>('/api/v1/energyHub/enrollments', body, a.token);
      expect(answer.code, JSON.stringify(answer)).toBe(code);
      if (field) expect(JSON.stringify(answer.data)).toContain(`"field":"${field}"`);
    };
    await refused(form({ utilityAccountNumber: 'Acct-42' }), Code.ENERGY_HUB_UTILITY_ACCOUNT_INVALID, 'utilityAccountNumber');
    await refused(form({ utilityAccountNumber: 'a'.repeat(21) }), Code.ENERGY_HUB_UTILITY_ACCOUNT_INVALID, 'utilityAccountNumber');
    await refused(form({ sourceAccountNumber: '12-34' }), Code.ENERGY_HUB_SOURCE_ACCOUNT_INVALID, 'sourceAccountNumber');
    const [first] = form().devices;
    if (!first) throw new Error('no device');
    await refused(form({ devices: [first, { ...first, sn: 'ehbt000001' }] }), Code.ENERGY_HUB_SN_REPEATED, 'devices.1.sn');
    await refused(form({ devices: [{ ...first, sn: 'NOSUCH0001' }] }), Code.ENERGY_HUB_DEVICE_NOT_FOUND, 'devices.0.sn');
    await refused(form({ devices: [{ ...first, sn: 'EHBT000003' }] }), Code.ENERGY_HUB_DEVICE_NOT_FOUND, 'devices.0.sn');
    await refused(form({ devices: [{ ...first, sn: 'EHIN000001' }] }), Code.ENERGY_HUB_NOT_BATTERY, 'devices.0.sn');
    // Another company's administrator gets the answer a missing plant gets.
    const foreign = await post('/api/v1/energyHub/enrollments', form(), b.token);
    const missing = await post('/api/v1/energyHub/enrollments', form({ plantId: 999_999 }), b.token);
    expect([foreign.code, foreign.message]).toEqual([missing.code, missing.message]);
    expect(foreign.code).toBe(Code.PLANT_NOT_FOUND);
    expect(await count('energy_hub_enrollments')).toBe(0);
    expect(await count('energy_hub_devices')).toBe(0);
  });

  it('enrolls a plant pending the programme, then refuses a bound plant, account and battery', async () => {
    const made = await post<Enrollment>('/api/v1/energyHub/enrollments', form(), a.token);
    expect(made.code, JSON.stringify(made)).toBe(0);
    expect(made.data).toMatchObject({ state: 'pending', plantName: 'Hub Plant', utilityAccountNumber: 'acct_0042' });
    expect(made.data.settings).toEqual({ minSocPct: 20, maxDischargeW: null, devices: ['EHBT000001', 'EHBT000002'] });
    expect((await post('/api/v1/energyHub/enrollments', form(), a.token)).code).toBe(Code.ENERGY_HUB_CUSTOMER_BOUND);
    const elsewhere = form({
      plantId: otherPlantId,
      devices: [{ ...form().devices[0], sn: 'EHBT000003' } as EnrollmentBody['devices'][number]],
    });
    expect((await post('/api/v1/energyHub/enrollments', elsewhere, a.token)).code).toBe(Code.ENERGY_HUB_ACCOUNT_BOUND);
    // A battery moved to the other plant while enrolled is still used.
    await server.database.db.execute(sql`update devices set plant_id = ${otherPlantId} where sn = 'EHBT000002'`);
    const moved = form({
      plantId: otherPlantId,
      utilityAccountNumber: 'acct_0043',
      devices: [{ ...form().devices[1], sn: 'EHBT000002' } as EnrollmentBody['devices'][number]],
    });
    expect((await post('/api/v1/energyHub/enrollments', moved, a.token)).code).toBe(Code.ENERGY_HUB_DEVICE_USED);
    await server.database.db.execute(sql`update devices set plant_id = ${plantId} where sn = 'EHBT000002'`);
    expect(await count('energy_hub_enrollments')).toBe(1);
    expect(await count('energy_hub_devices')).toBe(2);
  });

  it('keeps another company out: 4630 for its enrollment, as for a missing one, and an empty list', async () => {
    const [mine] = (await get<{ infos: Enrollment[] }>('/api/v1/energyHub/enrollments', a.token)).data.infos;
    if (!mine) throw new Error('no enrollment');
    const foreign = await get(`/api/v1/energyHub/enrollments/${mine.id}`, b.token);
    const missing = await get('/api/v1/energyHub/enrollments/999999', b.token);
    expect([foreign.code, foreign.message]).toEqual([missing.code, missing.message]);
    expect(foreign.code).toBe(Code.ENERGY_HUB_ENROLLMENT_NOT_FOUND);
    expect((await get<{ infos: Enrollment[] }>('/api/v1/energyHub/enrollments', b.token)).data.infos).toEqual([]);
    expect((await post(`/api/v1/energyHub/enrollments/${mine.id}/unenroll`, {}, b.token)).code).toBe(Code.ENERGY_HUB_ENROLLMENT_NOT_FOUND);
  });
});

describe('events and dispatch', () => {
  let enrollmentId: number;

  it('refuses an event for a site the programme has not accepted, then accepts it once', async () => {
    const [mine] = (await get<{ infos: Enrollment[] }>('/api/v1/energyHub/enrollments', a.token)).data.infos;
    enrollmentId = mine?.id ?? 0;
    const event = { eventId: 'evt-early', participationLevel: 1, start: inSeconds(600), durationMinutes: 30, powerDischargeW: 6000 };
    expect((await post(`/api/v1/energyHub/enrollments/${enrollmentId}/events`, event, a.token)).code).toBe(
      Code.ENERGY_HUB_ENROLLMENT_STATE,
    );
    const accepted = await post<Enrollment>(`/api/v1/energyHub/enrollments/${enrollmentId}/review`, { accept: true }, a.token);
    expect(accepted.data.state).toBe('accepted');
    expect((await post(`/api/v1/energyHub/enrollments/${enrollmentId}/review`, { accept: false }, a.token)).code).toBe(
      Code.ENERGY_HUB_ENROLLMENT_STATE,
    );
    const settings = await post<Enrollment>(
      `/api/v1/energyHub/enrollments/${enrollmentId}/settings`,
      { minSocPct: 70, maxDischargeW: 2500, devices: ['EHBT000001', 'EHBT000002'] },
      a.token,
    );
    expect(settings.data.settings).toEqual({ minSocPct: 70, maxDischargeW: 2500, devices: ['EHBT000001', 'EHBT000002'] });
    expect(
      (
        await post(
          `/api/v1/energyHub/enrollments/${enrollmentId}/settings`,
          { minSocPct: 70, maxDischargeW: null, devices: ['EHBT000003'] },
          a.token,
        )
      ).code,
    ).toBe(Code.ENERGY_HUB_SETTINGS_DEVICE);
  });

  it('discharges an opted-in event’s batteries at its start, stops each at its SOC floor, skips one below it, and reports', async () => {
    const made = await post<EnergyEvent>(
      `/api/v1/energyHub/enrollments/${enrollmentId}/events`,
      { eventId: 'evt-1', participationLevel: 2, start: inSeconds(3600), durationMinutes: 60, powerDischargeW: 6000 },
      a.token,
    );
    expect(made.code, JSON.stringify(made)).toBe(0);
    expect(made.data).toMatchObject({ state: 'pending', response: 'none', powerDischargeW: 6000, durationMinutes: 60 });
    expect(
      (await post(`/api/v1/energyHub/enrollments/${enrollmentId}/events`, { ...made.data, start: inSeconds(3600) }, a.token)).code,
    ).toBe(Code.ENERGY_HUB_EVENT_EXISTS);
    const id = made.data.id;
    expect((await post(`/api/v1/energyHub/events/${id}/respond`, { action: 'optIn' }, b.token)).code).toBe(Code.ENERGY_HUB_EVENT_NOT_FOUND);
    expect((await post<EnergyEvent>(`/api/v1/energyHub/events/${id}/respond`, { action: 'join' }, a.token)).data.response).toBe('optIn');
    expect((await post(`/api/v1/energyHub/events/${id}/respond`, { action: 'reject' }, a.token)).code).toBe(Code.ENERGY_HUB_EVENT_STATE);

    await shift(id, { start: Date.now() - 1000 });
    await wait(async () => {
      const event = await eventOf(id);
      expect(event.state).toBe('active');
      expect(event.results.find((r) => r.sn === 'EHBT000002')).toMatchObject({ outcome: 'skipped', code: Code.ENERGY_HUB_BELOW_SOC_FLOOR });
      expect(event.results.find((r) => r.sn === 'EHBT000001')?.outcome).toMatch(/discharging|done/);
    });
    // The share of 6000 W over two batteries is capped at 2500 W by the settings.
    const one = (await eventOf(id)).results.find((r) => r.sn === 'EHBT000001');
    expect(one?.askedW).toBe(2500);
    // Floor 70 %, from 80 % falling 2 points a report: the server stops it there.
    await wait(async () => expect((await eventOf(id)).results.find((r) => r.sn === 'EHBT000001')?.outcome).toBe('done'));
    await wait(async () => expect(battery.EHBT000001.writes).toEqual([2500, 0]));
    expect(battery.EHBT000002.writes).toEqual([]);
    const result = (await eventOf(id)).results.find((r) => r.sn === 'EHBT000001');
    expect(result?.deliveredKwh).toBeGreaterThan(0);
    expect(result?.startSocPct).toBe(80);
    expect(result?.socPct).toBeLessThanOrEqual(70);

    await shift(id, { end: Date.now() - 1000 });
    await wait(async () => expect((await eventOf(id)).state).toBe('completed'));
    await wait(async () => {
      const messages = (await get<MessagePage>('/api/v1/messages?size=20', a.token)).data;
      const note = messages.infos.find((m) => m.title.includes('evt-1'));
      expect(note?.content).toContain('Hub Plant');
      expect(note?.content).toContain(`${result?.deliveredKwh}`);
    });
    expect((await post(`/api/v1/energyHub/events/${id}/respond`, { action: 'optOut' }, a.token)).code).toBe(Code.ENERGY_HUB_EVENT_STATE);
  });

  it('claims each start once when several server processes pass at the same time', async () => {
    await charged(95);
    const made = await post<EnergyEvent>(
      `/api/v1/energyHub/enrollments/${enrollmentId}/events`,
      { eventId: 'evt-race', participationLevel: 0, start: inSeconds(1800), durationMinutes: 30, powerDischargeW: 3000 },
      a.token,
    );
    const id = made.data.id;
    await post(`/api/v1/energyHub/events/${id}/respond`, { action: 'join' }, a.token);
    // Two more "processes" whose clocks say the start has come (the server's own does not yet).
    const sent: string[] = [];
    const processes = [0, 1, 2].map(() =>
      createEnergyHubDispatch({
        repository: createEnergyHubRepository(server.database.db),
        commands: {
          dischargeBattery: async (_auth, _language, sn, watts) => {
            sent.push(`${sn}:${watts}`);
            return { commandId: 0 };
          },
        },
        notify: async () => undefined,
        now: () => Date.now() + 1_800_000 + 1000,
      }),
    );
    await Promise.all([...processes, ...processes].map((p) => p.tick()));
    expect(sent).toEqual(['EHBT000001:1500']);
    const event = await eventOf(id);
    expect(event.state).toBe('active');
    expect(event.results.map((r) => [r.sn, r.outcome])).toEqual([
      ['EHBT000001', 'discharging'],
      ['EHBT000002', 'skipped'],
    ]);
    expect((await post<EnergyEvent>(`/api/v1/energyHub/events/${id}/cancel`, {}, a.token)).data.state).toBe('cancelled');
  });

  it('stops a running discharge when the site opts out', async () => {
    await charged(95);
    const made = await post<EnergyEvent>(
      `/api/v1/energyHub/enrollments/${enrollmentId}/events`,
      { eventId: 'evt-2', participationLevel: 0, start: inSeconds(3600), durationMinutes: 30, powerDischargeW: 2000 },
      a.token,
    );
    const id = made.data.id;
    await shift(id, { start: Date.now() - 1000 });
    await wait(async () => expect((await eventOf(id)).state).toBe('active'));
    // Not answered at the start: nothing discharges until the site opts in.
    expect((await eventOf(id)).results).toEqual([]);
    expect((await post<EnergyEvent>(`/api/v1/energyHub/events/${id}/respond`, { action: 'optIn' }, a.token)).data.results.length).toBe(2);
    await wait(async () => expect(battery.EHBT000001.writes.at(-1)).toBe(1000));
    const out = await post<EnergyEvent>(`/api/v1/energyHub/events/${id}/respond`, { action: 'optOut' }, a.token);
    expect(out.data.response).toBe('optOut');
    expect(out.data.results.find((r) => r.sn === 'EHBT000001')?.outcome).toBe('done');
    expect(battery.EHBT000001.writes.at(-1)).toBe(0);
  });

  it('unenrolls: pending events cancelled, the plant free to enrol again', async () => {
    const pending = await post<EnergyEvent>(
      `/api/v1/energyHub/enrollments/${enrollmentId}/events`,
      { eventId: 'evt-3', participationLevel: 0, start: inSeconds(7200), durationMinutes: 30, powerDischargeW: 2000 },
      a.token,
    );
    const gone = await post<Enrollment>(`/api/v1/energyHub/enrollments/${enrollmentId}/unenroll`, {}, a.token);
    expect(gone.data.state).toBe('unenrolled');
    expect((await eventOf(pending.data.id)).state).toBe('cancelled');
    expect((await post(`/api/v1/energyHub/enrollments/${enrollmentId}/unenroll`, {}, a.token)).code).toBe(Code.ENERGY_HUB_ENROLLMENT_STATE);
    const list = (await get<EventList>(`/api/v1/energyHub/events?enrollmentId=${enrollmentId}`, a.token)).data.infos;
    expect(list.map((e) => [e.eventId, e.state])).toEqual([
      ['evt-3', 'cancelled'],
      ['evt-race', 'cancelled'],
      ['evt-2', 'cancelled'],
      ['evt-1', 'completed'],
    ]);
    expect((await post('/api/v1/energyHub/enrollments', form(), a.token)).code).toBe(0);
  });

  it('tells each caller what they may do (access), as the server then checks it', async () => {
    const mine = (await get<{ infos: Enrollment[] }>('/api/v1/energyHub/enrollments', a.token)).data.infos;
    expect(mine.map((e) => e.access)).toEqual(mine.map(() => 'manage'));
    const read = (await get<{ infos: Enrollment[] }>('/api/v1/energyHub/enrollments', reader.token)).data.infos;
    const pending = read.find((e) => e.state === 'pending');
    if (!pending) throw new Error('no pending enrollment');
    expect(read.map((e) => e.access)).toEqual(read.map(() => 'view'));
    expect((await get<Enrollment>(`/api/v1/energyHub/enrollments/${pending.id}`, reader.token)).data.access).toBe('view');
    // What the page hides for the reader is refused by the server all the same.
    expect((await post(`/api/v1/energyHub/enrollments/${pending.id}/review`, { accept: true }, reader.token)).code).toBe(
      Code.NO_PERMISSION,
    );
    expect((await get<Enrollment>(`/api/v1/energyHub/enrollments/${pending.id}`, a.token)).data.state).toBe('pending');
    const events = (await get<EventList>(`/api/v1/energyHub/events?enrollmentId=${enrollmentId}`, reader.token)).data.infos;
    expect(events.length).toBeGreaterThan(0);
    expect(new Set(events.map((e) => e.access))).toEqual(new Set(['view']));
    const adminEvents = (await get<EventList>(`/api/v1/energyHub/events?enrollmentId=${enrollmentId}`, a.token)).data.infos;
    expect(new Set(adminEvents.map((e) => e.access))).toEqual(new Set(['manage']));
  });
});
