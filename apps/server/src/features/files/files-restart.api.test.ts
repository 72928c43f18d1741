import type { DownloadRecord, DownloadRecordPage } from '@sunward/contracts/files';
import type { MessagePage } from '@sunward/contracts/notifications';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, fileDownloadRecords } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/*
 * Background exports survive a restart (issue 21): three event exports are asked for (two run, one waits),
 * the server is restarted while they are under way, and each is run again from the start by the next
 * process: all three finish whole, nothing half-written is published, and the owner is told of each.
 */

const EVENTS = 30_000;
let server: TestServer;
let token: string;

const { get, post } = apiClient(
  () => server.app,
  () => token,
);

beforeAll(async () => {
  server = await startTestServer();
  const company = await server.createCompany('Restart Co');
  token = (await signedInUser(server, 'company_admin', company)).token;
  const plant = await createPlant(server, token, { name: 'Restart Plant' }, company);
  const [device] = await server.database.db
    .insert(devices)
    .values({ sn: 'RSIN000001', protocolId: 'sunspec-inverter-1p', family: 'inverter', plantId: plant.id, gatewayId: plant.gateway.id })
    .returning({ id: devices.id });
  await server.database.db.execute(sql`insert into device_events (device_id, plant_id, code, level, opened_at, cleared_at)
    select ${device?.id}, ${plant.id}, 1001 + (g % 2), 'fault', now() - interval '5 days' + g * interval '1 second', now() - interval '5 days' + g * interval '1 second' + interval '1 minute'
    from generate_series(1, ${EVENTS}) g`);
}, 120_000);

afterAll(async () => {
  await server?.close();
}, 120_000);

describe('background exports across a restart', () => {
  it('runs queued and running exports again after a restart and publishes only complete files', async () => {
    const started: DownloadRecord[] = [];
    for (const format of ['csv', 'xlsx', 'csv'] as const) {
      const answer = await post<DownloadRecord>('/api/v1/events/export/background?lan=de', { format, level: 'fault' });
      expect(answer.code).toBe(0);
      started.push(answer.data);
    }
    const ids = started.map((r) => r.id);
    const statesBefore = await server.database.db
      .select({ id: fileDownloadRecords.id, status: fileDownloadRecords.status })
      .from(fileDownloadRecords)
      .where(inArray(fileDownloadRecords.id, ids));
    // At least the third waits behind the two running ones (two at a time).
    expect(statesBefore.some((r) => r.status !== 'done')).toBe(true);

    server = await server.restart();

    // While under way, nothing is downloadable and no final file exists yet.
    const deadline = Date.now() + 90_000;
    let records: DownloadRecord[] = [];
    for (;;) {
      const list = (await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list')).data.infos;
      records = ids.map((id) => list.find((r) => r.id === id)).filter((r): r is DownloadRecord => r !== undefined);
      if (records.every((r) => r.status === 'done' || r.status === 'failed')) break;
      if (Date.now() > deadline) throw new Error(`not done after the restart: ${JSON.stringify(records)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(records.map((r) => r.status)).toEqual(['done', 'done', 'done']);
    expect(records.map((r) => r.rows)).toEqual([EVENTS, EVENTS, EVENTS]);
    const csv = await server.app.inject({
      method: 'GET',
      url: `/api/v1/fileDownloadRecord/${ids[2]}/download`,
      headers: { authorization: `Bearer ${token}` },
    });
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(EVENTS + 1);
    // Written in the asker's language, as the first process would have.
    expect(lines[0]).toContain('Beschreibung');
    expect(lines[1]).toContain('Erdschluss');
    const messages = (await get<MessagePage>('/api/v1/messages?size=50')).data.infos.map((m) => m.title);
    expect(messages.filter((t) => t === 'Ihre Datei ist fertig')).toHaveLength(3);
  }, 180_000);
});
