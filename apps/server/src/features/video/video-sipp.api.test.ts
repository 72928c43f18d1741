import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Code } from '@sunward/contracts/codes';
import type { SipServerInfo, VideoChannelList, VideoDevice, VideoSpace, VideoStream } from '@sunward/contracts/video';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../db/rows.js';
import { signInFailures } from '../../db/schema.js';
import { apiClient, signedInCast } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { ffmpegAvailable } from './media/ffmpeg-media-server.js';

/**
 * A real SIP peer nobody here wrote: sipp (Debian's sip-tester) registers a GB28181 camera with its digest, sends a
 * keepalive, answers the platform's catalog query with two channels, and answers the INVITE of a live stream
 * started through the API and its BYE. Without /usr/bin/sipp the suite is skipped (it says so in its name).
 */
const SIPP = '/usr/bin/sipp';
const hasSipp = existsSync(SIPP);
const hasFfmpeg = hasSipp && (await ffmpegAvailable('ffmpeg'));
const SCENARIOS = join(dirname(fileURLToPath(import.meta.url)), 'sip', 'sipp');
const SIP_ID = '34020000001320000071';
const WRONG_ID = '34020000001320000072';
const PASSWORD = 'Camera-Pass7';

let server: TestServer;
let companyAdmin: string;
let sip: SipServerInfo;
const { get, post } = apiClient(
  () => server.app,
  () => companyAdmin,
);

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

interface SippRun {
  exit: Promise<{ code: number | null; output: string }>;
  kill(): void;
}

/** Runs sipp with a scenario; its exit code 0 means every call of the scenario passed. */
function sipp(args: string[]): SippRun {
  const child = spawn(SIPP, [...args, '-nostdin', '-timeout', '60s', '-timeout_error'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output = (output + d.toString('latin1')).slice(-20_000);
  });
  child.stderr.on('data', (d: Buffer) => {
    output = (output + d.toString('latin1')).slice(-20_000);
  });
  return {
    exit: new Promise((resolve) => child.on('close', (code) => resolve({ code, output }))),
    kill: () => child.kill('SIGKILL'),
  };
}

const running: SippRun[] = [];

beforeAll(async () => {
  if (!hasSipp) return;
  server = await startTestServer({ SIP_PUBLIC_IP: '127.0.0.1', MEDIA_RTP_IP: '127.0.0.1', SIP_KEEPALIVE_SECONDS: '5' });
  const cast = await signedInCast(server, 'Sipp Camera Company');
  companyAdmin = cast.companyAdmin;
  expect((await post(`/api/v1/qvs/grants/${cast.companyId}`, { granted: true }, cast.admin)).code).toBe(0);
  expect((await post('/api/v1/component/apps/camera/enable', { enabled: true })).code).toBe(0);
  sip = (await get<SipServerInfo>('/api/v1/qvs/sipServer')).data;
}, 240_000);

afterAll(async () => {
  for (const run of running) run.kill();
  await server?.close();
});

describe.skipIf(!hasSipp)(
  hasSipp ? 'a sipp camera on the GB28181 SIP server' : `sipp camera: skipped, ${SIPP} is missing (apt-get install sip-tester)`,
  () => {
    let device: VideoDevice;
    let uas: SippRun;

    it('registers with the digest, keeps alive, and shows active with the channels its catalog answer names', async () => {
      const space = (await post<VideoSpace>('/api/v1/qvs/namespaces', { name: 'Sipp yard' })).data;
      device = (
        await post<VideoDevice>(`/api/v1/qvs/namespaces/${space.id}/devices`, { name: 'Sipp camera', sipId: SIP_ID, password: PASSWORD })
      ).data;
      expect(device.state).toBe('unregistered');

      const contactPort = await freeUdpPort();
      const common = ['-i', '127.0.0.1', '-key', 'domain', sip.domain];
      // The camera's listening side first: the platform's catalog query arrives right after the registration.
      uas = sipp(['-sf', join(SCENARIOS, 'camera-uas.xml'), '-p', String(contactPort), '-m', '3', '-key', 'device', SIP_ID, ...common]);
      running.push(uas);
      const registerPort = await freeUdpPort();
      const register = sipp([
        `127.0.0.1:${sip.port}`,
        '-sf',
        join(SCENARIOS, 'register.xml'),
        '-m',
        '1',
        '-p',
        String(registerPort),
        '-s',
        SIP_ID,
        '-au',
        SIP_ID,
        '-ap',
        PASSWORD,
        '-key',
        'contact_port',
        String(contactPort),
        ...common,
      ]);
      running.push(register);
      const registered = await register.exit;
      expect(registered.code, registered.output).toBe(0);

      await expect
        .poll(async () => (await get<VideoDevice>(`/api/v1/qvs/devices/${device.id}`)).data.state, { timeout: 15_000 })
        .toBe('active');
      await expect
        .poll(
          async () =>
            (await get<VideoChannelList>(`/api/v1/qvs/devices/${device.id}/channels`)).data.infos.map((c) => [c.gbId, c.name, c.status]),
          {
            timeout: 15_000,
          },
        )
        .toEqual([
          ['34020000001310000001', 'Gate', 'online'],
          ['34020000001310000002', 'Yard', 'offline'],
        ]);
      const shown = (await get<VideoDevice>(`/api/v1/qvs/devices/${device.id}`)).data;
      expect(shown).toMatchObject({ channelCount: 2, manufacturer: 'SIPp', model: 'IPC-1' });
      expect(shown.lastKeepaliveAt).not.toBeNull();
    }, 90_000);

    it.skipIf(!hasFfmpeg)(
      'starts a live stream and a playback (INVITE answered 200, ACK) and shuts them down (BYE answered 200)',
      async () => {
        const started = await post<VideoStream>(`/api/v1/qvs/devices/${device.id}/channels/34020000001310000001/live`);
        expect(started.code, started.message).toBe(0);
        expect(started.data).toMatchObject({ kind: 'live', gbId: '34020000001310000001', state: 'starting' });
        expect((await get<VideoStream>(`/api/v1/qvs/streams/${started.data.streamId}`)).code).toBe(0);
        const stopped = await post<VideoStream>(`/api/v1/qvs/streams/${started.data.streamId}/stop`);
        expect(stopped.data.state).toBe('stopped');
        expect((await get(`/api/v1/qvs/streams/${started.data.streamId}`)).code).toBe(Code.VIDEO_STREAM_NOT_FOUND);
        // A playback of a recorded half hour: INVITE s=Playback with the range, then BYE.
        const range = { start: '2026-11-27T10:00:00Z', end: '2026-11-27T10:30:00Z' };
        const playback = await post<VideoStream>(`/api/v1/qvs/devices/${device.id}/channels/34020000001310000001/playback`, range);
        expect(playback.code, playback.message).toBe(0);
        expect(playback.data).toMatchObject({ kind: 'playback', start: '2026-11-27T10:00:00.000Z', end: '2026-11-27T10:30:00.000Z' });
        expect(playback.data.streamId).not.toBe(started.data.streamId);
        expect((await post<VideoStream>(`/api/v1/qvs/streams/${playback.data.streamId}/stop`)).data.state).toBe('stopped');
        // The camera side saw its three calls through: the catalog query and two INVITE … BYE.
        const camera = await uas.exit;
        expect(camera.code, camera.output).toBe(0);
      },
      90_000,
    );

    it('challenges a wrong password again (401), counts it in the secret throttle, and leaves that camera unregistered', async () => {
      const space = (await get<{ infos: VideoSpace[] }>('/api/v1/qvs/namespaces')).data.infos[0] as VideoSpace;
      const other = (
        await post<VideoDevice>(`/api/v1/qvs/namespaces/${space.id}/devices`, { name: 'Wrong', sipId: WRONG_ID, password: PASSWORD })
      ).data;
      const run = sipp([
        `127.0.0.1:${sip.port}`,
        '-sf',
        join(SCENARIOS, 'register-wrong.xml'),
        '-m',
        '1',
        '-p',
        String(await freeUdpPort()),
        '-s',
        WRONG_ID,
        '-au',
        WRONG_ID,
        '-ap',
        'Not-The-Pass1',
        '-i',
        '127.0.0.1',
        '-key',
        'domain',
        sip.domain,
      ]);
      running.push(run);
      const result = await run.exit;
      expect(result.code, result.output).toBe(0);
      expect((await get<VideoDevice>(`/api/v1/qvs/devices/${other.id}`)).data.state).toBe('unregistered');
      // The wrong digest counted in the one secret throttle, per camera (as gateway keys are).
      const counted = await sqlRows(
        server.database.db,
        { failures: signInFailures.failures },
        sql`select failures from sign_in_failures where key = ${`gateway:camera:${WRONG_ID}`}`,
      );
      expect(counted).toEqual([{ failures: 1 }]);
    }, 60_000);

    it('marks the camera inactive once its keepalives stop (3 intervals)', async () => {
      await expect
        .poll(async () => (await get<VideoDevice>(`/api/v1/qvs/devices/${device.id}`)).data.state, { timeout: 40_000, interval: 1000 })
        .toBe('inactive');
    }, 60_000);
  },
);
