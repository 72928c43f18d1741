import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { senderArguments } from '@sunward/simulator/camera/sender-args';
import { afterAll, describe, expect, it } from 'vitest';
import { hlsArguments, playlistHasSegment } from './ffmpeg-args.js';
import { createFfmpegMediaServer, ffmpegAvailable, newSsrc } from './ffmpeg-media-server.js';
import { MediaUnavailableError } from './media-error.js';

const hasFfmpeg = await ffmpegAvailable('ffmpeg');
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'media-'));
  dirs.push(dir);
  return dir;
}

describe('ffmpeg arguments', () => {
  it('copies the H.264 of an MPEG-TS or MPEG-PS pipe into 1-second rolling HLS segments', () => {
    const ts = hlsArguments({ container: 'mpegts', dir: '/d/s1' });
    expect(ts.slice(ts.indexOf('-f'), ts.indexOf('-f') + 4)).toEqual(['-f', 'mpegts', '-i', 'pipe:0']);
    expect(ts).toContain('copy');
    expect(ts[ts.indexOf('-hls_time') + 1]).toBe('1');
    expect(ts[ts.indexOf('-hls_flags') + 1]).toContain('delete_segments');
    expect(ts.at(-1)).toBe('/d/s1/index.m3u8');
    expect(hlsArguments({ container: 'mpeg-ps', dir: '/d' })).toContain('mpeg');
  });

  it('tells a playlist with a segment from one without', () => {
    expect(playlistHasSegment('#EXTM3U\n#EXT-X-VERSION:3\n')).toBe(false);
    expect(playlistHasSegment('#EXTM3U\n#EXTINF:1.0,\nseg00000.ts\n')).toBe(true);
  });

  it('makes GB28181 SSRCs: 0 and 9 digits for live, 1 and 9 digits for playback', () => {
    expect(newSsrc('live')).toMatch(/^0\d{9}$/);
    expect(newSsrc('playback')).toMatch(/^1\d{9}$/);
  });
});

describe('the built-in media server', () => {
  it('says ffmpeg is missing in a clear error', async () => {
    const media = createFfmpegMediaServer({
      dataDir: await tempDir(),
      rtpIp: '127.0.0.1',
      ffmpegPath: '/nonexistent/ffmpeg',
      idleMs: 60_000,
    });
    const error = await media.openReceiver('s1', 'live').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaUnavailableError);
    expect((error as MediaUnavailableError).reason).toBe('ffmpeg-missing');
    expect((error as Error).message).toContain('video needs ffmpeg on the server');
  });

  it.skipIf(!hasFfmpeg)(
    'turns a camera-like RTP stream into HLS, stops when nobody watches, and cleans up',
    async () => {
      const dataDir = await tempDir();
      const idled: string[] = [];
      const media = createFfmpegMediaServer({
        dataDir,
        rtpIp: '127.0.0.1',
        ffmpegPath: 'ffmpeg',
        idleMs: 60_000,
        onIdle: (id) => idled.push(id),
      });
      const receiver = await media.openReceiver('live-1', 'live');
      expect(receiver).toMatchObject({ streamId: 'live-1', ip: '127.0.0.1' });
      expect(media.playUrl('live-1')).toBe('/api/v1/qvs/media/live-1/index.m3u8');
      const camera = spawn('ffmpeg', senderArguments({ ...receiver, kind: 'live' }), { stdio: 'ignore' });
      try {
        await expect.poll(() => media.isReady('live-1'), { timeout: 20_000, interval: 200 }).toBe(true);
        const playlist = media.fileOf('live-1', 'index.m3u8');
        expect(playlist).toBeDefined();
        expect(await readFile(playlist ?? '', 'utf8')).toContain('#EXTINF');
        expect(media.fileOf('live-1', '../../etc/passwd')).toBeUndefined();
        expect(media.fileOf('other', 'index.m3u8')).toBeUndefined();
      } finally {
        camera.kill('SIGKILL');
      }
      await media.close('live-1');
      expect(existsSync(join(dataDir, 'video', 'live-1'))).toBe(false);
      expect(await media.isReady('live-1')).toBe(false);
      await media.closeAll();
    },
    30_000,
  );

  it.skipIf(!hasFfmpeg)('closes a stream no viewer fetched for the idle time and says so', async () => {
    const idled: string[] = [];
    const media = createFfmpegMediaServer({
      dataDir: await tempDir(),
      rtpIp: '127.0.0.1',
      ffmpegPath: 'ffmpeg',
      idleMs: 300,
      onIdle: (id) => idled.push(id),
    });
    await media.openReceiver('idle-1', 'playback');
    await expect.poll(() => idled, { timeout: 5000, interval: 100 }).toEqual(['idle-1']);
    expect(media.fileOf('idle-1', 'index.m3u8')).toBeUndefined();
    await media.closeAll();
  });
});
