import type { Config } from '../../config.js';
import { defaultRtpIp } from './media/create-media-server.js';
import { type CameraDirectory, createSipServer, type SecretCheck, type SipServer } from './sip/sip-server.js';

/** The registration validity granted at most (GB28181 cameras ask 3600 by default). */
export const REGISTER_EXPIRES_MAX = 3600;

interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * The SIP server as the process runs it (SIP_* settings): created with the app, bound when the app is ready
 * (only in the running server: the API document's app never binds), closed with it. A taken default port (5060)
 * moves to a free one with a warning, as the MQTT port does; a taken SIP_PORT set explicitly stops the start.
 */
export function startVideoSip(options: {
  config: Pick<Config, 'sip' | 'media'>;
  enabled: boolean;
  directory: () => CameraDirectory;
  checkSecret: SecretCheck;
  log: Log;
}) {
  const sip = options.config.sip;
  const ip = sip?.publicIp ?? options.config.media.rtpIp ?? defaultRtpIp();
  let server: SipServer | undefined;

  function create(port: number): SipServer {
    if (!sip) throw new Error('SIP is off');
    // The directory is read through a getter: the video service that implements it is built after this.
    const directory: CameraDirectory = {
      credentials: (id) => options.directory().credentials(id),
      registered: (id, remote, expires) => options.directory().registered(id, remote, expires),
      unregistered: (id) => options.directory().unregistered(id),
      keepalive: (id, remote) => options.directory().keepalive(id, remote),
      channels: (id, items) => options.directory().channels(id, items),
      address: (id) => options.directory().address(id),
      streamEnded: (streamId) => options.directory().streamEnded(streamId),
    };
    return createSipServer({
      port,
      serverId: sip.serverId,
      domain: sip.domain,
      localIp: ip,
      directory,
      checkSecret: options.checkSecret,
      maxExpiresSeconds: REGISTER_EXPIRES_MAX,
      log: options.log,
    });
  }

  return {
    settings: sip
      ? {
          serverId: sip.serverId,
          domain: sip.domain,
          ip,
          port: sip.port,
          keepaliveSeconds: sip.keepaliveSeconds,
          registerExpiresSeconds: REGISTER_EXPIRES_MAX,
        }
      : undefined,
    server: (): SipServer | undefined => server,
    async start(): Promise<void> {
      if (!sip || !options.enabled || server) return;
      const first = create(sip.port);
      try {
        await first.start();
        server = first;
      } catch (error) {
        const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' || (error as NodeJS.ErrnoException).code === 'EACCES';
        // main.ts names the setting to change (not PORT, the HTTP port) when an explicit SIP_PORT is taken.
        if (taken && sip.portExplicit) throw Object.assign(error as Error, { setting: 'SIP_PORT', port: sip.port });
        if (!taken) throw error;
        const fallback = create(0);
        await fallback.start();
        server = fallback;
        options.log.warn({ port: sip.port, instead: fallback.port }, 'SIP port taken: cameras must use the port GET qvs/sipServer shows');
      }
      options.log.info({ port: server.port, id: sip.serverId, domain: sip.domain }, 'GB28181 SIP server listening (UDP)');
    },
    async close(): Promise<void> {
      const s = server;
      server = undefined;
      await s?.close();
    },
  };
}
