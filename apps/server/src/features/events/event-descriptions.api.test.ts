import { Code } from '@sunward/contracts/codes';
import type { EventDescriptionPage } from '@sunward/contracts/event-descriptions';
import type { EventPage } from '@sunward/contracts/events';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { multipartBody, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';

/*
 * Event descriptions (issue 21): the screen's list per protocol and language, the .xlsx import (all rows
 * or none; wrong columns, bad rows and empty files refused clearly), and the imported texts in the event list.
 */

let server: TestServer;
let adminToken: string;
let companyToken: string;

const { get } = apiClient(
  () => server.app,
  () => adminToken,
);

async function workbook(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Events');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function upload(bytes: Buffer, token = adminToken) {
  const { payload, contentType } = multipartBody({}, { name: 'events.xlsx', bytes });
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/v1/event/description/import',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  return response.json() as { code: number; message: string; data: unknown };
}

const HEADER = ['protocol', 'code', 'language', 'description', 'solution'];

async function edit(body: Record<string, unknown>, token = adminToken, language = 'en') {
  const response = await server.app.inject({
    method: 'PUT',
    url: `/api/v1/event/description?lan=${language}`,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
  return response.json() as { code: number; message: string; data: unknown; errors?: { field: string; message: string }[] };
}

beforeAll(async () => {
  server = await startTestServer();
  adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const company = await server.createCompany('Descriptions Co');
  companyToken = (await signedInUser(server, 'company_admin', company)).token;
  const plant = await createPlant(server, companyToken, { name: 'Descriptions Plant' }, company);
  const [device] = await server.database.db
    .insert(devices)
    .values({ sn: 'DSIN000001', protocolId: 'sunspec-inverter-1p', family: 'inverter', plantId: plant.id, gatewayId: plant.gateway.id })
    .returning({ id: devices.id });
  await server.database.db.execute(
    sql`insert into device_events (device_id, plant_id, code, level, opened_at) values (${device?.id}, ${plant.id}, 1001, 'fault', now() - interval '1 hour')`,
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('event descriptions', () => {
  it("lists a protocol's codes with the built-in texts in the asked language", async () => {
    const page = (await get<EventDescriptionPage>('/api/v1/event/description?protocol=sunspec-inverter-1p&language=de', companyToken)).data;
    expect(page.protocol).toBe('sunspec-inverter-1p');
    expect(page.protocols.length).toBeGreaterThan(1);
    const fault = page.infos.find((r) => r.code === 1001);
    expect(fault).toMatchObject({ source: 'map', level: 'fault' });
    expect(fault?.description).toBe('Erdschluss (Isolationswiderstand zu niedrig)');
    expect(fault?.solution).toMatch(/^PV-Strings und Leitungen/);
    const greek = (await get<EventDescriptionPage>('/api/v1/event/description?protocol=sunspec-inverter-1p&language=el', companyToken))
      .data;
    expect(greek.infos.find((r) => r.code === 1001)?.description).toBe('Σφάλμα γείωσης (πολύ χαμηλή αντίσταση μόνωσης)');
  });

  it('imports descriptions and the event list shows them in that language', async () => {
    const answer = await upload(
      await workbook([
        HEADER,
        ['sunspec-inverter-1p', 1001, 'de', 'Erdschluss', 'Isolation der PV-Leitungen prüfen'],
        ['sunspec-inverter-1p', 1001, 'es', 'Fallo a tierra', 'Compruebe el aislamiento'],
      ]),
    );
    expect(answer).toMatchObject({ code: 0, data: { imported: 2, protocols: ['sunspec-inverter-1p'], languages: ['de', 'es'] } });
    const page = (await get<EventDescriptionPage>('/api/v1/event/description?protocol=sunspec-inverter-1p&language=de', companyToken)).data;
    expect(page.infos.find((r) => r.code === 1001)).toMatchObject({ source: 'imported', description: 'Erdschluss' });
    const events = (await get<EventPage>('/api/v1/events?lan=de', companyToken)).data;
    expect(events.infos[0]).toMatchObject({ code: 1001, description: 'Erdschluss', solution: 'Isolation der PV-Leitungen prüfen' });
    const english = (await get<EventPage>('/api/v1/events?lan=en', companyToken)).data;
    expect(english.infos[0]?.description).toMatch(/Ground fault/i);
    // The keyword finds imported texts too.
    expect((await get<EventPage>('/api/v1/events?keyword=Erdschluss', companyToken)).data.total).toBe(1);
  });

  it('refuses wrong columns, bad rows and empty files, storing nothing', async () => {
    const columns = await upload(
      await workbook([
        ['code', 'text'],
        ['1001', 'x'],
      ]),
    );
    expect(columns.code).toBe(Code.EVENT_IMPORT_COLUMNS);
    expect(columns.message).toContain('protocol, code, language, description, solution');
    const badCode = await upload(
      await workbook([HEADER, ['sunspec-inverter-1p', 1001, 'de', 'Neu', ''], ['sunspec-inverter-1p', 99999, 'de', 'Nie', '']]),
    );
    expect(badCode).toMatchObject({ code: Code.EVENT_IMPORT_ROW });
    expect(badCode.message).toContain('Row 3');
    expect(badCode.message).toContain('99999');
    const badLanguage = await upload(await workbook([HEADER, ['sunspec-inverter-1p', 1001, 'xx', 'Neu', '']]));
    expect(badLanguage.code).toBe(Code.EVENT_IMPORT_ROW);
    const unknown = await upload(await workbook([HEADER, ['nope', 1001, 'de', 'Neu', '']]));
    expect(unknown.message).toContain('nope');
    const duplicate = await upload(
      await workbook([HEADER, ['sunspec-inverter-1p', 1001, 'de', 'A', ''], ['sunspec-inverter-1p', 1001, 'de', 'B', '']]),
    );
    expect(duplicate.message).toContain('row 2');
    expect((await upload(await workbook([HEADER]))).code).toBe(Code.EVENT_IMPORT_EMPTY);
    expect((await upload(Buffer.from('not a workbook'))).code).toBe(Code.IMPORT_FILE_INVALID);
    // Nothing of the refused files was stored: still the first import's text.
    const page = (await get<EventDescriptionPage>('/api/v1/event/description?protocol=sunspec-inverter-1p&language=de')).data;
    expect(page.infos.find((r) => r.code === 1001)?.description).toBe('Erdschluss');
  });

  it('answers a template of one protocol pre-filled with its codes and current texts, which imports back unchanged', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/v1/event/description/template?protocol=sunspec-inverter-1p&language=pt',
      headers: { authorization: `Bearer ${companyToken}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('event-descriptions-sunspec-inverter-1p-pt.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const rows = (sheet?.getSheetValues() ?? []).filter(Boolean).map((r) => (Array.isArray(r) ? r.slice(1) : []));
    expect(rows[0]).toEqual(HEADER);
    const page = (await get<EventDescriptionPage>('/api/v1/event/description?protocol=sunspec-inverter-1p&language=pt&size=200')).data;
    expect(rows).toHaveLength(page.total + 1);
    expect(rows[1]).toEqual(['sunspec-inverter-1p', page.infos[0]?.code, 'pt', page.infos[0]?.description, page.infos[0]?.solution]);
    expect(rows[1]?.[3]).toBe('Falha à terra (resistência de isolamento demasiado baixa)');
    expect((await get('/api/v1/event/description/template?protocol=nope')).code).toBe(Code.VALIDATION);
  });

  it('edits one code’s text in one language, refuses a bad edit on its field in the caller’s language and changes nothing', async () => {
    const done = await edit({
      protocol: 'sunspec-inverter-1p',
      code: 1002,
      language: 'tr',
      description: 'DC aşırı gerilim',
      solution: 'Dizileri kontrol edin',
    });
    expect(done).toMatchObject({
      code: 0,
      data: { code: 1002, description: 'DC aşırı gerilim', solution: 'Dizileri kontrol edin', source: 'imported' },
    });
    const page = (await get<EventDescriptionPage>('/api/v1/event/description?protocol=sunspec-inverter-1p&language=tr')).data;
    expect(page.infos.find((r) => r.code === 1002)).toMatchObject({ description: 'DC aşırı gerilim', source: 'imported' });

    const unknownCode = await edit({ protocol: 'sunspec-inverter-1p', code: 99999, language: 'tr', description: 'x' }, adminToken, 'de');
    expect(unknownCode.code).toBe(Code.VALIDATION);
    expect(JSON.stringify(unknownCode)).toContain('99999');
    const unknownProtocol = await edit({ protocol: 'nope', code: 1002, language: 'tr', description: 'x' });
    expect(unknownProtocol.code).toBe(Code.VALIDATION);
    expect(JSON.stringify(unknownProtocol)).toContain('protocol nope is unknown');
    expect((await edit({ protocol: 'sunspec-inverter-1p', code: 1002, language: 'tr', description: '  ' })).code).toBe(Code.VALIDATION);
    expect((await edit({ protocol: 'sunspec-inverter-1p', code: 1002, language: 'tr', description: 'x'.repeat(201) })).code).toBe(
      Code.VALIDATION,
    );
    expect((await edit({ protocol: 'sunspec-inverter-1p', code: 1002, language: 'xx', description: 'x' })).code).toBe(Code.VALIDATION);
    expect((await edit({ protocol: 'sunspec-inverter-1p', code: 1002, language: 'tr', description: 'Fremd' }, companyToken)).code).toBe(
      Code.NO_PERMISSION,
    );
    const after = (await get<EventDescriptionPage>('/api/v1/event/description?protocol=sunspec-inverter-1p&language=tr')).data;
    expect(after.infos.find((r) => r.code === 1002)?.description).toBe('DC aşırı gerilim');
  });

  it('lets only holders of event.description.import import, and refuses an unknown protocol in the list', async () => {
    const refused = await upload(await workbook([HEADER, ['sunspec-inverter-1p', 1001, 'de', 'Fremd', '']]), companyToken);
    expect(refused.code).toBe(Code.NO_PERMISSION);
    expect((await get('/api/v1/event/description?protocol=nope')).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/event/description?language=xx')).code).toBe(Code.VALIDATION);
  });
});
