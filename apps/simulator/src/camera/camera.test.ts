import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { playCameras } from './camera-fleet.js';
import { createSimulatedCamera } from './gb28181-camera.js';
import { buildAnswer, parseOffer } from './sdp.js';
import { senderArguments } from './sender-args.js';
import { digestAuthorization, parseChallenge, parseSip, respond, serialize, xmlText } from './sip.js';

describe('SIP pieces', () => {
  it('answers a digest challenge as RFC 2617 does (qop=auth)', () => {
    const challenge = parseChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    const value = digestAuthorization({
      challenge,
      username: 'Mufasa',
      password: 'Circle Of Life',
      method: 'GET',
      uri: '/dir/index.html',
      cnonce: '0a4f113b',
    });
    expect(value).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(value).toContain('opaque="5ccc069c403ebaf9f0171e9517f40e41"');
  });

  it('parses a request with compact headers and answers it with the dialogue headers copied', () => {
    const text = serialize(
      'MESSAGE sip:3402@3402000000 SIP/2.0',
      [
        ['v', 'SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1'],
        ['f', '<sip:1@d>;tag=a'],
        ['t', '<sip:2@d>'],
        ['i', 'call-1'],
        ['CSeq', '20 MESSAGE'],
      ],
      '<Query><CmdType>Catalog</CmdType><SN>7</SN></Query>',
    );
    const msg = parseSip(text);
    expect(msg?.method).toBe('MESSAGE');
    expect(xmlText(msg?.body ?? '', 'SN')).toBe('7');
    const answer = parseSip(respond(msg ?? expect.fail(), 200, 'OK', 'xyz'));
    expect(answer?.status).toBe(200);
    expect(answer?.headers.get('to')).toEqual(['<sip:2@d>;tag=xyz']);
    expect(answer?.headers.get('cseq')).toEqual(['20 MESSAGE']);
  });

  it('reads a GB28181 offer (c=, m=, y=, s=Playback with its range) and answers with MPEG-TS', () => {
    const offer = parseOffer(
      'v=0\r\no=34020000002000000001 0 0 IN IP4 192.168.1.10\r\ns=Playback\r\nu=34020000001320000001:0\r\nc=IN IP4 192.168.1.10\r\nt=1700000000 1700003600\r\nm=video 30002 RTP/AVP 96 33 98\r\na=recvonly\r\na=rtpmap:96 PS/90000\r\ny=1100000001\r\n',
    );
    expect(offer).toEqual({
      ip: '192.168.1.10',
      port: 30002,
      payloadTypes: [96, 33, 98],
      ssrc: '1100000001',
      kind: 'playback',
      start: 1700000000,
      end: 1700003600,
    });
    const answer = buildAnswer({
      channelId: '34020000001320000001',
      localIp: '127.0.0.1',
      localPort: 15060,
      offer: offer ?? expect.fail(),
    });
    expect(answer).toContain('m=video 15060 RTP/AVP 33');
    expect(answer).toContain('y=1100000001');
    expect(parseOffer('v=0\r\ns=Play\r\nm=video 0 RTP/AVP 96\r\n')).toBeUndefined();
  });

  it('sends H.264 with a keyframe every second as MPEG-TS over RTP with the asked SSRC', () => {
    const args = senderArguments({ ip: '10.1.2.3', port: 30000, ssrc: '0100000002', kind: 'live' });
    expect(args).toEqual(expect.arrayContaining(['libx264', 'ultrafast', 'zerolatency', 'rtp_mpegts', 'ssrc=100000002']));
    expect(args[args.indexOf('-g') + 1]).toBe('25');
    expect(args.at(-1)).toBe('rtp://10.1.2.3:30000?pkt_size=1328');
  });
});

/** A platform that challenges, checks the digest, queries the catalog and invites: enough to drive the camera. */
async function fakePlatform(password: string) {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const heard: string[] = [];
  let camera: { port: number; address: string } | undefined;
  const md5 = (t: string) => createHash('md5').update(t).digest('hex');
  socket.on('message', (data, remote) => {
    const msg = parseSip(data.toString());
    if (!msg) return;
    const reply = (text: string) => socket.send(text, remote.port, remote.address);
    if (msg.method === 'REGISTER') {
      const auth = msg.headers.get('authorization')?.[0];
      if (!auth)
        return reply(
          respond(msg, 401, 'Unauthorized', 't', [['WWW-Authenticate', 'Digest realm="3402000000", nonce="n1", algorithm=MD5']]),
        );
      const p = parseChallenge(auth);
      const ok = p.response === md5(`${md5(`${p.username}:3402000000:${password}`)}:n1:${md5(`REGISTER:${p.uri}`)}`);
      heard.push(ok ? `REGISTER ${msg.headers.get('expires')?.[0]}` : 'REGISTER wrong');
      camera = { port: remote.port, address: remote.address };
      return reply(respond(msg, ok ? 200 : 403, ok ? 'OK' : 'Forbidden', 't'));
    }
    if (msg.method === 'MESSAGE') {
      heard.push(`${xmlText(msg.body, 'CmdType')} ${xmlText(msg.body, 'SumNum') ?? ''}`.trim());
      return reply(respond(msg, 200, 'OK', 't'));
    }
    if (msg.status) heard.push(`${msg.status} ${msg.headers.get('cseq')?.[0]}`);
  });
  const toCamera = (text: string) => socket.send(text, camera?.port ?? 0, camera?.address ?? '127.0.0.1');
  return { socket, heard, toCamera, port: () => socket.address().port };
}

describe('the simulated camera', () => {
  it('registers with its digest, keeps alive, answers a catalog query and an INVITE, stops on BYE, unregisters', async () => {
    const platform = await fakePlatform('Camera123');
    const camera = createSimulatedCamera({
      serverHost: '127.0.0.1',
      serverPort: platform.port(),
      serverId: '34020000002000000001',
      domain: '3402000000',
      deviceId: '34020000001320000001',
      password: 'Camera123',
      channels: [{ gbId: '34020000001310000001', name: 'Gate' }],
      keepaliveSeconds: 1,
      ffmpegPath: '/nonexistent/ffmpeg',
    });
    await camera.start();
    expect(camera.registered).toBe(true);
    await expect.poll(() => platform.heard.filter((h) => h === 'Keepalive').length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    const dialog: [string, string][] = [
      ['Via', `SIP/2.0/UDP 127.0.0.1:${platform.port()};branch=z9hG4bKq`],
      ['From', '<sip:34020000002000000001@3402000000>;tag=p'],
      ['To', '<sip:34020000001320000001@3402000000>'],
    ];
    platform.toCamera(
      serialize(
        'MESSAGE sip:34020000001320000001@3402000000 SIP/2.0',
        [...dialog, ['Call-ID', 'q1'], ['CSeq', '1 MESSAGE']],
        '<Query><CmdType>Catalog</CmdType><SN>9</SN><DeviceID>34020000001320000001</DeviceID></Query>',
      ),
    );
    await expect.poll(() => platform.heard).toContain('Catalog 1');
    const sdp =
      'v=0\r\no=x 0 0 IN IP4 127.0.0.1\r\ns=Play\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=video 40000 RTP/AVP 96 33\r\ny=0100000001\r\n';
    platform.toCamera(
      serialize(
        'INVITE sip:34020000001310000001@3402000000 SIP/2.0',
        [...dialog, ['Call-ID', 'inv1'], ['CSeq', '1 INVITE'], ['Content-Type', 'application/sdp']],
        sdp,
      ),
    );
    await expect.poll(() => platform.heard).toContain('200 1 INVITE');
    platform.toCamera(serialize('ACK sip:34020000001310000001@3402000000 SIP/2.0', [...dialog, ['Call-ID', 'inv1'], ['CSeq', '1 ACK']]));
    await expect.poll(() => camera.streams.get('inv1')).toMatchObject({ ip: '127.0.0.1', port: 40000, kind: 'live' });
    platform.toCamera(serialize('BYE sip:34020000001310000001@3402000000 SIP/2.0', [...dialog, ['Call-ID', 'inv1'], ['CSeq', '2 BYE']]));
    await expect.poll(() => camera.streams.size).toBe(0);
    await camera.stop();
    expect(platform.heard).toContain('REGISTER 0');
    platform.socket.close();
  });

  it('fails to start with a wrong password', async () => {
    const platform = await fakePlatform('Camera123');
    const camera = createSimulatedCamera({
      serverHost: '127.0.0.1',
      serverPort: platform.port(),
      serverId: '34020000002000000001',
      domain: '3402000000',
      deviceId: '34020000001320000002',
      password: 'Wrong1234',
      channels: [],
    });
    await expect(camera.start()).rejects.toThrow('REGISTER refused: 403');
    await camera.stop();
    platform.socket.close();
  });

  it('plays the cameras of a --cameras file and unregisters them at stop', async () => {
    const platform = await fakePlatform('Camera123');
    const lines: string[] = [];
    const fleet = playCameras(
      {
        sip: { host: '127.0.0.1', port: platform.port(), serverId: '34020000002000000001', domain: '3402000000' },
        cameras: [{ sipId: '34020000001320000003', password: 'Camera123', channels: [{ gbId: '34020000001310000003', name: 'Roof' }] }],
      },
      (line) => lines.push(line),
    );
    await expect.poll(() => lines).toContain('Simulated camera 34020000001320000003 registered (1 channels)');
    await fleet.stop();
    expect(platform.heard).toContain('REGISTER 0');
    platform.socket.close();
  });
});
