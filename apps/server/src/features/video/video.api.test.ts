import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code } from '@sunward/contracts/codes';
import { SimulatedCamerasSchema } from '@sunward/contracts/simulated-fleet';
import type { AppList } from '@sunward/contracts/smart-home';
import type { SipServerInfo, VideoDevice, VideoDevicePage, VideoGrant, VideoSpace, VideoSpacePage } from '@sunward/contracts/video';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../db/rows.js';
import { companyCustomers, operationLog } from '../../db/schema.js';
import { apiClient, signedInCast, signedInUser } from '../../test/api.js';
import { call } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let admin: string;
let companyAdmin: string;
let companyId: number;
let staff: string;
let otherAdmin: string;
let otherId: number;
let customerId: number;
let otherCustomerId: number;

const { get, post, del } = apiClient(
  () => server.app,
  () => companyAdmin,
);
const put = async <T>(path: string, json: unknown, token = companyAdmin) => (await call<T>(server.app, 'PUT', path, { token, json })).body;

async function customerOf(company: number, name: string): Promise<number> {
  const user = await server.createUser('customer');
  const [row] = await server.database.db
    .insert(companyCustomers)
    .values({ companyId: company, userId: user.id, name })
    .returning({ id: companyCustomers.id });
  if (!row) throw new Error('no customer');
  return row.id;
}

const PASSWORD = 'Camera-Pass1';
let sipCounter = 0;
const sipId = () => `340200000013200${String(++sipCounter).padStart(5, '0')}`;

beforeAll(async () => {
  server = await startTestServer();
  ({ admin, companyAdmin, companyId } = await signedInCast(server, 'Video Company'));
  staff = (await signedInUser(server, 'company_staff', companyId)).token;
  otherId = await server.createCompany('Other Video Company');
  otherAdmin = (await signedInUser(server, 'company_admin', otherId)).token;
  customerId = await customerOf(companyId, 'Camera Customer');
  otherCustomerId = await customerOf(otherId, 'Other Customer');
}, 240_000);

afterAll(async () => {
  await server?.close();
});

describe('video service grant (platform administrator) and the camera app', () => {
  it('is off until granted: enabling the camera app answers 4613, the qvs calls 4400', async () => {
    const list = (await get<AppList>('/api/v1/component/apps')).data;
    expect(list.apps.find((a) => a.app === 'camera')).toMatchObject({ available: true, enabled: false, grant: 'missing' });
    expect((await post('/api/v1/component/apps/camera/enable', { enabled: true })).code).toBe(Code.VIDEO_SERVICE_NOT_GRANTED);
    expect((await get('/api/v1/qvs/namespaces')).code).toBe(Code.APP_NOT_ENABLED);
  });

  it('only the platform administrator grants (staff and company administrators: 2)', async () => {
    expect((await post(`/api/v1/qvs/grants/${companyId}`, { granted: true }, companyAdmin)).code).toBe(Code.NO_PERMISSION);
    expect((await post(`/api/v1/qvs/grants/${companyId}`, { granted: true }, staff)).code).toBe(Code.NO_PERMISSION);
    const granted = await post<VideoGrant>(`/api/v1/qvs/grants/${companyId}`, { granted: true }, admin);
    expect(granted.code).toBe(0);
    expect(granted.data).toMatchObject({ companyId, granted: true });
    expect((await post(`/api/v1/qvs/grants/${otherId}`, { granted: true }, admin)).code).toBe(0);
    const list = (await get<AppList>('/api/v1/component/apps')).data;
    expect(list.apps.find((a) => a.app === 'camera')?.grant).toBe('granted');
  });

  it('then the company administrator enables the camera app and the qvs calls answer', async () => {
    expect((await post('/api/v1/component/apps/camera/enable', { enabled: true })).code).toBe(0);
    expect((await post('/api/v1/component/apps/camera/enable', { enabled: true }, otherAdmin)).code).toBe(0);
    const page = await get<VideoSpacePage>('/api/v1/qvs/namespaces');
    expect(page).toMatchObject({ code: 0, data: { infos: [], total: 0 } });
    const sip = await get<SipServerInfo>('/api/v1/qvs/sipServer');
    expect(sip.data).toMatchObject({ enabled: true, id: '34020000002000000001', domain: '3402000000', transport: 'UDP' });
    expect(sip.data.port).toBeGreaterThan(0);
  });
});

describe('video spaces', () => {
  let firstSpace: VideoSpace;

  it('requires a name (4) and refuses another company’s customer (4615)', async () => {
    expect((await post('/api/v1/qvs/namespaces', { name: '  ' })).code).toBe(Code.VALIDATION);
    expect((await post('/api/v1/qvs/namespaces', { name: 'Stolen', customerId: otherCustomerId })).code).toBe(Code.VIDEO_CUSTOMER_INVALID);
  });

  it('gives a customer one space: the second is refused with 4602 and nothing is created', async () => {
    const created = await post<VideoSpace>('/api/v1/qvs/namespaces', { name: 'Customer site', customerId, storageGb: 200 });
    expect(created.code).toBe(0);
    expect(created.data).toMatchObject({
      name: 'Customer site',
      customerId,
      customerName: 'Camera Customer',
      storageGb: 200,
      active: true,
      deviceCount: 0,
    });
    firstSpace = created.data;
    expect((await post('/api/v1/qvs/namespaces', { name: 'Customer site 2', customerId })).code).toBe(Code.VIDEO_CUSTOMER_HAS_SPACE);
    expect((await get<VideoSpacePage>('/api/v1/qvs/namespaces')).data.total).toBe(1);
  });

  it('allows 10 spaces per company; the 11th is refused with 4601 and nothing is created', async () => {
    for (let i = 2; i <= 10; i++) expect((await post('/api/v1/qvs/namespaces', { name: `Space ${i}` })).code).toBe(0);
    const refused = await post('/api/v1/qvs/namespaces', { name: 'Space 11' });
    expect(refused.code).toBe(Code.VIDEO_SPACES_MAX);
    expect((await get<VideoSpacePage>('/api/v1/qvs/namespaces?size=100')).data.total).toBe(10);
    // Another company's limit is its own.
    expect((await post('/api/v1/qvs/namespaces', { name: 'Other space' }, otherAdmin)).code).toBe(0);
  });

  it('keeps the limit under parallel creations: of 12 at once in a new company, 10 are created and 2 refused with 4601', async () => {
    const parallelId = await server.createCompany('Parallel Video Company');
    const parallelAdmin = (await signedInUser(server, 'company_admin', parallelId)).token;
    expect((await post(`/api/v1/qvs/grants/${parallelId}`, { granted: true }, admin)).code).toBe(0);
    expect((await post('/api/v1/component/apps/camera/enable', { enabled: true }, parallelAdmin)).code).toBe(0);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post('/api/v1/qvs/namespaces', { name: `Burst ${i}` }, parallelAdmin)),
    );
    expect(answers.filter((a) => a.code === 0)).toHaveLength(10);
    expect(answers.filter((a) => a.code === Code.VIDEO_SPACES_MAX)).toHaveLength(2);
    expect((await get<VideoSpacePage>('/api/v1/qvs/namespaces?size=100', parallelAdmin)).data.total).toBe(10);
  });

  it('renames, deactivates and activates a space', async () => {
    const renamed = await put<VideoSpace>(`/api/v1/qvs/namespaces/${firstSpace.id}`, { name: 'Renamed site', storageGb: 300 });
    expect(renamed.data).toMatchObject({ name: 'Renamed site', storageGb: 300 });
    const off = await post<VideoSpace>(`/api/v1/qvs/namespaces/${firstSpace.id}/active`, { active: false });
    expect(off.data.active).toBe(false);
    const on = await post<VideoSpace>(`/api/v1/qvs/namespaces/${firstSpace.id}/active`, { active: true });
    expect(on.data.active).toBe(true);
  });

  it('writes each change to the operation log', async () => {
    const logged = await sqlRows(
      server.database.db,
      { action: operationLog.action },
      sql`select action from operation_log where target = ${`video-space:${firstSpace.id}`} order by id`,
    );
    expect(logged.map((r) => r.action)).toEqual([
      'video.space.create',
      'video.space.edit',
      'video.space.deactivate',
      'video.space.activate',
    ]);
  });
});

describe('cameras', () => {
  let space: VideoSpace;
  let camera: VideoDevice;

  beforeAll(async () => {
    space = (await get<VideoSpacePage>('/api/v1/qvs/namespaces?name=Space 2')).data.infos[0] as VideoSpace;
  });

  it('checks the SIP ID (20 digits) and the camera password (8-24, upper, lower, digit)', async () => {
    const base = `/api/v1/qvs/namespaces/${space.id}/devices`;
    expect((await post(base, { name: 'Cam', sipId: '1234', password: PASSWORD })).code).toBe(Code.VALIDATION);
    for (const password of ['short1A', 'alllowercase1', 'ALLUPPER1', 'NoDigitsHere', 'Has space 1A', `${'x'.repeat(23)}A1`])
      expect((await post(base, { name: 'Cam', sipId: sipId(), password })).code, password).toBe(Code.VALIDATION);
  });

  it('adds a camera, unregistered, without ever sending its password back', async () => {
    const created = await post<VideoDevice>(`/api/v1/qvs/namespaces/${space.id}/devices`, {
      name: 'Gate',
      sipId: sipId(),
      password: PASSWORD,
    });
    expect(created.code).toBe(0);
    expect(created.data).toMatchObject({ name: 'Gate', state: 'unregistered', enabled: true, channelCount: 0, spaceId: space.id });
    expect(JSON.stringify(created.data)).not.toContain(PASSWORD);
    camera = created.data;
  });

  it('refuses a SIP ID already registered on the platform with 4605', async () => {
    expect(
      (await post(`/api/v1/qvs/namespaces/${space.id}/devices`, { name: 'Twin', sipId: camera.sipId, password: PASSWORD }, otherAdmin))
        .code,
    ).toBe(Code.VIDEO_SPACE_NOT_FOUND);
    expect((await post(`/api/v1/qvs/namespaces/${space.id}/devices`, { name: 'Twin', sipId: camera.sipId, password: PASSWORD })).code).toBe(
      Code.VIDEO_SIP_ID_EXISTS,
    );
  });

  it('holds 9 cameras per space; the 10th is refused with 4603 and nothing is created', async () => {
    for (let i = 2; i <= 9; i++)
      expect(
        (await post(`/api/v1/qvs/namespaces/${space.id}/devices`, { name: `Cam ${i}`, sipId: sipId(), password: PASSWORD })).code,
      ).toBe(0);
    const tenth = sipId();
    expect((await post(`/api/v1/qvs/namespaces/${space.id}/devices`, { name: 'Cam 10', sipId: tenth, password: PASSWORD })).code).toBe(
      Code.VIDEO_DEVICES_MAX,
    );
    const page = await get<VideoDevicePage>(`/api/v1/qvs/namespaces/${space.id}/devices`);
    expect(page.data.total).toBe(9);
    expect(page.data.infos.some((d) => d.sipId === tenth)).toBe(false);
  });

  it('disables and enables a camera; a space with cameras cannot be deleted (4616)', async () => {
    const off = await post<VideoDevice>(`/api/v1/qvs/devices/${camera.id}/enable`, { enabled: false });
    expect(off.data).toMatchObject({ enabled: false, state: 'disabled' });
    const on = await post<VideoDevice>(`/api/v1/qvs/devices/${camera.id}/enable`, { enabled: true });
    expect(on.data).toMatchObject({ enabled: true, state: 'unregistered' });
    expect((await del(`/api/v1/qvs/namespaces/${space.id}`)).code).toBe(Code.VIDEO_SPACE_HAS_DEVICES);
  });

  it('refuses streams of a camera that is not registered (4608) and unknown channels', async () => {
    expect((await post(`/api/v1/qvs/devices/${camera.id}/channels/34020000001310000001/live`)).code).toBe(Code.VIDEO_DEVICE_OFFLINE);
    expect((await post(`/api/v1/qvs/devices/${camera.id}/channels/refresh`)).code).toBe(Code.VIDEO_DEVICE_OFFLINE);
    expect((await get('/api/v1/qvs/devices/999999/channels')).code).toBe(Code.VIDEO_DEVICE_NOT_FOUND);
    const range = { start: '2026-11-27T10:00:00Z', end: '2026-11-27T09:00:00Z' };
    expect((await post(`/api/v1/qvs/devices/${camera.id}/channels/34020000001310000001/playback`, range)).code).toBe(Code.VALIDATION);
  });

  it('answers another company as if nothing existed (4600, 4604, 4610), and changes nothing', async () => {
    expect((await get(`/api/v1/qvs/namespaces/${space.id}/devices`, otherAdmin)).code).toBe(Code.VIDEO_SPACE_NOT_FOUND);
    expect((await put(`/api/v1/qvs/namespaces/${space.id}`, { name: 'Taken', storageGb: 1 }, otherAdmin)).code).toBe(
      Code.VIDEO_SPACE_NOT_FOUND,
    );
    expect((await post(`/api/v1/qvs/namespaces/${space.id}/active`, { active: false }, otherAdmin)).code).toBe(Code.VIDEO_SPACE_NOT_FOUND);
    expect((await get(`/api/v1/qvs/devices/${camera.id}`, otherAdmin)).code).toBe(Code.VIDEO_DEVICE_NOT_FOUND);
    expect((await del(`/api/v1/qvs/devices/${camera.id}`, otherAdmin)).code).toBe(Code.VIDEO_DEVICE_NOT_FOUND);
    expect((await post(`/api/v1/qvs/devices/${camera.id}/enable`, { enabled: false }, otherAdmin)).code).toBe(Code.VIDEO_DEVICE_NOT_FOUND);
    expect((await post('/api/v1/qvs/streams/live_x/stop', {}, otherAdmin)).code).toBe(Code.VIDEO_STREAM_NOT_FOUND);
    expect((await get<VideoDevice>(`/api/v1/qvs/devices/${camera.id}`)).data).toMatchObject({ name: 'Gate', enabled: true });
  });

  it('lets staff read cameras (video.view)', async () => {
    expect((await get(`/api/v1/qvs/devices/${camera.id}`, staff)).code).toBe(0);
  });

  it('renames a camera and changes its password; deletes it', async () => {
    const renamed = await put<VideoDevice>(`/api/v1/qvs/devices/${camera.id}`, { name: 'Front gate', password: 'Other-Pass2' });
    expect(renamed.data.name).toBe('Front gate');
    expect((await del(`/api/v1/qvs/devices/${camera.id}`)).code).toBe(0);
    expect((await get(`/api/v1/qvs/devices/${camera.id}`)).code).toBe(Code.VIDEO_DEVICE_NOT_FOUND);
  });

  it('closes the gate again when the platform administrator withdraws the grant', async () => {
    expect((await post(`/api/v1/qvs/grants/${otherId}`, { granted: false }, admin)).code).toBe(0);
    expect((await get('/api/v1/qvs/namespaces', otherAdmin)).code).toBe(Code.APP_NOT_ENABLED);
    expect((await get('/api/v1/qvs/namespaces')).code).toBe(0);
  });
});

describe('the demo’s cameras', () => {
  it('grants the demo company the service and its app, adds a space and two cameras once, and writes the simulator’s file', async () => {
    const demoId = await server.createCompany('Demo Video Company');
    const demoAdmin = (await signedInUser(server, 'company_admin', demoId)).token;
    const file = join(mkdtempSync(join(tmpdir(), 'video-demo-')), 'demo-cameras.json');
    expect(await server.app.provisionDemoCameras('No Such Company', file)).toBe(false);
    expect(await server.app.provisionDemoCameras('Demo Video Company', file)).toBe(true);
    const first = SimulatedCamerasSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    const sipInfo = (await get<SipServerInfo>('/api/v1/qvs/sipServer', demoAdmin)).data;
    expect(first.sip).toEqual({ host: '127.0.0.1', port: sipInfo.port, serverId: sipInfo.id, domain: sipInfo.domain });
    expect(first.cameras.map((c) => c.sipId)).toEqual(['34020000001320000101', '34020000001320000102']);
    // Again (the next start): nothing new, the same passwords.
    expect(await server.app.provisionDemoCameras('Demo Video Company', file)).toBe(true);
    expect(SimulatedCamerasSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).cameras).toEqual(first.cameras);
    const spaces = (await get<VideoSpacePage>('/api/v1/qvs/namespaces', demoAdmin)).data;
    expect(spaces.infos.map((s) => [s.name, s.deviceCount])).toEqual([['Demo site', 2]]);
  });
});
