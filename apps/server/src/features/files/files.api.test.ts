import { readFileSync } from 'node:fs';
import { Code } from '@sunward/contracts/codes';
import type { DownloadRecord, DownloadRecordPage } from '@sunward/contracts/files';
import type { MessagePage } from '@sunward/contracts/notifications';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { call } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/*
 * The download centre (issue 21): an event export larger than a page runs in the background past the
 * 20,000-row cap of immediate downloads, shows progress, tells the user when it is done, and is
 * downloaded, deleted and refused (another company's file, an expired one) through fileDownloadRecord.
 */

const EVENTS = 25_000;
let server: TestServer;
let tokenA: string;
let tokenB: string;
let guestToken: string;

const { get, post } = apiClient(
  () => server.app,
  () => tokenA,
);

async function waitDone(id: number, token = tokenA): Promise<DownloadRecord> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list', token);
    const record = list.data.infos.find((r) => r.id === id);
    if (record && (record.status === 'done' || record.status === 'failed')) return record;
    if (Date.now() > deadline) throw new Error(`record ${id} not done: ${JSON.stringify(record)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const download = (id: number, token = tokenA) =>
  server.app.inject({ method: 'GET', url: `/api/v1/fileDownloadRecord/${id}/download`, headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  server = await startTestServer();
  const companyA = await server.createCompany('Files A');
  const companyB = await server.createCompany('Files B');
  tokenA = (await signedInUser(server, 'company_admin', companyA)).token;
  tokenB = (await signedInUser(server, 'company_admin', companyB)).token;
  guestToken = (await signedInUser(server, 'guest')).token;
  const plant = await createPlant(server, tokenA, { name: 'Files Plant' }, companyA);
  const [device] = await server.database.db
    .insert(devices)
    .values({ sn: 'FLIN000001', protocolId: 'sunspec-inverter-1p', family: 'inverter', plantId: plant.id, gatewayId: plant.gateway.id })
    .returning({ id: devices.id });
  // Cleared events in the last six days, a second apart.
  await server.database.db.execute(sql`insert into device_events (device_id, plant_id, code, level, opened_at, cleared_at)
    select ${device?.id}, ${plant.id}, 1001, 'fault', now() - interval '6 days' + g * interval '1 second', now() - interval '6 days' + g * interval '1 second' + interval '1 minute'
    from generate_series(1, ${EVENTS}) g`);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('background exports and the download centre', () => {
  let csvId = 0;

  it('answers every Files row of calls.tsv and the event description import', () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([, path, area]) => area === 'Files' || path === '/api/v1/event/description/import');
    expect(rows).toHaveLength(3);
    for (const [method, path] of rows)
      expect(server.app.hasRoute({ method: method as 'GET' | 'POST', url: path ?? '' }), `${method} ${path}`).toBe(true);
  });

  it('keeps the 20,000-row limit for immediate downloads', async () => {
    const answer = await get('/api/v1/events/export?format=csv');
    expect(answer.code).toBe(Code.TOO_MANY_RECORDS);
  });

  it('exports every event in the background, with no row cap, and tells the user when it is done', async () => {
    const started = await post<DownloadRecord>('/api/v1/events/export/background', { format: 'csv' });
    expect(started.code).toBe(0);
    expect(['queued', 'running']).toContain(started.data.status);
    csvId = started.data.id;
    const done = await waitDone(csvId);
    expect(done).toMatchObject({ status: 'done', progress: 100, rows: EVENTS, format: 'csv', kind: 'events' });
    expect(done.sizeBytes).toBeGreaterThan(EVENTS * 50);
    expect(Date.parse(done.expiresAt ?? '') - Date.parse(done.finishedAt ?? '')).toBe(7 * 86_400_000);

    const file = await download(csvId);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain(done.fileName);
    const lines = file.body.trim().split('\r\n');
    expect(lines).toHaveLength(EVENTS + 1);
    expect(lines[1]).toContain('FLIN000001');

    const messages = await get<MessagePage>('/api/v1/messages');
    expect(messages.data.infos.some((m) => m.title === 'Your file is ready' && m.content.includes(done.fileName))).toBe(true);
  });

  it('writes .xlsx row by row with headers in the caller language', async () => {
    const started = await post<DownloadRecord>('/api/v1/events/export/background?lan=de', {
      format: 'xlsx',
      from: new Date(Date.now() - 6 * 86_400_000 + 1_000 * 1_000).toISOString(),
    });
    const done = await waitDone(started.data.id);
    expect(done.status).toBe('done');
    const file = await download(done.id);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.rowCount).toBe((done.rows ?? 0) + 1);
    expect(done.rows).toBeGreaterThan(20_000);
  });

  it('lists only the caller records and refuses another company file clearly', async () => {
    const mine = await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list');
    expect(mine.data.total).toBe(2);
    const theirs = await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list', tokenB);
    expect(theirs.data.total).toBe(0);
    const refused = await download(csvId, tokenB);
    expect(refused.json()).toMatchObject({ code: Code.DOWNLOAD_NOT_FOUND, message: 'This file is not in your download centre.' });
    const notDeleted = await call(server.app, 'POST', '/api/v1/fileDownloadRecord/delete', { token: tokenB, form: { ids: String(csvId) } });
    expect(notDeleted.body).toMatchObject({ code: 0, data: { deleted: 0 } });
    expect((await download(csvId)).statusCode).toBe(200);
  });

  it('refuses bad input and changes nothing', async () => {
    expect((await get('/api/v1/fileDownloadRecord/list?size=1000')).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/fileDownloadRecord/list?status=lost')).code).toBe(Code.VALIDATION);
    const bad = await call(server.app, 'POST', '/api/v1/fileDownloadRecord/delete', { token: tokenA, form: { ids: '1,abc' } });
    expect(bad.body.code).toBe(Code.VALIDATION);
    const none = await call(server.app, 'POST', '/api/v1/fileDownloadRecord/delete', { token: tokenA, form: {} });
    expect(none.body.code).toBe(Code.VALIDATION);
    expect((await download(999_999)).json().code).toBe(Code.DOWNLOAD_NOT_FOUND);
    expect((await post('/api/v1/events/export/background', { format: 'pdf' })).code).toBe(Code.VALIDATION);
    expect((await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list')).data.total).toBe(2);
  });

  it('needs the export permission to start and a session to list', async () => {
    expect((await post('/api/v1/events/export/background', { format: 'csv' }, guestToken)).code).toBe(Code.NO_PERMISSION);
    expect((await call(server.app, 'GET', '/api/v1/fileDownloadRecord/list')).body.code).toBe(Code.TOKEN_INVALID);
  });

  it('refuses an expired file with its date, and deletes records with their files', async () => {
    await server.database.db.execute(sql`update file_download_records set expires_at = '2026-01-02T03:04:00Z' where id = ${csvId}`);
    const expired = (await download(csvId)).json();
    expect(expired).toMatchObject({ code: Code.DOWNLOAD_EXPIRED });
    expect(expired.message).toContain('2026-01-02 03:04 UTC');
    const deleted = await call(server.app, 'POST', '/api/v1/fileDownloadRecord/delete', { token: tokenA, form: { ids: String(csvId) } });
    expect(deleted.body).toMatchObject({ code: 0, data: { deleted: 1 } });
    expect((await download(csvId)).json().code).toBe(Code.DOWNLOAD_NOT_FOUND);
    expect((await get<DownloadRecordPage>('/api/v1/fileDownloadRecord/list')).data.total).toBe(1);
  });
});
