import { z } from 'zod';
import { every } from '../../../jobs/timers.js';
import type { MediaLog } from './ffmpeg-media-server.js';
import { newSsrc, STREAM_ID_PATTERN } from './ffmpeg-media-server.js';
import { MediaUnavailableError } from './media-error.js';
import type { MediaReceiver, MediaServer, StreamKind } from './media-server.js';

/** ZLMediaKit puts streams received by openRtpServer under this app name. */
export const ZLM_RTP_APP = 'rtp';

export interface ZlmMediaServerOptions {
  /** ZLM_URL: its HTTP API, e.g. http://zlm:80 */
  url: string;
  /** ZLM_SECRET: api.secret of its config.ini. */
  secret: string;
  /** Where browsers load its HLS (ZLM_PLAY_URL, default ZLM_URL). */
  playUrl: string;
  /** The address cameras reach its RTP ports at. */
  rtpIp: string;
  idleMs: number;
  onIdle?: (streamId: string) => void;
  log?: MediaLog;
  /** How often viewers are counted (getMediaList); default a quarter of idleMs, at most 15 s. */
  pollMs?: number;
  timeoutMs?: number;
}

const AnswerSchema = z.object({ code: z.number(), msg: z.string().optional() }).loose();
const OpenAnswerSchema = AnswerSchema.extend({ port: z.number().int().min(1).max(65535) });
const MediaListSchema = AnswerSchema.extend({
  data: z
    .array(
      z
        .object({
          app: z.string(),
          stream: z.string(),
          schema: z.string().optional(),
          totalReaderCount: z.number().optional(),
          readerCount: z.number().optional(),
        })
        .loose(),
    )
    .optional(),
});

/**
 * ZLMediaKit as the media server (MEDIA_SERVER=zlmediakit): openRtpServer gives the port a camera sends its RTP
 * (PS or TS, UDP) to, ZLMediaKit remuxes it and serves HLS at <play url>/rtp/<streamId>/hls.m3u8; getMediaList
 * says when the stream exists and how many watch it; closeRtpServer ends it. HTTP API, `secret` on every call.
 */
export function createZlmMediaServer(options: ZlmMediaServerOptions): MediaServer {
  const streams = new Map<string, { receiver: MediaReceiver; lastViewedAt: number }>();
  const timeoutMs = options.timeoutMs ?? 5000;
  const pollMs = options.pollMs ?? Math.min(15_000, Math.max(1000, Math.floor(options.idleMs / 4)));
  const stopPoll = every(pollMs, () => void countViewers());

  async function call<T>(api: string, params: Record<string, string | number>, schema: z.ZodType<T>): Promise<T> {
    const query = new URLSearchParams({ secret: options.secret });
    for (const [key, value] of Object.entries(params)) query.set(key, String(value));
    let body: unknown;
    try {
      const response = await fetch(`${options.url}/index/api/${api}?${query}`, { signal: AbortSignal.timeout(timeoutMs) });
      body = await response.json();
    } catch (error) {
      throw new MediaUnavailableError(
        'media-server-unreachable',
        `ZLMediaKit at ${options.url} did not answer ${api}: ${(error as Error).message}`,
      );
    }
    const answer = AnswerSchema.safeParse(body);
    if (!answer.success) throw new MediaUnavailableError('media-server-refused', `ZLMediaKit ${api}: not an API answer`);
    if (answer.data.code !== 0)
      throw new MediaUnavailableError(
        'media-server-refused',
        `ZLMediaKit ${api} refused: ${answer.data.code} ${answer.data.msg ?? ''}`.trim(),
      );
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new MediaUnavailableError('media-server-refused', `ZLMediaKit ${api}: unexpected answer`);
    return parsed.data;
  }

  async function mediaOf(streamId: string) {
    const list = await call('getMediaList', { app: ZLM_RTP_APP, stream: streamId }, MediaListSchema);
    return (list.data ?? []).filter((m) => m.app === ZLM_RTP_APP && m.stream === streamId);
  }

  async function countViewers(): Promise<void> {
    const now = Date.now();
    for (const [streamId, stream] of streams) {
      try {
        const media = await mediaOf(streamId);
        if (media.some((m) => (m.totalReaderCount ?? m.readerCount ?? 0) > 0)) stream.lastViewedAt = now;
      } catch (error) {
        options.log?.warn({ streamId, error: (error as Error).message }, 'video stream: ZLMediaKit viewer count failed');
        continue;
      }
      if (now - stream.lastViewedAt < options.idleMs) continue;
      options.log?.info({ streamId }, 'video stream stopped: no viewer');
      await close(streamId);
      options.onIdle?.(streamId);
    }
  }

  async function close(streamId: string): Promise<void> {
    if (!streams.delete(streamId)) return;
    await call('closeRtpServer', { stream_id: streamId }, AnswerSchema).catch((error: Error) =>
      options.log?.warn({ streamId, error: error.message }, 'video stream: ZLMediaKit closeRtpServer failed'),
    );
  }

  return {
    name: 'zlmediakit',
    async openReceiver(streamId: string, kind: StreamKind) {
      if (!STREAM_ID_PATTERN.test(streamId)) throw new Error(`invalid stream id ${streamId}`);
      const existing = streams.get(streamId);
      if (existing) return existing.receiver;
      const ssrc = newSsrc(kind);
      // tcp_mode 0: UDP only (the SIP side offers RTP/AVP over UDP); port 0: ZLMediaKit picks one from its range.
      const answer = await call('openRtpServer', { port: 0, tcp_mode: 0, stream_id: streamId, ssrc: Number(ssrc) }, OpenAnswerSchema);
      const receiver: MediaReceiver = { streamId, ip: options.rtpIp, port: answer.port, ssrc };
      streams.set(streamId, { receiver, lastViewedAt: Date.now() });
      return receiver;
    },
    playUrl: (streamId) => `${options.playUrl}/${ZLM_RTP_APP}/${encodeURIComponent(streamId)}/hls.m3u8`,
    async isReady(streamId) {
      if (!streams.has(streamId)) return false;
      const media = await mediaOf(streamId).catch(() => []);
      // One entry per protocol it serves the stream in; the HLS one appears once a segment is written.
      return media.some((m) => m.schema === undefined || m.schema === 'hls');
    },
    close,
    async closeAll() {
      stopPoll();
      await Promise.all([...streams.keys()].map((id) => close(id)));
    },
  };
}
