import { Code } from '@sunward/contracts/codes';
import type { GatewayImportResult } from '@sunward/contracts/gateways';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computed, sqlRows } from '../../db/rows.js';
import { multipartBody, signIn } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/*
 * Serial numbers are one regardless of case (issue 15, finding 7): a case variant of another company's
 * gateway SN cannot be imported, and what a person types finds the gateway in any case.
 */

let server: TestServer;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  server = await startTestServer();
  const companyA = await server.createCompany('Case Alpha');
  const companyB = await server.createCompany('Case Beta');
  const adminA = await server.createUser('company_admin', 'case-a@a.test', { companyId: companyA });
  const adminB = await server.createUser('company_admin', 'case-b@b.test', { companyId: companyB });
  tokenA = (await signIn(server.app, adminA.account, adminA.password)).access_token;
  tokenB = (await signIn(server.app, adminB.account, adminB.password)).access_token;
});
afterAll(async () => server?.close());

async function importRows(token: string, rows: string[][]) {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Gateways').addRows(rows);
  const body = multipartBody({}, { name: 'g.xlsx', bytes: Buffer.from(await book.xlsx.writeBuffer()) });
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/v1/gateways/import',
    headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
    payload: body.payload,
  });
  return response.json() as { code: number; data: GatewayImportResult };
}

describe('gateway SNs regardless of case', () => {
  it('refuses to import a case variant of another company’s gateway SN', async () => {
    expect((await importRows(tokenA, [['CaseGW0001', 'keyA0001']])).data.imported).toBe(1);
    const variant = await importRows(tokenB, [
      ['casegw0001', 'keyB0001'],
      ['CASEGW0001', 'keyB0002'],
      ['CaseGW0002', 'keyB0003'],
    ]);
    expect(variant.data.imported).toBe(1);
    expect(variant.data.errors.map((e) => [e.sn, e.problem])).toEqual([
      ['casegw0001', expect.any(String)],
      ['CASEGW0001', expect.any(String)],
    ]);
    const [count] = await sqlRows(
      server.database.db,
      { n: computed.number },
      sql`select count(*)::int as n from gateways where lower(sn) = 'casegw0001'`,
    );
    expect(Number(count?.n)).toBe(1);
  });

  it('finds a gateway by its SN typed in another case', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/v1/gateway/CASEGW0001',
      headers: { authorization: `Bearer ${tokenA}` },
    });
    const body = response.json() as { code: number; data: { sn: string } };
    expect(body.code).toBe(Code.OK);
    expect(body.data.sn).toBe('CaseGW0001');
  });
});
