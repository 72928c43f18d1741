import { Code } from '@sunward/contracts/codes';
import type {
  SipServerInfo,
  VideoChannelList,
  VideoDevice,
  VideoDevicePage,
  VideoSpace,
  VideoSpacePage,
  VideoStream,
} from '@sunward/contracts/video';
import type { SimulatedCamera } from '@sunward/simulator/camera/gb28181-camera';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '../../db/rows.js';
import { companyCustomers } from '../../db/schema.js';
import { apiClient, signedInCast, signedInUser } from '../../test/api.js';
import { call } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { startCameraAt } from '../../test/sim-camera.js';
import { ffmpegAvailable } from './media/ffmpeg-media-server.js';

/**
 * A customer of a company (spec 02: "at most 10 spaces, one per customer") sees the video space assigned to them,
 * its cameras with their state, and watches them live; nothing of another customer's or the company's other spaces,
 * and they change nothing. A customer of a company without the video service gets 4400.
 */
const hasFfmpeg = await ffmpegAvailable('ffmpeg');
const A_SIP = '34020000001320000071';
const A_CHANNEL = '34020000001310000071';
const B_SIP = '34020000001320000072';
const PASSWORD = 'Camera-Pass7';

let server: TestServer;
let companyAdmin: string;
let customerA: string;
let customerB: string;
let customerElsewhere: string;
let spaceA: VideoSpace;
let spaceB: VideoSpace;
let companySpace: VideoSpace;
let cameraA: VideoDevice;
let cameraB: VideoDevice;
let camera: SimulatedCamera | undefined;

const { get, post } = apiClient(
  () => server.app,
  () => companyAdmin,
);
const put = async (path: string, json: unknown, token: string) => (await call(server.app, 'PUT', path, { token, json })).body;
const del = async (path: string, token: string) => (await call(server.app, 'DELETE', path, { token })).body;

async function customer(companyId: number, name: string): Promise<{ token: string; customerId: number }> {
  const user = await signedInUser(server, 'customer');
  const [row] = await server.database.db
    .insert(companyCustomers)
    .values({ companyId, userId: user.id, name })
    .returning({ id: companyCustomers.id });
  if (!row) throw new Error('no customer');
  return { token: user.token, customerId: row.id };
}

async function snapshot() {
  return rawRows(
    server.database.db,
    sql`select 'space' as kind, id, name, active::text as flag from video_spaces
        union all select 'device', id, name, enabled::text from video_devices order by 1, 2`,
  );
}

beforeAll(async () => {
  server = await startTestServer({ SIP_PUBLIC_IP: '127.0.0.1', MEDIA_RTP_IP: '127.0.0.1' });
  const cast = await signedInCast(server, 'Customer Video Company');
  companyAdmin = cast.companyAdmin;
  expect((await post(`/api/v1/qvs/grants/${cast.companyId}`, { granted: true }, cast.admin)).code).toBe(0);
  expect((await post('/api/v1/component/apps/camera/enable', { enabled: true })).code).toBe(0);
  const a = await customer(cast.companyId, 'Customer A');
  const b = await customer(cast.companyId, 'Customer B');
  customerA = a.token;
  customerB = b.token;
  // A company the platform administrator never granted the video service.
  const elsewhere = await server.createCompany('Ungranted Video Company');
  customerElsewhere = (await customer(elsewhere, 'Customer Elsewhere')).token;

  spaceA = (await post<VideoSpace>('/api/v1/qvs/namespaces', { name: 'A house', customerId: a.customerId })).data;
  spaceB = (await post<VideoSpace>('/api/v1/qvs/namespaces', { name: 'B house', customerId: b.customerId })).data;
  companySpace = (await post<VideoSpace>('/api/v1/qvs/namespaces', { name: 'Depot' })).data;
  cameraA = (await post<VideoDevice>(`/api/v1/qvs/namespaces/${spaceA.id}/devices`, { name: 'A porch', sipId: A_SIP, password: PASSWORD }))
    .data;
  cameraB = (await post<VideoDevice>(`/api/v1/qvs/namespaces/${spaceB.id}/devices`, { name: 'B garden', sipId: B_SIP, password: PASSWORD }))
    .data;
  await post(`/api/v1/qvs/namespaces/${companySpace.id}/devices`, {
    name: 'Depot gate',
    sipId: '34020000001320000073',
    password: PASSWORD,
  });

  const sip = (await get<SipServerInfo>('/api/v1/qvs/sipServer')).data;
  camera = await startCameraAt(sip, { deviceId: A_SIP, password: PASSWORD, channels: [{ gbId: A_CHANNEL, name: 'Porch' }] });
}, 240_000);

afterAll(async () => {
  await camera?.stop();
  await server?.close();
});

describe('a customer’s own video space', () => {
  it('lists only the space assigned to them, with its cameras and their state', async () => {
    await expect
      .poll(async () => (await get<VideoDevice>(`/api/v1/qvs/devices/${cameraA.id}`)).data.state, { timeout: 20_000 })
      .toBe('active');
    const spaces = await get<VideoSpacePage>('/api/v1/qvs/namespaces?size=100', customerA);
    expect(spaces.code).toBe(0);
    expect(spaces.data.infos.map((s) => s.id)).toEqual([spaceA.id]);
    expect(spaces.data.total).toBe(1);
    const devices = await get<VideoDevicePage>(`/api/v1/qvs/namespaces/${spaceA.id}/devices`, customerA);
    expect(devices.data.infos.map((d) => ({ id: d.id, state: d.state }))).toEqual([{ id: cameraA.id, state: 'active' }]);
    expect((await get<VideoDevice>(`/api/v1/qvs/devices/${cameraA.id}`, customerA)).data).toMatchObject({
      name: 'A porch',
      state: 'active',
    });
    await expect
      .poll(
        async () => (await get<VideoChannelList>(`/api/v1/qvs/devices/${cameraA.id}/channels`, customerA)).data.infos.map((c) => c.gbId),
        {
          timeout: 20_000,
        },
      )
      .toEqual([A_CHANNEL]);
    expect((await get<VideoSpacePage>('/api/v1/qvs/namespaces', customerB)).data.infos.map((s) => s.id)).toEqual([spaceB.id]);
  });

  it('finds nothing of another customer’s space or the company’s other spaces (not found), and nothing changes', async () => {
    const before = await snapshot();
    for (const id of [spaceB.id, companySpace.id])
      expect((await get(`/api/v1/qvs/namespaces/${id}/devices`, customerA)).code).toBe(Code.VIDEO_SPACE_NOT_FOUND);
    expect((await get(`/api/v1/qvs/devices/${cameraB.id}`, customerA)).code).toBe(Code.VIDEO_DEVICE_NOT_FOUND);
    expect((await get(`/api/v1/qvs/devices/${cameraB.id}/channels`, customerA)).code).toBe(Code.VIDEO_DEVICE_NOT_FOUND);
    expect((await post(`/api/v1/qvs/devices/${cameraB.id}/channels/${A_CHANNEL}/live`, {}, customerA)).code).toBe(
      Code.VIDEO_DEVICE_NOT_FOUND,
    );
    expect((await post(`/api/v1/qvs/devices/${cameraA.id}/channels/${A_CHANNEL}/live`, {}, customerB)).code).toBe(
      Code.VIDEO_DEVICE_NOT_FOUND,
    );
    expect(await snapshot()).toEqual(before);
    expect(camera?.streams.size ?? 0).toBe(0);
  });

  it('cannot create, edit, enable, delete, query the catalog, play back or read the SIP server (2); nothing changes', async () => {
    const before = await snapshot();
    const refused = [
      await post('/api/v1/qvs/namespaces', { name: 'Mine too' }, customerA),
      await put(`/api/v1/qvs/namespaces/${spaceA.id}`, { name: 'Renamed' }, customerA),
      await post(`/api/v1/qvs/namespaces/${spaceA.id}/active`, { active: false }, customerA),
      await del(`/api/v1/qvs/namespaces/${spaceA.id}`, customerA),
      await post(
        `/api/v1/qvs/namespaces/${spaceA.id}/devices`,
        { name: 'X', sipId: '34020000001320000079', password: PASSWORD },
        customerA,
      ),
      await put(`/api/v1/qvs/devices/${cameraA.id}`, { name: 'Renamed' }, customerA),
      await post(`/api/v1/qvs/devices/${cameraA.id}/enable`, { enabled: false }, customerA),
      await del(`/api/v1/qvs/devices/${cameraA.id}`, customerA),
      await post(`/api/v1/qvs/devices/${cameraA.id}/channels/refresh`, {}, customerA),
      await post(
        `/api/v1/qvs/devices/${cameraA.id}/channels/${A_CHANNEL}/playback`,
        { start: new Date(Date.now() - 3_600_000).toISOString(), end: new Date().toISOString() },
        customerA,
      ),
      await get('/api/v1/qvs/sipServer', customerA),
      await get('/api/v1/qvs/grants', customerA),
    ];
    expect(refused.map((r) => r.code)).toEqual(refused.map(() => Code.NO_PERMISSION));
    expect(await snapshot()).toEqual(before);
  });

  it.skipIf(!hasFfmpeg)(
    'watches their camera live and stops it; the other customer can neither see nor stop the stream',
    async () => {
      const started = await post<VideoStream>(`/api/v1/qvs/devices/${cameraA.id}/channels/${A_CHANNEL}/live`, {}, customerA);
      expect(started.code).toBe(0);
      const { streamId, playUrl } = started.data;
      await expect
        .poll(async () => (await get<VideoStream>(`/api/v1/qvs/streams/${streamId}`, customerA)).data.state, {
          timeout: 30_000,
          interval: 500,
        })
        .toBe('playing');
      const watch = (token: string) => server.app.inject({ method: 'GET', url: playUrl, headers: { authorization: `Bearer ${token}` } });
      expect((await watch(customerA)).statusCode).toBe(200);
      expect((await watch(customerB)).statusCode).not.toBe(200);
      expect((await get(`/api/v1/qvs/streams/${streamId}`, customerB)).code).toBe(Code.VIDEO_STREAM_NOT_FOUND);
      expect((await post(`/api/v1/qvs/streams/${streamId}/stop`, {}, customerB)).code).toBe(Code.VIDEO_STREAM_NOT_FOUND);
      expect(camera?.streams.size).toBe(1);
      const stopped = await post<VideoStream>(`/api/v1/qvs/streams/${streamId}/stop`, {}, customerA);
      expect(stopped.data.state).toBe('stopped');
      await expect.poll(() => camera?.streams.size).toBe(0);
    },
    60_000,
  );

  it('answers 4400 once the company disables the camera app, and to a customer of a company without the grant', async () => {
    expect((await get('/api/v1/qvs/namespaces', customerElsewhere)).code).toBe(Code.APP_NOT_ENABLED);
    expect((await get(`/api/v1/qvs/devices/${cameraA.id}`, customerElsewhere)).code).toBe(Code.APP_NOT_ENABLED);
    expect((await post('/api/v1/component/apps/camera/enable', { enabled: false })).code).toBe(0);
    expect((await get('/api/v1/qvs/namespaces', customerA)).code).toBe(Code.APP_NOT_ENABLED);
    expect((await post('/api/v1/component/apps/camera/enable', { enabled: true })).code).toBe(0);
    expect((await get<VideoSpacePage>('/api/v1/qvs/namespaces', customerA)).data.total).toBe(1);
  });
});
