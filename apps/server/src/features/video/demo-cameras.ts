import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { SimulatedCameras } from '@sunward/contracts/simulated-fleet';
import { VIDEO_LIMITS } from '@sunward/contracts/video';
import type { SecretBox } from '../../lib/secret-box.js';
import type { VideoRepository } from './video.repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Provisions the demo's video and writes the simulator's cameras file (false: no demo company or SIP off). */
    provisionDemoCameras(companyName: string, file: string): Promise<boolean>;
  }
}

/** The demo's two cameras: fixed SIP IDs (type 132) with one channel each (type 131). */
export const DEMO_CAMERAS = [
  { sipId: '34020000001320000101', name: 'Demo gate camera', channel: { gbId: '34020000001310000101', name: 'Gate' } },
  { sipId: '34020000001320000102', name: 'Demo roof camera', channel: { gbId: '34020000001310000102', name: 'Roof' } },
] as const;

/**
 * The demo's video (issue 23, `npm start` with SIMULATOR=on): the demo company gets the video grant, the camera
 * app, a space and the two cameras (each once, a random password), and `file` is written (again at each start: the
 * SIP port may have moved) with what the simulator's cameras need to register (SimulatedCamerasSchema). Answers
 * false when there is no demo company or no SIP server.
 */
export async function provisionDemoCameras(input: {
  repository: VideoRepository;
  box: SecretBox;
  companyName: string;
  sip: { host: string; port: number; serverId: string; domain: string; keepaliveSeconds: number } | undefined;
  file: string;
}): Promise<boolean> {
  const { repository, box, sip } = input;
  if (!sip) return false;
  const companyId = await repository.companyIdByName(input.companyName);
  if (companyId === undefined) return false;
  await repository.provisionDemoGrant(companyId);
  let spaceId = (await repository.spaces({ kind: 'company', companyId }, 1, 1, undefined)).rows[0]?.id;
  if (spaceId === undefined) {
    const created = await repository.insertSpace(
      { companyId, name: 'Demo site', customerId: null, storageGb: VIDEO_LIMITS.storageGbDefault },
      VIDEO_LIMITS.spacesMax,
    );
    if (!created.ok) return false;
    spaceId = created.id;
  }
  const cameras: SimulatedCameras['cameras'] = [];
  for (const camera of DEMO_CAMERAS) {
    let device = await repository.deviceBySipId(camera.sipId);
    if (!device) {
      const password = `Demo7-${randomBytes(6).toString('hex')}`;
      await repository.insertDevice(
        { spaceId, companyId, name: camera.name, sipId: camera.sipId, passwordSealed: box.seal(password) },
        VIDEO_LIMITS.devicesPerSpaceMax,
      );
      device = await repository.deviceBySipId(camera.sipId);
    }
    const password = device && device.companyId === companyId ? box.open(device.passwordSealed) : undefined;
    if (password) cameras.push({ sipId: camera.sipId, password, channels: [{ ...camera.channel }] });
  }
  const file: SimulatedCameras = {
    sip: { host: sip.host, port: sip.port, serverId: sip.serverId, domain: sip.domain },
    keepaliveSeconds: sip.keepaliveSeconds,
    cameras,
  };
  writeFileSync(input.file, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  return cameras.length > 0;
}
