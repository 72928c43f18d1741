import { Code } from '@sunward/contracts/codes';
import type { AppList } from '@sunward/contracts/smart-home';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, signedInCast, signedInUser } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let companyAdmin: string;
let staff: string;
let otherAdmin: string;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  let companyId: number;
  ({ admin, companyAdmin, companyId } = await signedInCast(server, 'Apps Company'));
  staff = (await signedInUser(server, 'company_staff', companyId)).token;
  const otherId = await server.createCompany('Other Apps Company');
  otherAdmin = (await signedInUser(server, 'company_admin', otherId)).token;
}, 240_000);
afterAll(async () => {
  await server?.close();
});
const { get, post } = apiClient(
  () => server.app,
  () => companyAdmin,
);
const apps = async (token: string) => (await get<AppList>('/api/v1/component/apps', { token })).data;
const state = (list: AppList, app: string) => list.apps.find((a) => a.app === app);

describe('application centre (component/apps)', () => {
  it('lists five apps, none enabled at first, all available (cameras after the platform administrator’s grant); the bulb app waits for its bridge', async () => {
    const list = await apps(companyAdmin);
    expect(list.canManage).toBe(true);
    expect(list.apps.map((a) => [a.app, a.available, a.enabled])).toEqual([
      ['smart_switch', true, false],
      ['smart_bulb', true, false],
      ['smart_rule', true, false],
      ['camera', true, false],
      ['energy_hub', true, false],
    ]);
    expect(state(list, 'smart_bulb')?.authorisation).toBe('missing');
    expect(state(list, 'smart_rule')?.authorisation).toBe('not_required');
  });

  it('a company administrator enables and disables an app for the company only', async () => {
    const enabled = await post<AppList>('/api/v1/component/apps/smart_bulb/enable', { enabled: true });
    expect(enabled.code).toBe(0);
    expect(state(enabled.data, 'smart_bulb')).toMatchObject({ enabled: true });
    expect(state(enabled.data, 'smart_bulb')?.changedAt).not.toBeNull();
    expect(state(await apps(companyAdmin), 'smart_bulb')?.enabled).toBe(true);
    // Another company's list is untouched (the tenant boundary).
    expect(state(await apps(otherAdmin), 'smart_bulb')?.enabled).toBe(false);
    const disabled = await post<AppList>('/api/v1/component/apps/smart_bulb/enable', { enabled: false });
    expect(state(disabled.data, 'smart_bulb')?.enabled).toBe(false);
  });

  it('refuses the camera app without the platform administrator’s grant (4613) and unknown apps with 4', async () => {
    expect(state(await apps(companyAdmin), 'camera')?.grant).toBe('missing');
    expect((await post('/api/v1/component/apps/camera/enable', { enabled: true })).code).toBe(Code.VIDEO_SERVICE_NOT_GRANTED);
    expect((await post('/api/v1/component/apps/toaster/enable', { enabled: true })).code).toBe(Code.VALIDATION);
    expect(state(await apps(companyAdmin), 'camera')?.enabled).toBe(false);
  });

  it('staff, and accounts outside a company, may read but not change (code 2, nothing stored)', async () => {
    for (const token of [staff, admin]) {
      const list = await apps(token);
      expect(list.canManage).toBe(false);
      expect((await post('/api/v1/component/apps/smart_rule/enable', { enabled: true }, token)).code).toBe(Code.NO_PERMISSION);
    }
    expect(state(await apps(staff), 'smart_rule')?.enabled).toBe(false);
  });
});
