import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaUnavailableError } from './media-error.js';
import { createZlmMediaServer } from './zlmediakit-media-server.js';

/** A stand-in for ZLMediaKit's HTTP API: the three calls the adapter makes, refused without the secret. */
const calls: { api: string; params: Record<string, string> }[] = [];
const rtpServers = new Map<string, number>();
const published = new Set<string>();
const readers = new Map<string, number>();
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const parsed = new URL(request.url ?? '/', 'http://zlm');
    const api = parsed.pathname.replace('/index/api/', '');
    const params = Object.fromEntries(parsed.searchParams);
    calls.push({ api, params });
    const answer = (body: object) => response.setHeader('content-type', 'application/json').end(JSON.stringify(body));
    if (params.secret !== 'zlm-secret') return answer({ code: -100, msg: 'secret错误' });
    const stream = params.stream_id ?? params.stream ?? '';
    if (api === 'openRtpServer') {
      if (rtpServers.has(stream)) return answer({ code: -300, msg: 'This stream already exists' });
      rtpServers.set(stream, 30_000 + rtpServers.size);
      return answer({ code: 0, port: rtpServers.get(stream) });
    }
    if (api === 'closeRtpServer') return answer({ code: 0, hit: rtpServers.delete(stream) ? 1 : 0 });
    if (api === 'getMediaList')
      return answer({
        code: 0,
        data: published.has(stream)
          ? ['rtsp', 'hls'].map((schema) => ({
              app: 'rtp',
              stream,
              schema,
              vhost: '__defaultVhost__',
              totalReaderCount: readers.get(stream) ?? 0,
            }))
          : [],
      });
    return answer({ code: -400, msg: 'api not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the ZLMediaKit adapter', () => {
  it('opens an RTP server per stream with the secret, plays its HLS, knows when it is published, and closes it', async () => {
    const media = createZlmMediaServer({
      url,
      secret: 'zlm-secret',
      playUrl: 'https://media.example.com',
      rtpIp: '10.0.0.5',
      idleMs: 60_000,
    });
    const receiver = await media.openReceiver('cam-1', 'live');
    expect(receiver).toMatchObject({ streamId: 'cam-1', ip: '10.0.0.5', port: 30_000 });
    expect(receiver.ssrc).toMatch(/^0\d{9}$/);
    const open = calls.find((c) => c.api === 'openRtpServer');
    expect(open?.params).toMatchObject({ secret: 'zlm-secret', stream_id: 'cam-1', port: '0', tcp_mode: '0' });
    expect(Number(open?.params.ssrc)).toBe(Number(receiver.ssrc));
    // Opening the same stream again is the same receiver, not a second RTP server.
    expect(await media.openReceiver('cam-1', 'live')).toEqual(receiver);
    expect(media.playUrl('cam-1')).toBe('https://media.example.com/rtp/cam-1/hls.m3u8');
    expect(await media.isReady('cam-1')).toBe(false);
    published.add('cam-1');
    expect(await media.isReady('cam-1')).toBe(true);
    await media.close('cam-1');
    expect(rtpServers.has('cam-1')).toBe(false);
    expect(await media.isReady('cam-1')).toBe(false);
    await media.close('cam-1');
    await media.closeAll();
  });

  it('says why when ZLMediaKit refuses (wrong secret) or does not answer', async () => {
    const wrong = createZlmMediaServer({ url, secret: 'nope', playUrl: url, rtpIp: '127.0.0.1', idleMs: 60_000 });
    const refused = await wrong.openReceiver('cam-2', 'live').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MediaUnavailableError);
    expect((refused as MediaUnavailableError).reason).toBe('media-server-refused');
    expect((refused as Error).message).toContain('-100');
    const down = createZlmMediaServer({
      url: 'http://127.0.0.1:1',
      secret: 'x',
      playUrl: url,
      rtpIp: '127.0.0.1',
      idleMs: 60_000,
      timeoutMs: 1000,
    });
    const unreachable = await down.openReceiver('cam-2', 'live').catch((e: unknown) => e);
    expect((unreachable as MediaUnavailableError).reason).toBe('media-server-unreachable');
    await Promise.all([wrong.closeAll(), down.closeAll()]);
  });

  it('keeps a watched stream and closes one nobody watches for the idle time', async () => {
    const idled: string[] = [];
    const media = createZlmMediaServer({
      url,
      secret: 'zlm-secret',
      playUrl: url,
      rtpIp: '127.0.0.1',
      idleMs: 400,
      pollMs: 100,
      onIdle: (id) => idled.push(id),
    });
    await media.openReceiver('watched', 'live');
    await media.openReceiver('unwatched', 'playback');
    published.add('watched');
    readers.set('watched', 2);
    await expect.poll(() => idled, { timeout: 5000, interval: 100 }).toEqual(['unwatched']);
    expect(rtpServers.has('unwatched')).toBe(false);
    expect(rtpServers.has('watched')).toBe(true);
    await media.closeAll();
    expect(rtpServers.has('watched')).toBe(false);
  });
});
