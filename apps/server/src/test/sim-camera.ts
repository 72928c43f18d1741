import type { SipServerInfo } from '@sunward/contracts/video';
import { type CameraChannel, createSimulatedCamera, type SimulatedCamera } from '@sunward/simulator/camera/gb28181-camera';

/**
 * A simulated GB28181 camera registered with the SIP server the console shows (`GET /api/v1/qvs/sipServer`), as an
 * installer types it into a camera: started, keepalives every 5 s.
 */
export async function startCameraAt(
  sip: SipServerInfo,
  camera: { deviceId: string; password: string; channels: CameraChannel[] },
): Promise<SimulatedCamera> {
  const started = createSimulatedCamera({
    serverHost: sip.ip,
    serverPort: sip.port,
    serverId: sip.id,
    domain: sip.domain,
    ...camera,
    keepaliveSeconds: 5,
  });
  await started.start();
  return started;
}
