import { randomBytes } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { every } from '../../../jobs/timers.js';
import type { MediaReceiver } from '../media/media-server.js';
import { challenge, createNonces, type Nonces, parseAuthorization, verifyDigest } from './digest.js';
import { type CatalogItem, catalogQuery, MANSCDP_CONTENT_TYPE, parseManscdp } from './manscdp.js';
import { inviteSdp } from './sdp.js';
import {
  header,
  parseNameAddr,
  parseSip,
  parseVia,
  responseTo,
  type SipRequest,
  type SipResponse,
  serializeSip,
  sipHeaders,
} from './sip-message.js';

/**
 * The GB28181 SIP server on UDP (issue 23 part 2, docs/video.md): cameras REGISTER with digest authentication,
 * send MESSAGE Keepalive and Catalog answers; the platform sends Catalog queries and INVITE/ACK/BYE for live
 * video and playback. What a camera is (its password, whether it may register) and what becomes of its state is
 * the `CameraDirectory`'s (the video service, over the database); this module holds only SIP. Every datagram is
 * handled inside a catch: no input stops the server (sip-server.fuzz.test.ts).
 */
export interface CameraDirectory {
  /** The camera's digest password and whether it may register now (enabled, its space active); undefined: unknown. */
  credentials(sipId: string): Promise<{ password: string; allowed: boolean } | undefined>;
  registered(sipId: string, remote: string, expiresSeconds: number): Promise<void>;
  unregistered(sipId: string): Promise<void>;
  /** A keepalive from `remote`: false when the camera is not registered (it should REGISTER again). */
  keepalive(sipId: string, remote: string): Promise<boolean>;
  /** A complete catalog answer: the camera's channels, to store in place of the old ones. */
  channels(sipId: string, items: CatalogItem[]): Promise<void>;
  /** Where a registered camera was last seen (after a restart, before it registers again), as ip:port. */
  address(sipId: string): Promise<string | undefined>;
  /** The camera ended a stream (BYE from its side). */
  streamEnded(streamId: string): void;
}

/** The secret throttle (features/auth/secret-throttle.ts) as the SIP side asks it. */
export type SecretCheck = (sipId: string, ip: string, verify: () => Promise<boolean>) => Promise<'right' | 'wrong' | 'locked'>;

export interface SipServerOptions {
  port: number;
  /** Bind address (default all). */
  host?: string;
  serverId: string;
  domain: string;
  /** The address cameras reach this server at (Via, Contact). */
  localIp: string;
  directory: CameraDirectory;
  checkSecret: SecretCheck;
  /** How long a camera has to answer a request (INVITE, MESSAGE) before it counts as no answer. */
  answerTimeoutMs?: number;
  /** Registration validity granted at most (and when the camera asks none). */
  maxExpiresSeconds?: number;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  now?: () => number;
}

export class SipNoAnswerError extends Error {}
export class SipRefusedError extends Error {
  constructor(readonly status: number) {
    super(`refused with ${status}`);
  }
}
export class SipNotRegisteredError extends Error {}

interface ClientTransaction {
  resolve(response: SipResponse): void;
  reject(error: Error): void;
  onProvisional(): void;
}

interface Dialog {
  sipId: string;
  callId: string;
  fromTag: string;
  toTag: string;
  requestUri: string;
  to: string;
  remote: { address: string; port: number };
  cseq: number;
}

interface PendingCatalog {
  sn: string;
  sumNum: number;
  items: Map<string, CatalogItem>;
  waiters: Array<(items: CatalogItem[] | undefined) => void>;
  timer: NodeJS.Timeout;
}

/** A per-address token bucket. */
interface Bucket {
  tokens: number;
  at: number;
}

/** REGISTER per source address: a burst of 10, then one every 2 s; every request: 60, then 20/s. */
export const SIP_RATE = { register: { burst: 10, perSecond: 0.5 }, any: { burst: 60, perSecond: 20 } } as const;
const BUCKETS_MAX = 10_000;
const SERVER_TX_MAX = 5_000;
const SERVER_TX_MS = 32_000;

const token = (bytes = 8) => randomBytes(bytes).toString('hex');

export function createSipServer(options: SipServerOptions) {
  const { directory, serverId, domain } = options;
  const now = options.now ?? Date.now;
  const answerTimeoutMs = options.answerTimeoutMs ?? 8_000;
  const maxExpires = options.maxExpiresSeconds ?? 3600;
  const nonces: Nonces = createNonces(undefined, now);
  let socket: Socket | undefined;
  let boundPort = 0;
  let snCounter = Math.floor(Math.random() * 100_000);

  const addresses = new Map<string, { address: string; port: number }>();
  const clientTx = new Map<string, ClientTransaction>();
  /** Answers already sent, by branch and method: a retransmitted request gets the same answer. */
  const serverTx = new Map<string, { answer: Buffer | undefined; at: number }>();
  const dialogs = new Map<string, Dialog>();
  const catalogs = new Map<string, PendingCatalog>();
  const buckets = { register: new Map<string, Bucket>(), any: new Map<string, Bucket>() };
  const stats = { received: 0, malformed: 0, limited: 0, errors: 0 };

  function allow(kind: 'register' | 'any', ip: string): boolean {
    const map = buckets[kind];
    const rate = SIP_RATE[kind];
    const t = now();
    if (map.size > BUCKETS_MAX) map.clear();
    const bucket = map.get(ip) ?? { tokens: rate.burst, at: t };
    bucket.tokens = Math.min(rate.burst, bucket.tokens + ((t - bucket.at) / 1000) * rate.perSecond);
    bucket.at = t;
    map.set(ip, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  function send(buffer: Buffer, remote: { address: string; port: number }): void {
    socket?.send(buffer, remote.port, remote.address, (error) => {
      if (error) options.log?.warn({ err: error, remote: `${remote.address}:${remote.port}` }, 'SIP send failed');
    });
  }

  function via(branch: string): string {
    return `SIP/2.0/UDP ${options.localIp}:${boundPort};rport;branch=${branch}`;
  }

  /** A response goes to the request's source: the Via's received/rport rules (RFC 3581) reduce to that for UDP. */
  function reply(rinfo: RemoteInfo, response: SipResponse, txKey: string | undefined): void {
    const buffer = serializeSip(response);
    if (txKey && response.status >= 200) serverTx.set(txKey, { answer: buffer, at: now() });
    send(buffer, { address: rinfo.address, port: rinfo.port });
  }

  function answer(
    request: SipRequest,
    rinfo: RemoteInfo,
    txKey: string | undefined,
    status: number,
    reason: string,
    extra: { headers?: ReadonlyArray<readonly [string, string]>; body?: Buffer; contentType?: string } = {},
  ): void {
    reply(rinfo, responseTo(request, status, reason, { source: rinfo, toTag: token(4), ...extra }), txKey);
  }

  /** GB28181 asks for the server's time in the REGISTER answer (cameras set their clocks by it). */
  const sipDate = () => new Date(now()).toISOString().slice(0, 23);

  async function onRegister(request: SipRequest, rinfo: RemoteInfo, txKey: string): Promise<void> {
    const to = parseNameAddr(header(request.headers, 'to'));
    const sipId = to?.user ?? parseNameAddr(header(request.headers, 'from'))?.user;
    if (!sipId || !/^\d{20}$/.test(sipId)) return answer(request, rinfo, txKey, 400, 'Bad Request');
    const credentials = parseAuthorization(header(request.headers, 'authorization'));
    const unauthorized = (stale = false) =>
      answer(request, rinfo, txKey, 401, 'Unauthorized', { headers: [['WWW-Authenticate', challenge(domain, nonces.issue(), stale)]] });
    if (!credentials || credentials.username !== sipId || credentials.realm !== domain) return unauthorized();
    const nonce = nonces.check(credentials.nonce);
    if (nonce !== 'valid') return unauthorized(nonce === 'stale');
    let allowed = false;
    const verdict = await options.checkSecret(sipId, rinfo.address, async () => {
      const known = await directory.credentials(sipId);
      allowed = known?.allowed ?? false;
      return known !== undefined && verifyDigest(credentials, 'REGISTER', known.password);
    });
    if (verdict === 'locked') return answer(request, rinfo, txKey, 403, 'Forbidden');
    if (verdict === 'wrong') return unauthorized();
    if (!allowed) return answer(request, rinfo, txKey, 403, 'Forbidden');

    const contact = parseNameAddr(header(request.headers, 'contact'));
    const asked = Number(header(request.headers, 'expires') ?? contact?.params.get('expires') ?? maxExpires);
    const expires = Number.isFinite(asked) ? Math.max(0, Math.min(maxExpires, Math.floor(asked))) : maxExpires;
    // Requests to the camera go to its Contact when that names the address it sent from (RFC 3261; a camera may
    // listen on another port), else to the source (a camera behind NAT puts its private address in Contact).
    const contactHost = contact?.host ? splitAddress(contact.host) : undefined;
    const target =
      contactHost && contactHost[0] === rinfo.address && contactHost[1]
        ? { address: rinfo.address, port: contactHost[1] }
        : { address: rinfo.address, port: rinfo.port };
    const remote = `${target.address}:${target.port}`;
    if (expires === 0) {
      await directory.unregistered(sipId);
      addresses.delete(sipId);
      return answer(request, rinfo, txKey, 200, 'OK', {
        headers: [
          ['Expires', '0'],
          ['Date', sipDate()],
        ],
      });
    }
    addresses.set(sipId, target);
    await directory.registered(sipId, remote, expires);
    answer(request, rinfo, txKey, 200, 'OK', {
      headers: [
        ['Contact', header(request.headers, 'contact') ?? `<sip:${sipId}@${remote}>`],
        ['Expires', String(expires)],
        ['Date', sipDate()],
      ],
    });
    // The channels follow each registration (GB28181 platforms ask at once; the answer arrives as MESSAGEs).
    queryCatalog(sipId).catch(() => undefined);
  }

  async function onMessage(request: SipRequest, rinfo: RemoteInfo, txKey: string): Promise<void> {
    const body = parseManscdp(request.body);
    const fromId = parseNameAddr(header(request.headers, 'from'))?.user;
    if (!body || !fromId) return answer(request, rinfo, txKey, 400, 'Bad Request');
    const sipId = fromId;
    const remote = `${rinfo.address}:${rinfo.port}`;
    if (!(await fromRegisteredAddress(sipId, rinfo))) return answer(request, rinfo, txKey, 403, 'Forbidden');
    if ('other' in body) return answer(request, rinfo, txKey, 200, 'OK');
    if (body.cmdType === 'Keepalive') {
      const known = await directory.keepalive(sipId, remote);
      return answer(request, rinfo, txKey, known ? 200 : 403, known ? 'OK' : 'Forbidden');
    }
    answer(request, rinfo, txKey, 200, 'OK');
    if (body.cmdType === 'Catalog') await collectCatalog(sipId, body.sn, body.sumNum, body.items);
  }

  /** MESSAGEs are not authenticated in GB28181: they are believed only from the address the camera registered from. */
  async function fromRegisteredAddress(sipId: string, rinfo: RemoteInfo): Promise<boolean> {
    const known = addresses.get(sipId);
    if (known) return known.address === rinfo.address;
    const stored = await directory.address(sipId);
    if (!stored) return false;
    const [address, port] = splitAddress(stored);
    if (address !== rinfo.address) return false;
    addresses.set(sipId, { address, port: port ?? rinfo.port });
    return true;
  }

  async function collectCatalog(sipId: string, sn: string, sumNum: number, items: CatalogItem[]): Promise<void> {
    let pending = catalogs.get(sipId);
    if (!pending || pending.sn !== sn) {
      if (pending) clearTimeout(pending.timer);
      const fresh: PendingCatalog = {
        sn,
        sumNum,
        items: new Map(),
        waiters: pending?.waiters ?? [],
        timer: setTimeout(() => void finishCatalog(sipId, fresh, true), answerTimeoutMs),
      };
      fresh.timer.unref();
      pending = fresh;
      catalogs.set(sipId, pending);
    }
    // The answer to the platform's own query (its SN echoed, as GB28181 says) tells how many channels there are.
    if (pending.sumNum === Number.POSITIVE_INFINITY) pending.sumNum = sumNum;
    for (const item of items) if (pending.items.size < 1024) pending.items.set(item.gbId, item);
    if (pending.items.size >= pending.sumNum) await finishCatalog(sipId, pending, false);
  }

  async function finishCatalog(sipId: string, pending: PendingCatalog, timedOut: boolean): Promise<void> {
    if (catalogs.get(sipId) !== pending) return;
    catalogs.delete(sipId);
    clearTimeout(pending.timer);
    const items = [...pending.items.values()];
    // A catalog cut short (lost datagrams) is kept only when nothing is missing; partial answers leave the old list.
    if (!timedOut || items.length >= pending.sumNum)
      await directory.channels(sipId, items).catch((error: unknown) => options.log?.warn({ err: error, sipId }, 'storing channels failed'));
    for (const waiter of pending.waiters) waiter(timedOut && items.length < pending.sumNum ? undefined : items);
  }

  function onBye(request: SipRequest, rinfo: RemoteInfo, txKey: string): void {
    const callId = header(request.headers, 'call-id');
    const entry = [...dialogs.entries()].find(([, d]) => d.callId === callId);
    if (!entry) {
      answer(request, rinfo, txKey, 481, 'Call/Transaction Does Not Exist');
      return;
    }
    dialogs.delete(entry[0]);
    answer(request, rinfo, txKey, 200, 'OK');
    directory.streamEnded(entry[0]);
  }

  async function onRequest(request: SipRequest, rinfo: RemoteInfo): Promise<void> {
    const branch = parseVia(header(request.headers, 'via'))?.params.get('branch') ?? '';
    const txKey = branch ? `${rinfo.address}|${branch}|${request.method}` : undefined;
    if (txKey) {
      const seen = serverTx.get(txKey);
      if (seen) {
        if (seen.answer) send(seen.answer, rinfo);
        return;
      }
      if (serverTx.size >= SERVER_TX_MAX) pruneServerTx(true);
      serverTx.set(txKey, { answer: undefined, at: now() });
    }
    switch (request.method) {
      case 'REGISTER':
        return onRegister(request, rinfo, txKey ?? '');
      case 'MESSAGE':
        return onMessage(request, rinfo, txKey ?? '');
      case 'BYE':
        return onBye(request, rinfo, txKey ?? '');
      case 'ACK':
        return;
      case 'OPTIONS':
        return answer(request, rinfo, txKey, 200, 'OK', { headers: [['Allow', 'REGISTER, MESSAGE, INVITE, ACK, BYE, OPTIONS']] });
      case 'CANCEL':
        return answer(request, rinfo, txKey, 481, 'Call/Transaction Does Not Exist');
      default:
        return answer(request, rinfo, txKey, 405, 'Method Not Allowed', { headers: [['Allow', 'REGISTER, MESSAGE, ACK, BYE, OPTIONS']] });
    }
  }

  function onResponse(response: SipResponse): void {
    const branch = parseVia(header(response.headers, 'via'))?.params.get('branch');
    const tx = branch ? clientTx.get(branch) : undefined;
    if (!tx || !branch) return;
    if (response.status < 200) {
      tx.onProvisional();
      return;
    }
    clientTx.delete(branch);
    tx.resolve(response);
  }

  function pruneServerTx(all = false): void {
    const cutoff = now() - SERVER_TX_MS;
    for (const [key, entry] of serverTx) if (all || entry.at < cutoff) serverTx.delete(key);
  }

  async function onDatagram(datagram: Buffer, rinfo: RemoteInfo): Promise<void> {
    stats.received++;
    if (!allow('any', rinfo.address)) {
      stats.limited++;
      return;
    }
    const message = parseSip(datagram);
    if (!message) {
      stats.malformed++;
      return;
    }
    if (message.kind === 'response') return onResponse(message);
    if (message.method === 'REGISTER' && !allow('register', rinfo.address)) {
      // A flood from one address is dropped unanswered (answering would amplify it).
      stats.limited++;
      return;
    }
    await onRequest(message, rinfo);
  }

  /** Sends a request and resolves with its final answer: retransmitted at 0.5, 1, 2, 4 s … until any answer. */
  function request(
    remote: { address: string; port: number },
    build: (branch: string) => SipRequest,
    timeoutMs = answerTimeoutMs,
  ): Promise<SipResponse> {
    const branch = `z9hG4bK${token(8)}`;
    const buffer = serializeSip(build(branch));
    return new Promise<SipResponse>((resolve, reject) => {
      let interval = 500;
      let retransmit: NodeJS.Timeout | undefined;
      const schedule = () => {
        retransmit = setTimeout(() => {
          send(buffer, remote);
          interval = Math.min(interval * 2, 4000);
          schedule();
        }, interval);
        retransmit.unref();
      };
      const deadline = setTimeout(() => {
        clearTimeout(retransmit);
        clientTx.delete(branch);
        reject(new SipNoAnswerError('no answer'));
      }, timeoutMs);
      deadline.unref();
      clientTx.set(branch, {
        resolve: (response) => {
          clearTimeout(retransmit);
          clearTimeout(deadline);
          resolve(response);
        },
        reject,
        onProvisional: () => clearTimeout(retransmit),
      });
      send(buffer, remote);
      schedule();
    });
  }

  async function remoteOf(sipId: string): Promise<{ address: string; port: number }> {
    const known = addresses.get(sipId);
    if (known) return known;
    const stored = await directory.address(sipId);
    if (!stored) throw new SipNotRegisteredError(sipId);
    const [address, port] = splitAddress(stored);
    if (!port) throw new SipNotRegisteredError(sipId);
    return { address, port };
  }

  /** Asks the camera for its channels; resolves when the whole catalog has arrived (and was stored). */
  async function queryCatalog(sipId: string): Promise<CatalogItem[]> {
    const remote = await remoteOf(sipId);
    const sn = ++snCounter;
    const result = new Promise<CatalogItem[]>((resolve, reject) => {
      const pending = catalogs.get(sipId);
      const waiter = (items: CatalogItem[] | undefined) => (items ? resolve(items) : reject(new SipNoAnswerError('catalog incomplete')));
      if (pending) pending.waiters.push(waiter);
      else {
        const fresh: PendingCatalog = {
          sn: String(sn),
          sumNum: Number.POSITIVE_INFINITY,
          items: new Map(),
          waiters: [waiter],
          timer: setTimeout(() => void finishCatalog(sipId, fresh, true), answerTimeoutMs),
        };
        fresh.timer.unref();
        catalogs.set(sipId, fresh);
      }
    });
    // Marked handled here: when the MESSAGE itself fails, that error is the one thrown and this one is not awaited.
    result.catch(() => undefined);
    const response = await request(remote, (branch) => ({
      kind: 'request',
      method: 'MESSAGE',
      uri: `sip:${sipId}@${remote.address}:${remote.port}`,
      headers: sipHeaders([
        ['Via', via(branch)],
        ['From', `<sip:${serverId}@${domain}>;tag=${token(4)}`],
        ['To', `<sip:${sipId}@${domain}>`],
        ['Call-ID', `${token(8)}@${options.localIp}`],
        ['CSeq', `${sn} MESSAGE`],
        ['Max-Forwards', '70'],
        ['Content-Type', MANSCDP_CONTENT_TYPE],
      ]),
      body: Buffer.from(catalogQuery(sipId, sn), 'latin1'),
    })).catch((error: unknown) => {
      const pending = catalogs.get(sipId);
      if (pending && pending.items.size === 0) void finishCatalog(sipId, pending, true);
      throw error;
    });
    if (response.status >= 300) {
      const pending = catalogs.get(sipId);
      if (pending) void finishCatalog(sipId, pending, true);
      throw new SipRefusedError(response.status);
    }
    return result;
  }

  /** INVITE for a live or playback stream; resolves once the camera answered 200 and was sent its ACK. */
  async function invite(input: {
    streamId: string;
    sipId: string;
    channelId: string;
    receiver: MediaReceiver;
    kind: 'live' | 'playback';
    start?: Date;
    end?: Date;
  }): Promise<void> {
    const remote = await remoteOf(input.sipId);
    const callId = `${token(10)}@${options.localIp}`;
    const fromTag = token(4);
    const requestUri = `sip:${input.channelId}@${remote.address}:${remote.port}`;
    const from = `<sip:${serverId}@${domain}>;tag=${fromTag}`;
    const to = `<sip:${input.channelId}@${domain}>`;
    const sdp = inviteSdp({
      serverId,
      channelId: input.channelId,
      receiver: input.receiver,
      kind: input.kind,
      start: input.start,
      end: input.end,
    });
    let inviteBranch = '';
    const response = await request(
      remote,
      (branch) => {
        inviteBranch = branch;
        return {
          kind: 'request',
          method: 'INVITE',
          uri: requestUri,
          headers: sipHeaders([
            ['Via', via(branch)],
            ['From', from],
            ['To', to],
            ['Call-ID', callId],
            ['CSeq', '1 INVITE'],
            ['Contact', `<sip:${serverId}@${options.localIp}:${boundPort}>`],
            ['Max-Forwards', '70'],
            ['Subject', `${input.channelId}:${input.receiver.ssrc},${serverId}:0`],
            ['Content-Type', 'APPLICATION/SDP'],
          ]),
          body: Buffer.from(sdp, 'latin1'),
        };
      },
      answerTimeoutMs,
    );
    const toHeader = header(response.headers, 'to') ?? to;
    if (response.status >= 300) {
      // A non-2xx final answer is acknowledged in its own transaction (same branch, RFC 3261 §17.1.1.3).
      send(
        serializeSip({
          kind: 'request',
          method: 'ACK',
          uri: requestUri,
          headers: sipHeaders([
            ['Via', via(inviteBranch)],
            ['From', from],
            ['To', toHeader],
            ['Call-ID', callId],
            ['CSeq', '1 ACK'],
            ['Max-Forwards', '70'],
          ]),
          body: Buffer.alloc(0),
        }),
        remote,
      );
      throw new SipRefusedError(response.status);
    }
    const contact = parseNameAddr(header(response.headers, 'contact'));
    const dialog: Dialog = {
      sipId: input.sipId,
      callId,
      fromTag,
      toTag: parseNameAddr(toHeader)?.params.get('tag') ?? '',
      requestUri: contact?.uri ?? requestUri,
      to: toHeader,
      remote,
      cseq: 1,
    };
    dialogs.set(input.streamId, dialog);
    send(
      serializeSip({
        kind: 'request',
        method: 'ACK',
        uri: dialog.requestUri,
        headers: sipHeaders([
          ['Via', via(`z9hG4bK${token(8)}`)],
          ['From', from],
          ['To', toHeader],
          ['Call-ID', callId],
          ['CSeq', '1 ACK'],
          ['Max-Forwards', '70'],
        ]),
        body: Buffer.alloc(0),
      }),
      remote,
    );
  }

  /** Ends a stream's dialog with BYE (an unknown stream: nothing). Waits for the answer, never fails. */
  async function bye(streamId: string): Promise<void> {
    const dialog = dialogs.get(streamId);
    if (!dialog) return;
    dialogs.delete(streamId);
    dialog.cseq++;
    await request(
      dialog.remote,
      (branch) => ({
        kind: 'request',
        method: 'BYE',
        uri: dialog.requestUri,
        headers: sipHeaders([
          ['Via', via(branch)],
          ['From', `<sip:${serverId}@${domain}>;tag=${dialog.fromTag}`],
          ['To', dialog.to],
          ['Call-ID', dialog.callId],
          ['CSeq', `${dialog.cseq} BYE`],
          ['Max-Forwards', '70'],
        ]),
        body: Buffer.alloc(0),
      }),
      Math.min(answerTimeoutMs, 4000),
    ).catch(() => undefined);
  }

  let stopPruning: (() => void) | undefined;

  return {
    stats,
    get port(): number {
      return boundPort;
    },
    /** Binds the UDP port (0: any free one). */
    async start(): Promise<number> {
      const s = createSocket({ type: 'udp4', reuseAddr: false });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.bind(options.port, options.host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      s.on('error', (error) => {
        stats.errors++;
        options.log?.warn({ err: error }, 'SIP socket error');
      });
      s.on('message', (datagram, rinfo) => {
        onDatagram(datagram, rinfo).catch((error: unknown) => {
          stats.errors++;
          options.log?.warn({ err: error, remote: `${rinfo.address}:${rinfo.port}` }, 'SIP request failed');
        });
      });
      socket = s;
      boundPort = s.address().port;
      stopPruning = every(10_000, () => pruneServerTx());
      return boundPort;
    },
    queryCatalog,
    invite,
    bye,
    /** Forgets a camera's address (disabled or deleted: no more requests to it). */
    forget(sipId: string): void {
      addresses.delete(sipId);
    },
    hasDialog(streamId: string): boolean {
      return dialogs.has(streamId);
    },
    async close(): Promise<void> {
      stopPruning?.();
      await Promise.all([...dialogs.keys()].map((streamId) => bye(streamId)));
      for (const tx of clientTx.values()) tx.reject(new SipNoAnswerError('server closing'));
      clientTx.clear();
      for (const pending of catalogs.values()) clearTimeout(pending.timer);
      catalogs.clear();
      const s = socket;
      socket = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}

export type SipServer = ReturnType<typeof createSipServer>;

function splitAddress(text: string): [string, number | undefined] {
  const colon = text.lastIndexOf(':');
  if (colon < 0) return [text, undefined];
  const port = Number(text.slice(colon + 1));
  return [text.slice(0, colon), Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined];
}
