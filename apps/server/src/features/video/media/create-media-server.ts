import { networkInterfaces } from 'node:os';
import type { Config } from '../../../config.js';
import { createFfmpegMediaServer, type FfmpegMediaServer, type MediaLog } from './ffmpeg-media-server.js';
import type { MediaServer } from './media-server.js';
import { createZlmMediaServer } from './zlmediakit-media-server.js';

/** This machine's first non-loopback IPv4 (what a camera on the network can reach), else loopback. */
export function defaultRtpIp(): string {
  for (const addresses of Object.values(networkInterfaces()))
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  return '127.0.0.1';
}

/**
 * The media server the settings choose (MEDIA_SERVER): the built-in ffmpeg → HLS adapter, or ZLMediaKit.
 * `onIdle` hears of a stream stopped for want of viewers (MEDIA_IDLE_MINUTES), so the SIP side sends its BYE.
 */
export function createMediaServer(
  config: Pick<Config, 'dataDir' | 'media'>,
  hooks: { onIdle?: (streamId: string) => void; log?: MediaLog } = {},
): MediaServer {
  const { media } = config;
  if (media.adapter.kind === 'zlmediakit')
    return createZlmMediaServer({
      url: media.adapter.url,
      secret: media.adapter.secret,
      playUrl: media.adapter.playUrl,
      rtpIp: media.adapter.rtpIp,
      idleMs: media.idleMs,
      ...hooks,
    });
  return createFfmpegMediaServer({
    dataDir: config.dataDir,
    rtpIp: media.rtpIp ?? defaultRtpIp(),
    ffmpegPath: media.adapter.ffmpegPath,
    idleMs: media.idleMs,
    ...hooks,
  });
}

/** The built-in adapter, whose HLS files the console's media route serves; undefined for an external media server. */
export function builtinMedia(media: MediaServer): FfmpegMediaServer | undefined {
  return isBuiltin(media) ? media : undefined;
}

function isBuiltin(media: MediaServer): media is FfmpegMediaServer {
  return media.name === 'builtin' && 'fileOf' in media;
}
