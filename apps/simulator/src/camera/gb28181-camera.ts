import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { buildAnswer, parseOffer } from './sdp.js';
import { senderArguments } from './sender-args.js';
import {
  digestAuthorization,
  header,
  newBranch,
  newTag,
  parseChallenge,
  parseSip,
  respond,
  type SipMessage,
  serialize,
  sipUser,
  xmlText,
} from './sip.js';

export interface CameraChannel {
  gbId: string;
  name: string;
}

export interface SimulatedCameraOptions {
  /** The platform's SIP server (what one types into the camera). */
  serverHost: string;
  serverPort: number;
  serverId: string;
  domain: string;
  /** The camera's SIP ID and password (as added in the console). */
  deviceId: string;
  password: string;
  channels: CameraChannel[];
  keepaliveSeconds?: number;
  expiresSeconds?: number;
  /** The address the camera binds and names in its Contact and SDP. */
  localIp?: string;
  ffmpegPath?: string;
  log?: (line: string) => void;
  /** Every datagram in (<) and out (>), for debugging a platform. */
  trace?: (direction: '<' | '>', text: string) => void;
}

export interface SimulatedCamera {
  /** Registers (answering the digest challenge); resolves once the platform said 200, rejects on a refusal. */
  start(): Promise<void>;
  /** Unregisters (Expires: 0), stops every stream and closes the socket. */
  stop(): Promise<void>;
  readonly registered: boolean;
  /** Streams being sent now (Call-ID → where). */
  readonly streams: ReadonlyMap<string, { ip: string; port: number; kind: 'live' | 'playback'; channelId: string }>;
}

interface Pending {
  resolve(message: SipMessage): void;
}

/**
 * A GB28181 camera (or small NVR with several channels) over UDP SIP, for the demo and the tests: REGISTER with
 * digest authentication, a Keepalive MESSAGE every keepaliveSeconds, answers to Catalog and DeviceInfo queries,
 * and INVITE → 200 with its SDP → (ACK) ffmpeg sending the test picture as MPEG-TS over RTP to the offer's
 * address → BYE stops it.
 */
export function createSimulatedCamera(options: SimulatedCameraOptions): SimulatedCamera {
  const localIp = options.localIp ?? '127.0.0.1';
  const keepaliveMs = (options.keepaliveSeconds ?? 60) * 1000;
  const expires = options.expiresSeconds ?? 3600;
  const log = options.log ?? (() => undefined);
  const socket: Socket = createSocket('udp4');
  const fromTag = newTag();
  const registerCallId = `${randomBytes(8).toString('hex')}@${localIp}`;
  const pending = new Map<string, Pending>();
  const streams = new Map<
    string,
    { ip: string; port: number; kind: 'live' | 'playback'; channelId: string; child?: ChildProcess; answer: string }
  >();
  let cseq = 0;
  let sn = 0;
  let registered = false;
  let keepalive: NodeJS.Timeout | undefined;
  let reRegister: NodeJS.Timeout | undefined;
  let localPort = 0;
  const serverUri = `sip:${options.serverId}@${options.domain}`;
  const self = `<sip:${options.deviceId}@${options.domain}>`;

  const send = (text: string) => new Promise<void>((resolve) => socket.send(text, options.serverPort, options.serverHost, () => resolve()));

  /** Sends a request and waits for its final answer (by Call-ID and CSeq). */
  function request(method: string, callId: string, extra: [string, string][], body = '', timeoutMs = 5000): Promise<SipMessage> {
    cseq += 1;
    const key = `${callId} ${cseq}`;
    const text = serialize(
      `${method} ${serverUri} SIP/2.0`,
      [
        ['Via', `SIP/2.0/UDP ${localIp}:${localPort};rport;branch=${newBranch()}`],
        ['From', `${self};tag=${fromTag}`],
        ['To', method === 'REGISTER' ? self : `<${serverUri}>`],
        ['Call-ID', callId],
        ['CSeq', `${cseq} ${method}`],
        ['Max-Forwards', '70'],
        ['User-Agent', 'Sunward simulated camera'],
        ...extra,
      ],
      body,
    );
    return new Promise<SipMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(key);
        reject(new Error(`${method}: no answer from ${options.serverHost}:${options.serverPort}`));
      }, timeoutMs);
      pending.set(key, {
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      });
      void send(text);
    });
  }

  async function register(expiresNow: number): Promise<void> {
    const contact: [string, string] = ['Contact', `<sip:${options.deviceId}@${localIp}:${localPort}>`];
    const expiry: [string, string] = ['Expires', String(expiresNow)];
    let answer = await request('REGISTER', registerCallId, [contact, expiry]);
    if (answer.status === 401 || answer.status === 407) {
      const challenge = parseChallenge(header(answer, answer.status === 401 ? 'www-authenticate' : 'proxy-authenticate') ?? '');
      const authorization = digestAuthorization({
        challenge,
        username: options.deviceId,
        password: options.password,
        method: 'REGISTER',
        uri: serverUri,
      });
      answer = await request('REGISTER', registerCallId, [
        contact,
        expiry,
        [answer.status === 401 ? 'Authorization' : 'Proxy-Authorization', authorization],
      ]);
    }
    if (answer.status !== 200) throw new Error(`REGISTER refused: ${answer.status} ${answer.reason ?? ''}`.trim());
  }

  const manscdp = (root: string, cmdType: string, inner: string) =>
    `<?xml version="1.0" encoding="GB2312"?>\r\n<${root}>\r\n<CmdType>${cmdType}</CmdType>\r\n<SN>${++sn}</SN>\r\n<DeviceID>${options.deviceId}</DeviceID>\r\n${inner}</${root}>\r\n`;

  const message = (body: string) =>
    request('MESSAGE', `${randomBytes(8).toString('hex')}@${localIp}`, [['Content-Type', 'Application/MANSCDP+xml']], body).catch(
      (error: Error) => log(`camera ${options.deviceId}: ${error.message}`),
    );

  function sendKeepalive(): void {
    void message(manscdp('Notify', 'Keepalive', '<Status>OK</Status>\r\n'));
  }

  function catalog(querySn: string | undefined): string {
    const items = options.channels
      .map(
        (c) =>
          `<Item>\r\n<DeviceID>${c.gbId}</DeviceID>\r\n<Name>${c.name}</Name>\r\n<Manufacturer>Sunward</Manufacturer>\r\n<Model>SIM-CAM</Model>\r\n<Owner>Owner</Owner>\r\n<CivilCode>${options.domain.slice(0, 6)}</CivilCode>\r\n<Address>Simulated</Address>\r\n<Parental>0</Parental>\r\n<ParentID>${options.deviceId}</ParentID>\r\n<SafetyWay>0</SafetyWay>\r\n<RegisterWay>1</RegisterWay>\r\n<Secrecy>0</Secrecy>\r\n<Status>ON</Status>\r\n</Item>\r\n`,
      )
      .join('');
    const body = manscdp(
      'Response',
      'Catalog',
      `<SumNum>${options.channels.length}</SumNum>\r\n<DeviceList Num="${options.channels.length}">\r\n${items}</DeviceList>\r\n`,
    );
    // The answer echoes the query's SN, as cameras do.
    return querySn ? body.replace(/<SN>\d+<\/SN>/, `<SN>${querySn}</SN>`) : body;
  }

  function deviceInfo(querySn: string | undefined): string {
    const body = manscdp(
      'Response',
      'DeviceInfo',
      `<Result>OK</Result>\r\n<DeviceName>Simulated camera</DeviceName>\r\n<Manufacturer>Sunward</Manufacturer>\r\n<Model>SIM-CAM</Model>\r\n<Firmware>1.0.0</Firmware>\r\n<Channel>${options.channels.length}</Channel>\r\n`,
    );
    return querySn ? body.replace(/<SN>\d+<\/SN>/, `<SN>${querySn}</SN>`) : body;
  }

  function stopStream(callId: string): void {
    const stream = streams.get(callId);
    if (!stream) return;
    streams.delete(callId);
    stream.child?.kill('SIGKILL');
    log(`camera ${options.deviceId}: stream ${stream.kind} of ${stream.channelId} stopped`);
  }

  function onRequest(msg: SipMessage, reply: (text: string) => void): void {
    const callId = header(msg, 'call-id') ?? '';
    const tag = newTag();
    switch (msg.method) {
      case 'MESSAGE': {
        reply(respond(msg, 200, 'OK', tag));
        const cmdType = xmlText(msg.body, 'CmdType');
        const querySn = xmlText(msg.body, 'SN');
        if (cmdType === 'Catalog') void message(catalog(querySn));
        else if (cmdType === 'DeviceInfo') void message(deviceInfo(querySn));
        return;
      }
      case 'INVITE': {
        const existing = streams.get(callId);
        if (existing) {
          reply(existing.answer);
          return;
        }
        const channelId = sipUser(msg.uri) ?? '';
        const offer = parseOffer(msg.body);
        if (!options.channels.some((c) => c.gbId === channelId) && channelId !== options.deviceId) {
          reply(respond(msg, 404, 'Not Found', tag));
          return;
        }
        if (!offer) {
          reply(respond(msg, 488, 'Not Acceptable Here', tag));
          return;
        }
        const answer = respond(
          msg,
          200,
          'OK',
          tag,
          [
            ['Contact', `<sip:${channelId}@${localIp}:${localPort}>`],
            ['Content-Type', 'application/sdp'],
          ],
          buildAnswer({ channelId, localIp, localPort: 15060, offer }),
        );
        streams.set(callId, { ip: offer.ip, port: offer.port, kind: offer.kind, channelId, answer });
        // ffmpeg starts at the ACK; the offer is kept with the stream until then.
        pendingOffers.set(callId, { ip: offer.ip, port: offer.port, ssrc: offer.ssrc ?? '0', kind: offer.kind });
        reply(answer);
        return;
      }
      case 'ACK': {
        const offer = pendingOffers.get(callId);
        const stream = streams.get(callId);
        pendingOffers.delete(callId);
        if (!offer || !stream || stream.child) return;
        const child = spawn(options.ffmpegPath ?? 'ffmpeg', senderArguments(offer), { stdio: ['ignore', 'ignore', 'pipe'] });
        child.stderr?.on('data', (chunk: Buffer) => log(`camera ${options.deviceId} ffmpeg: ${chunk.toString('utf8').trim()}`));
        child.once('error', (error) => log(`camera ${options.deviceId}: cannot run ffmpeg: ${error.message}`));
        stream.child = child;
        log(`camera ${options.deviceId}: ${offer.kind} of ${stream.channelId} → ${offer.ip}:${offer.port}`);
        return;
      }
      case 'BYE':
        stopStream(callId);
        reply(respond(msg, 200, 'OK', tag));
        return;
      case 'CANCEL':
        stopStream(callId);
        reply(respond(msg, 200, 'OK', tag));
        return;
      default:
        reply(respond(msg, 501, 'Not Implemented', tag));
        return;
    }
  }

  const pendingOffers = new Map<string, { ip: string; port: number; ssrc: string; kind: 'live' | 'playback' }>();

  socket.on('message', (data, remote) => {
    options.trace?.('<', data.toString('utf8'));
    const msg = parseSip(data.toString('utf8'));
    if (!msg) return;
    if (msg.status !== undefined) {
      if (msg.status < 200) return;
      const [number] = (header(msg, 'cseq') ?? '').split(' ');
      pending.get(`${header(msg, 'call-id')} ${number}`)?.resolve(msg);
      pending.delete(`${header(msg, 'call-id')} ${number}`);
      return;
    }
    onRequest(msg, (text) => {
      options.trace?.('>', text);
      socket.send(text, remote.port, remote.address);
    });
  });

  return {
    get registered() {
      return registered;
    },
    get streams() {
      return streams;
    },
    async start() {
      await new Promise<void>((resolve) => socket.bind(0, localIp, resolve));
      localPort = socket.address().port;
      await register(expires);
      registered = true;
      log(`camera ${options.deviceId}: registered at ${options.serverHost}:${options.serverPort}`);
      sendKeepalive();
      keepalive = setInterval(sendKeepalive, keepaliveMs);
      keepalive.unref();
      // Registration is renewed at half its validity, as cameras do.
      reRegister = setInterval(
        () => void register(expires).catch((error: Error) => log(`camera ${options.deviceId}: ${error.message}`)),
        (expires * 1000) / 2,
      );
      reRegister.unref();
    },
    async stop() {
      clearInterval(keepalive);
      clearInterval(reRegister);
      for (const callId of [...streams.keys()]) stopStream(callId);
      if (registered) await register(0).catch(() => undefined);
      registered = false;
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
