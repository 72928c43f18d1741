import type { EnergyEvent, Enrollment } from '@sunward/contracts/energy-hub';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, createPlant, signedInUser } from '../../../test/api.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../../test/test-gateway.js';
import { createOperationLog } from '../../audit/operation-log.js';
import { createEnergyHubRepository } from '../energy-hub.repository.js';
import { createEnergyHubService } from '../energy-hub.service.js';
import { createEnergyHubDispatch } from '../energy-hub-dispatch.js';
import { startTestVtn } from './test-vtn.js';
import { createVen, type Ven } from './ven.js';

/*
 * The energy hub as an OpenADR 2.0b VEN against the test VTN (HTTP, XML): registration accepts the enrollment, an
 * oadrDistributeEvent becomes an event, the site's opt-in goes back as oadrCreatedEvent, delivered energy as
 * oadrUpdateReport, a cancelled event is cancelled.
 */
let server: TestServer;
let vtn: Awaited<ReturnType<typeof startTestVtn>>;
let wire: TestGateway | undefined;
let a: Awaited<ReturnType<typeof signedInUser>>;
let ven: Ven;
let enrollmentId: number;
const { get, post } = apiClient(() => server.app);
const events = async () =>
  (await get<{ infos: EnergyEvent[] }>(`/api/v1/energyHub/events?enrollmentId=${enrollmentId}`, a.token)).data.infos;

beforeAll(async () => {
  [server, vtn] = await Promise.all([startTestServer({ COMMAND_TIMEOUT_S: '1' }), startTestVtn()]);
  const company = await server.createCompany('VEN Co');
  a = await signedInUser(server, 'company_admin', company);
  await post('/api/v1/component/apps/energy_hub/enable', { enabled: true }, a.token);
  const plant = await createPlant(server, a.token, { name: 'VEN Plant' }, company);
  wire = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  await wire.report(Date.now(), [{ sn: 'VNBT000001', proto: 'sunspec-battery-bms', values: { SoC: 90, DisChaWH: 1000 } }]);
  await server.telemetry.pipeline.drain();
  const address = { country: 'US', region: 'CA', locality: 'Fresno', street: 'Main St 1', postalCode: '93650' };
  const made = await post<Enrollment>(
    '/api/v1/energyHub/enrollments',
    {
      plantId: plant.id,
      programId: 'oadr-programme',
      sourceAccountNumber: '42',
      utilityAccountNumber: 'ven-site-1',
      firstName: 'Ven',
      lastName: 'Site',
      email: 'ven@example.com',
      serviceAddress: address,
      mailingAddress: address,
      devices: [
        { sn: 'VNBT000001', manufacturer: 'Generic', model: 'B', installDate: '2025-01-01', storageCapacityKwh: 10, chargeCapacityKw: 5 },
      ],
    },
    a.token,
  );
  enrollmentId = made.data.id;
  const repository = createEnergyHubRepository(server.database.db);
  const dispatch = createEnergyHubDispatch({
    repository,
    commands: { dischargeBattery: async () => ({ commandId: 0 }) },
    notify: async () => undefined,
  });
  const hub = createEnergyHubService({
    repository,
    plants: {
      require: async () => 'manage',
      levels: async (_auth, ids) => new Map(ids.map((id) => [id, 'manage'] as const)),
      visiblePlantIds: async () => undefined,
    },
    dispatch,
    log: createOperationLog(server.database.db),
  });
  ven = createVen({ repository, hub });
});

afterAll(async () => {
  await wire?.close();
  await server?.close();
  await vtn?.close();
});

describe('OpenADR 2.0b VEN', () => {
  it('registers with the VTN, which accepts the enrollment, and describes its report', async () => {
    const saved = await post<Enrollment>(
      `/api/v1/energyHub/enrollments/${enrollmentId}/openadr`,
      { vtnUrl: vtn.url, venName: 'sunward-ven-site' },
      a.token,
    );
    expect(saved.data.openadr).toMatchObject({ vtnUrl: vtn.url, venName: 'sunward-ven-site', venId: null });
    await ven.pollOnce(enrollmentId);
    expect(vtn.registered).toEqual([{ venName: 'sunward-ven-site', venId: 'ven-1' }]);
    const enrollment = (await get<Enrollment>(`/api/v1/energyHub/enrollments/${enrollmentId}`, a.token)).data;
    expect(enrollment.state).toBe('accepted');
    expect(enrollment.openadr).toMatchObject({ venId: 'ven-1', registrationId: 'reg-ven-1' });
    expect(enrollment.openadr.lastPollAt).not.toBeNull();
    expect(vtn.reports.map((r) => r.type)).toEqual(['oadrRegisterReport']);
  });

  it('takes an oadrDistributeEvent as an event, sends the opt-in as oadrCreatedEvent and the delivered energy as a report', async () => {
    const start = new Date(Date.now() + 3_600_000).toISOString();
    vtn.events.push({ eventId: 'vtn-evt-1', modificationNumber: 0, status: 'far', start, duration: 'PT45M', level: 2, powerW: 3000 });
    await ven.pollOnce(enrollmentId);
    const [event] = await events();
    expect(event).toMatchObject({
      eventId: 'vtn-evt-1',
      source: 'openadr',
      state: 'pending',
      durationMinutes: 45,
      participationLevel: 2,
      powerDischargeW: 3000,
    });
    // A second poll changes nothing; a modification moves the event.
    vtn.events[0] = { ...vtn.events[0], modificationNumber: 1, duration: 'PT1H' } as (typeof vtn.events)[number];
    await ven.pollOnce(enrollmentId);
    expect((await events()).map((e) => [e.eventId, e.durationMinutes])).toEqual([['vtn-evt-1', 60]]);

    expect((await post(`/api/v1/energyHub/events/${event?.id}/respond`, { action: 'join' }, a.token)).code).toBe(0);
    await ven.pollOnce(enrollmentId);
    expect(vtn.optTypes.get('vtn-evt-1')).toBe('optIn');

    // The event starts (its time moved); the server's dispatch claims the battery; the next poll reports it.
    await server.database.db.execute(sql`update energy_hub_events set start_at = now() - interval '1 second' where id = ${event?.id ?? 0}`);
    await vi.waitFor(async () => expect((await events())[0]?.results.length).toBe(1), { timeout: 20_000, interval: 250 });
    await ven.pollOnce(enrollmentId);
    const update = vtn.reports.find((r) => r.type === 'oadrUpdateReport');
    expect(update?.values).toEqual([{ eventId: 'vtn-evt-1', rid: 'VNBT000001', value: expect.any(Number) }]);
  });

  it('cancels an event the VTN cancels, and answers an opt-out', async () => {
    const start = new Date(Date.now() + 7_200_000).toISOString();
    vtn.events.push({ eventId: 'vtn-evt-2', modificationNumber: 0, status: 'far', start, duration: 'PT30M', level: 1, powerW: 1000 });
    await ven.pollOnce(enrollmentId);
    const second = (await events()).find((e) => e.eventId === 'vtn-evt-2');
    await post(`/api/v1/energyHub/events/${second?.id}/respond`, { action: 'reject' }, a.token);
    await ven.pollOnce(enrollmentId);
    expect(vtn.optTypes.get('vtn-evt-2')).toBe('optOut');
    vtn.events[1] = { ...vtn.events[1], modificationNumber: 1, status: 'cancelled' } as (typeof vtn.events)[number];
    await ven.pollOnce(enrollmentId);
    expect((await events()).find((e) => e.eventId === 'vtn-evt-2')?.state).toBe('cancelled');
  });
});
