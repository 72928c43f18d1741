import { Code } from '@sunward/contracts/codes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../db/schema.js';
import { signIn } from '../test/client.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { ENROLMENT_ROUTES } from './auth.js';

/*
 * The company's required second factor (issue 15, finding 7): a member who has not set it up reaches only
 * the routes enrolment needs (an explicit list); every other signed-in route, the live stream of plant
 * events included, answers 115. Walks the server's own route table, so a new route is closed by default.
 */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  const companyId = await server.createCompany('Strict Gate Solar');
  await server.database.db.update(companies).set({ requireTwoFactor: true }).where(eq(companies.id, companyId));
  const staff = await server.createUser('company_admin', 'strict-admin@gate.test', { companyId });
  token = (await signIn(server.app, staff.account, staff.password)).access_token;
});
afterAll(async () => server?.close());

async function codeOf(method: string, url: string): Promise<number | undefined> {
  const response = await server.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: method === 'GET' ? undefined : '{}',
  });
  return (response.headers['content-type'] ?? '').toString().includes('json') ? (response.json() as { code: number }).code : undefined;
}

describe('two-factor enrolment gate', () => {
  it('refuses the live stream of plant events to a member who has not set up the required second factor', async () => {
    expect(await codeOf('GET', '/api/v1/live')).toBe(Code.TWO_FACTOR_SETUP_REQUIRED);
  });

  it('answers 115 on every signed-in route except the enrolment list, which the console’s settings page can use', async () => {
    const table = server.app.routeAccessTable;
    const known = new Set(table.map((r) => `${r.method} ${r.url}`));
    for (const route of ENROLMENT_ROUTES) expect(known, route).toContain(route);

    const open: string[] = [];
    for (const route of table) {
      if (!['GET', 'POST', 'DELETE'].includes(route.method) || route.requires === undefined || route.requires === 'public') continue;
      if (ENROLMENT_ROUTES.has(`${route.method} ${route.url}`)) continue;
      const url = route.url.replace(/:(\w+)/g, (_, name: string) => (/sn$/i.test(name) ? 'GW0001' : '1'));
      const code = await codeOf(route.method, url);
      if (code !== Code.TWO_FACTOR_SETUP_REQUIRED) open.push(`${route.method} ${route.url}: ${code}`);
    }
    expect(open).toEqual([]);

    // What enrolment needs still answers.
    expect(await codeOf('GET', '/api/v1/user')).toBe(0);
    expect(await codeOf('GET', '/api/v1/user/accountInfo')).toBe(0);
    expect(await codeOf('GET', '/api/v1/permission')).toBe(0);
    expect(await codeOf('POST', '/api/v1/user/twoFactor/setup')).toBe(0);
  });
});
