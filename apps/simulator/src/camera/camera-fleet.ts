import type { SimulatedCameras } from '@sunward/contracts/simulated-fleet';
import { createSimulatedCamera, type SimulatedCamera } from './gb28181-camera.js';

/**
 * Plays the demo's cameras (`simulator --cameras FILE`): each registers with the platform's SIP server and keeps
 * trying every 30 s while it is refused or unanswered (the server may start after the simulator, or the camera be
 * disabled in the console). stop() unregisters them all.
 */
export function playCameras(file: SimulatedCameras, log: (line: string) => void): { stop(): Promise<void> } {
  const running = new Set<SimulatedCamera>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const start = (camera: SimulatedCameras['cameras'][number]) => {
    if (stopped) return;
    const instance = createSimulatedCamera({
      serverHost: file.sip.host,
      serverPort: file.sip.port,
      serverId: file.sip.serverId,
      domain: file.sip.domain,
      deviceId: camera.sipId,
      password: camera.password,
      channels: camera.channels,
      keepaliveSeconds: file.keepaliveSeconds,
      log,
    });
    instance.start().then(
      () => {
        running.add(instance);
        log(`Simulated camera ${camera.sipId} registered (${camera.channels.length} channels)`);
      },
      (error: Error) => {
        log(`Simulated camera ${camera.sipId}: ${error.message}; trying again in 30 s`);
        void instance.stop();
        const timer = setTimeout(() => {
          timers.delete(timer);
          start(camera);
        }, 30_000);
        timers.add(timer);
      },
    );
  };
  for (const camera of file.cameras) start(camera);
  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.all([...running].map((c) => c.stop()));
    },
  };
}
