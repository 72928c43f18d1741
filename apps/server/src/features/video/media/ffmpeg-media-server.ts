import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { every } from '../../../jobs/timers.js';
import { hlsArguments, PLAYLIST, playlistHasSegment, SEGMENT_PATTERN } from './ffmpeg-args.js';
import { MediaUnavailableError } from './media-error.js';
import type { MediaReceiver, MediaServer, StreamKind } from './media-server.js';
import { detectContainer, parseRtp } from './rtp.js';

/** Where the console loads a built-in stream's HLS from (media.routes.ts serves it). */
export const MEDIA_URL_PREFIX = '/api/v1/qvs/media';
/** Bytes queued for one ffmpeg before packets are dropped (several seconds of a 2 Mbit/s camera). */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;
/** Stream ids name folders and URLs: nothing else gets through. */
export const STREAM_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface MediaLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface FfmpegMediaServerOptions {
  /** Streams are written under DATA_DIR/video/<streamId>/. */
  dataDir: string;
  /** The address cameras send RTP to (the SDP's c= line). */
  rtpIp: string;
  /** Where the RTP sockets listen (default every interface). */
  bindHost?: string;
  ffmpegPath: string;
  /** A stream no viewer has fetched anything of for this long is closed and onIdle called (the SIP side sends BYE). */
  idleMs: number;
  onIdle?: (streamId: string) => void;
  log?: MediaLog;
}

/** The built-in adapter, plus what its HLS route needs. */
export interface FfmpegMediaServer extends MediaServer {
  readonly name: 'builtin';
  /** The path of a stream's playlist or segment, or undefined (unknown stream, other name); counts as a viewer. */
  fileOf(streamId: string, file: string): string | undefined;
}

interface Stream {
  receiver: MediaReceiver;
  kind: StreamKind;
  dir: string;
  socket: Socket;
  child?: ChildProcess;
  /** The first SSRC heard; packets of another are strays (a previous session's camera still sending). */
  ssrc?: number;
  lastViewedAt: number;
  /** Why ffmpeg stopped by itself (its last error lines). */
  failure?: string;
}

let ffmpegCheck: { path: string; result: Promise<boolean> } | undefined;

/** Whether `ffmpeg -version` runs (asked once per path). */
export function ffmpegAvailable(path: string): Promise<boolean> {
  if (ffmpegCheck?.path !== path) {
    const result = new Promise<boolean>((resolve) => {
      const child = spawn(path, ['-hide_banner', '-version'], { stdio: 'ignore' });
      child.once('error', () => resolve(false));
      child.once('exit', (code) => resolve(code === 0));
    });
    ffmpegCheck = { path, result };
  }
  return ffmpegCheck.result;
}

/** GB28181's y= value: 0 (live) or 1 (playback), then 9 digits. */
export function newSsrc(kind: StreamKind): string {
  return `${kind === 'live' ? 0 : 1}${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
}

/**
 * The built-in media adapter (issue 23): a UDP socket per stream takes the camera's RTP, strips the headers and
 * pipes the MPEG-TS (or MPEG-PS) inside to ffmpeg, which copies the H.264 into 1-second HLS segments under
 * DATA_DIR/video/<streamId>/. Nothing is re-encoded. For many cameras or PS-only cameras in production,
 * ZLMediaKit (zlmediakit-media-server.ts) is the one to use (docs/decisions.md).
 */
export function createFfmpegMediaServer(options: FfmpegMediaServerOptions): FfmpegMediaServer {
  const root = join(options.dataDir, 'video');
  const streams = new Map<string, Stream>();
  let cleared: Promise<void> | undefined;
  const stopSweep = every(Math.min(15_000, Math.max(1000, Math.floor(options.idleMs / 4))), () => void closeIdle());

  async function closeIdle(): Promise<void> {
    const now = Date.now();
    for (const [streamId, stream] of streams) {
      if (now - stream.lastViewedAt < options.idleMs) continue;
      options.log?.info({ streamId }, 'video stream stopped: no viewer');
      await close(streamId);
      options.onIdle?.(streamId);
    }
  }

  function startFfmpeg(streamId: string, stream: Stream, container: 'mpegts' | 'mpeg-ps'): ChildProcess {
    const child = spawn(options.ffmpegPath, hlsArguments({ container, dir: stream.dir }), { stdio: ['pipe', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString('utf8')).slice(-2000);
    });
    // A pipe closed under a dying ffmpeg is not this process's problem.
    child.stdin?.on('error', () => undefined);
    child.once('error', (error) => {
      stream.failure = error.message;
    });
    child.once('exit', (code, signal) => {
      if (streams.get(streamId) !== stream) return;
      stream.failure = errors.trim() || `ffmpeg exited (${signal ?? code})`;
      options.log?.warn({ streamId, code, signal, errors: errors.trim().slice(-500) }, 'video stream: ffmpeg stopped');
    });
    return child;
  }

  async function open(streamId: string, kind: StreamKind): Promise<MediaReceiver> {
    if (!STREAM_ID_PATTERN.test(streamId)) throw new Error(`invalid stream id ${streamId}`);
    const existing = streams.get(streamId);
    if (existing) return existing.receiver;
    if (!(await ffmpegAvailable(options.ffmpegPath)))
      throw new MediaUnavailableError('ffmpeg-missing', `video needs ffmpeg on the server (${options.ffmpegPath} did not run)`);
    // Streams do not survive a restart: what an earlier process left is removed once.
    cleared ??= rm(root, { recursive: true, force: true });
    await cleared;
    const dir = join(root, streamId);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, options.bindHost ?? '0.0.0.0', () => {
        socket.off('error', reject);
        resolve();
      });
    });
    const receiver: MediaReceiver = { streamId, ip: options.rtpIp, port: socket.address().port, ssrc: newSsrc(kind) };
    const stream: Stream = { receiver, kind, dir, socket, lastViewedAt: Date.now() };
    socket.on('error', (error) => options.log?.warn({ streamId, error: error.message }, 'video stream: RTP socket error'));
    socket.on('message', (message) => {
      const packet = parseRtp(message);
      if (!packet || stream.failure) return;
      stream.ssrc ??= packet.ssrc;
      if (packet.ssrc !== stream.ssrc) return;
      if (!stream.child) {
        const container = detectContainer(packet);
        if (!container) return;
        stream.child = startFfmpeg(streamId, stream, container);
      }
      // UDP has no flow control: when ffmpeg falls behind by several seconds of video, packets are dropped rather than
      // buffered without bound (the decoder resynchronises at the next keyframe).
      const stdin = stream.child.stdin;
      if (stdin && stdin.writableLength < MAX_PENDING_BYTES) stdin.write(packet.payload);
    });
    streams.set(streamId, stream);
    return receiver;
  }

  async function close(streamId: string): Promise<void> {
    const stream = streams.get(streamId);
    if (!stream) return;
    streams.delete(streamId);
    stream.socket.close();
    const child = stream.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin?.end();
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(force);
    }
    await rm(stream.dir, { recursive: true, force: true });
  }

  return {
    name: 'builtin',
    openReceiver: open,
    playUrl: (streamId) => `${MEDIA_URL_PREFIX}/${encodeURIComponent(streamId)}/${PLAYLIST}`,
    async isReady(streamId) {
      const stream = streams.get(streamId);
      if (!stream) return false;
      const text = await readFile(join(stream.dir, PLAYLIST), 'utf8').catch(() => '');
      return playlistHasSegment(text);
    },
    close,
    async closeAll() {
      stopSweep();
      await Promise.all([...streams.keys()].map((id) => close(id)));
    },
    fileOf(streamId, file) {
      const stream = streams.get(streamId);
      if (!stream || (file !== PLAYLIST && !SEGMENT_PATTERN.test(file))) return undefined;
      stream.lastViewedAt = Date.now();
      return join(stream.dir, file);
    },
  };
}
