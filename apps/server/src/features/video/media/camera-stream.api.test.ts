import type { SipServerInfo, VideoChannelList, VideoDevice, VideoSpace, VideoStream } from '@sunward/contracts/video';
import type { SimulatedCamera } from '@sunward/simulator/camera/gb28181-camera';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, signedInCast } from '../../../test/api.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { startCameraAt } from '../../../test/sim-camera.js';
import { ffmpegAvailable } from './ffmpeg-media-server.js';

/**
 * The simulated camera against the real SIP server and the built-in media path: it registers with its digest,
 * reports its channel, and a live stream started through the API becomes playable HLS the console can fetch.
 */
const hasFfmpeg = await ffmpegAvailable('ffmpeg');
const SIP_ID = '34020000001320000091';
const CHANNEL = '34020000001310000091';
const PASSWORD = 'Camera-Pass9';

let server: TestServer;
let companyAdmin: string;
let camera: SimulatedCamera | undefined;
const { get, post } = apiClient(
  () => server.app,
  () => companyAdmin,
);

beforeAll(async () => {
  server = await startTestServer({ SIP_PUBLIC_IP: '127.0.0.1', MEDIA_RTP_IP: '127.0.0.1' });
  const cast = await signedInCast(server, 'Camera Stream Company');
  companyAdmin = cast.companyAdmin;
  expect((await post(`/api/v1/qvs/grants/${cast.companyId}`, { granted: true }, cast.admin)).code).toBe(0);
  expect((await post('/api/v1/component/apps/camera/enable', { enabled: true })).code).toBe(0);
}, 240_000);

afterAll(async () => {
  await camera?.stop();
  await server?.close();
});

describe('a simulated camera on the real SIP server', () => {
  let device: VideoDevice;

  it('registers with its digest and shows active with its channel', async () => {
    const space = (await post<VideoSpace>('/api/v1/qvs/namespaces', { name: 'Yard' })).data;
    device = (
      await post<VideoDevice>(`/api/v1/qvs/namespaces/${space.id}/devices`, { name: 'Gate camera', sipId: SIP_ID, password: PASSWORD })
    ).data;
    expect(device.state).toBe('unregistered');
    const sip = (await get<SipServerInfo>('/api/v1/qvs/sipServer')).data;
    camera = await startCameraAt(sip, { deviceId: SIP_ID, password: PASSWORD, channels: [{ gbId: CHANNEL, name: 'Gate' }] });
    await expect.poll(async () => (await get<VideoDevice>(`/api/v1/qvs/devices/${device.id}`)).data.state).toBe('active');
    // The platform asks for the catalog at each registration (the camera echoes the query's SN): the channels come
    // without anyone pressing Query channels; a refresh asks again and gets the same.
    await expect
      .poll(async () => (await get<VideoChannelList>(`/api/v1/qvs/devices/${device.id}/channels`)).data.infos.map((c) => c.gbId), {
        timeout: 20_000,
        interval: 200,
      })
      .toEqual([CHANNEL]);
    const refreshed = await post<VideoChannelList>(`/api/v1/qvs/devices/${device.id}/channels/refresh`, {});
    expect(refreshed.data?.infos.map((c) => c.gbId)).toEqual([CHANNEL]);
    const listed = (await get<VideoChannelList>(`/api/v1/qvs/devices/${device.id}/channels`)).data;
    expect(listed.infos.map((c) => ({ gbId: c.gbId, name: c.name, status: c.status }))).toEqual([
      { gbId: CHANNEL, name: 'Gate', status: 'online' },
    ]);
  });

  it.skipIf(!hasFfmpeg)(
    'plays live: starting, then an HLS playlist with a segment the console may fetch, then stopped',
    async () => {
      const started = await post<VideoStream>(`/api/v1/qvs/devices/${device.id}/channels/${CHANNEL}/live`, {});
      expect(started.code).toBe(0);
      const { streamId, playUrl } = started.data;
      expect(playUrl).toBe(`/api/v1/qvs/media/${streamId}/index.m3u8`);
      await expect
        .poll(async () => (await get<VideoStream>(`/api/v1/qvs/streams/${streamId}`)).data.state, { timeout: 30_000, interval: 500 })
        .toBe('playing');
      expect(camera?.streams.size).toBe(1);
      const playlist = await server.app.inject({ method: 'GET', url: playUrl, headers: { authorization: `Bearer ${companyAdmin}` } });
      expect(playlist.statusCode).toBe(200);
      expect(playlist.headers['content-type']).toContain('mpegurl');
      const segment = playlist.body.split('\n').find((line) => line.endsWith('.ts'));
      expect(segment).toBeDefined();
      const media = await server.app.inject({
        method: 'GET',
        url: playUrl.replace('index.m3u8', segment ?? ''),
        headers: { authorization: `Bearer ${companyAdmin}` },
      });
      expect(media.statusCode).toBe(200);
      expect(media.rawPayload[0]).toBe(0x47);
      // Not signed in: no video.
      expect((await server.app.inject({ method: 'GET', url: playUrl })).statusCode).not.toBe(200);
      const stopped = await post<VideoStream>(`/api/v1/qvs/streams/${streamId}/stop`, {});
      expect(stopped.data.state).toBe('stopped');
      await expect.poll(() => camera?.streams.size).toBe(0);
      const gone = await server.app.inject({ method: 'GET', url: playUrl, headers: { authorization: `Bearer ${companyAdmin}` } });
      expect(gone.statusCode).not.toBe(200);
    },
    60_000,
  );

  it.runIf(!hasFfmpeg)('skips the live stream: ffmpeg is not installed on this machine', () => {
    console.warn('camera-stream.api.test: ffmpeg not found, the live stream part is skipped');
  });
});
