import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestResponse, parseAuthorization } from './digest.js';
import type { CatalogItem } from './manscdp.js';
import { header, parseSip, type SipResponse } from './sip-message.js';
import { type CameraDirectory, createSipServer, SIP_RATE, type SipServer } from './sip-server.js';

/**
 * The SIP server against raw UDP (no database: a directory in memory): digest registration, unregistration,
 * keepalives, the REGISTER flood limit, and a bounded fuzz run after which it still answers.
 */
const SIP_ID = '34020000001320000001';
const PASSWORD = 'Camera-Pass1';
const DOMAIN = '3402000000';

const events: string[] = [];
let channels: CatalogItem[] = [];
const directory: CameraDirectory = {
  credentials: async (id) => (id === SIP_ID ? { password: PASSWORD, allowed: true } : undefined),
  registered: async (id, _remote, expires) => void events.push(`registered ${id} ${expires}`),
  unregistered: async (id) => void events.push(`unregistered ${id}`),
  keepalive: async (id) => id === SIP_ID,
  channels: async (_id, items) => {
    channels = items;
  },
  address: async () => undefined,
  streamEnded: () => undefined,
};

let server: SipServer;
let failures = 0;

beforeAll(async () => {
  server = createSipServer({
    port: 0,
    host: '127.0.0.1',
    serverId: '34020000002000000001',
    domain: DOMAIN,
    localIp: '127.0.0.1',
    directory,
    checkSecret: async (_id, _ip, verify) => {
      const right = await verify();
      if (!right) failures++;
      return right ? 'right' : 'wrong';
    },
    answerTimeoutMs: 500,
  });
  await server.start();
});

afterAll(async () => {
  await server.close();
});

/** A client socket that collects the answers it receives. */
async function client(): Promise<{
  socket: Socket;
  send(text: string | Buffer): void;
  next(timeoutMs?: number): Promise<SipResponse | undefined>;
  close(): Promise<void>;
}> {
  const socket = createSocket('udp4');
  const queue: SipResponse[] = [];
  const waiters: Array<(r: SipResponse) => void> = [];
  socket.on('message', (data) => {
    const message = parseSip(data);
    if (message?.kind !== 'response') return;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    socket,
    send: (text) => socket.send(typeof text === 'string' ? Buffer.from(text, 'latin1') : text, server.port, '127.0.0.1'),
    next: (timeoutMs = 1000) =>
      new Promise((resolve) => {
        const queued = queue.shift();
        if (queued) return resolve(queued);
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(done), 1);
          resolve(undefined);
        }, timeoutMs);
        const done = (r: SipResponse) => {
          clearTimeout(timer);
          resolve(r);
        };
        waiters.push(done);
      }),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

let branchCounter = 0;
function register(port: number, options: { authorization?: string; expires?: number; cseq?: number; branch?: string } = {}): string {
  return [
    `REGISTER sip:${DOMAIN} SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:${port};rport;branch=${options.branch ?? `z9hG4bKt${++branchCounter}`}`,
    `From: <sip:${SIP_ID}@${DOMAIN}>;tag=1`,
    `To: <sip:${SIP_ID}@${DOMAIN}>`,
    'Call-ID: reg-1@127.0.0.1',
    `CSeq: ${options.cseq ?? 1} REGISTER`,
    `Contact: <sip:${SIP_ID}@127.0.0.1:${port}>`,
    `Expires: ${options.expires ?? 3600}`,
    ...(options.authorization ? [`Authorization: ${options.authorization}`] : []),
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
}

function authorization(wwwAuthenticate: string | undefined, password: string): string {
  const nonce = /nonce="([^"]+)"/.exec(wwwAuthenticate ?? '')?.[1] ?? '';
  const base = { username: SIP_ID, realm: DOMAIN, nonce, uri: `sip:${DOMAIN}` };
  return `Digest username="${SIP_ID}", realm="${DOMAIN}", nonce="${nonce}", uri="sip:${DOMAIN}", response="${digestResponse(base, 'REGISTER', password)}", algorithm=MD5`;
}

describe('GB28181 SIP server', () => {
  it('challenges, accepts the right digest (200 with Expires and Date), challenges a wrong one again, unregisters with Expires: 0', async () => {
    const c = await client();
    const port = c.socket.address().port;
    c.send(register(port));
    const challenge = await c.next();
    expect(challenge?.status).toBe(401);
    const www = header(challenge?.headers ?? new Map(), 'www-authenticate');
    expect(www).toMatch(/^Digest realm="3402000000", nonce="[^"]+", algorithm=MD5$/);

    c.send(register(port, { cseq: 2, authorization: authorization(www, 'Wrong-Pass1') }));
    const again = await c.next();
    expect(again?.status).toBe(401);
    expect(failures).toBe(1);

    c.send(register(port, { cseq: 3, authorization: authorization(www, PASSWORD) }));
    const ok = await c.next();
    expect(ok?.status).toBe(200);
    expect(header(ok?.headers ?? new Map(), 'expires')).toBe('3600');
    expect(header(ok?.headers ?? new Map(), 'date')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    expect(events).toContain(`registered ${SIP_ID} 3600`);

    c.send(register(port, { cseq: 4, expires: 0, authorization: authorization(www, PASSWORD) }));
    expect((await c.next())?.status).toBe(200);
    expect(events).toContain(`unregistered ${SIP_ID}`);
    await c.close();
  });

  it('answers a retransmitted request with the same answer (one registration)', async () => {
    const c = await client();
    const port = c.socket.address().port;
    c.send(register(port));
    const www = header((await c.next())?.headers ?? new Map(), 'www-authenticate');
    const before = events.length;
    const request = register(port, { branch: 'z9hG4bKretrans', authorization: authorization(www, PASSWORD) });
    c.send(request);
    const first = await c.next();
    c.send(request);
    const second = await c.next();
    expect(first?.status).toBe(200);
    expect(second?.status).toBe(200);
    expect(events.length - before).toBe(1);
    await c.close();
  });

  it('drops a REGISTER flood from one address beyond its burst', async () => {
    const flood = await client();
    const port = flood.socket.address().port;
    for (let i = 0; i < 40; i++) flood.send(register(port));
    let answered = 0;
    while (await flood.next(300)) answered++;
    expect(answered).toBeLessThanOrEqual(SIP_RATE.register.burst + 1);
    expect(answered).toBeGreaterThan(0);
    await flood.close();
  });

  it('survives a bounded fuzz run of random and mutated datagrams, and still answers', async () => {
    const samples = [
      register(5060, { authorization: 'Digest username="x", realm="y", nonce="z", uri="u", response="r"' }),
      `MESSAGE sip:${DOMAIN} SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:5;branch=z9hG4bKm\r\nFrom: <sip:${SIP_ID}@${DOMAIN}>;tag=1\r\nTo: <sip:${DOMAIN}@${DOMAIN}>\r\nCall-ID: m\r\nCSeq: 1 MESSAGE\r\nContent-Type: Application/MANSCDP+xml\r\nContent-Length: 120\r\n\r\n<?xml version="1.0" encoding="GB2312"?><Response><CmdType>Catalog</CmdType><SN>1</SN><DeviceID>${SIP_ID}</DeviceID><SumNum>1</SumNum></Response>`,
      'SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 127.0.0.1:5;branch=z9hG4bKnone\r\nCSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n',
      `BYE sip:x SIP/2.0\r\nVia: SIP/2.0/UDP 1.2.3.4\r\nFrom: a\r\nTo: b\r\nCall-ID: c\r\nCSeq: 2 BYE\r\n\r\n`,
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const fuzz = await client();
    const errorsBefore = server.stats.errors;
    for (let i = 0; i < 1500; i++) {
      let packet: Buffer;
      if (i % 3 === 0) packet = Buffer.from(Array.from({ length: Math.floor(random() * 1400) }, () => Math.floor(random() * 256)));
      else {
        packet = Buffer.from(samples[i % samples.length] as string, 'latin1');
        for (let m = 0; m < 1 + Math.floor(random() * 8); m++) {
          const at = Math.floor(random() * packet.length);
          const kind = random();
          if (kind < 0.4) packet[at] = Math.floor(random() * 256);
          else if (kind < 0.7) packet = Buffer.concat([packet.subarray(0, at), packet.subarray(at + 1 + Math.floor(random() * 20))]);
          else
            packet = Buffer.concat([
              packet.subarray(0, at),
              Buffer.from(':;<>"\r\n\0%'.repeat(1 + Math.floor(random() * 4))),
              packet.subarray(at),
            ]);
        }
      }
      fuzz.send(packet);
      // Let the server drain now and then, so the rate limit is not all that is tested.
      if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 120));
    }
    await fuzz.close();
    expect(server.stats.errors - errorsBefore).toBe(0);
    const probe = await client();
    // The probe shares the fuzz's address, whose bucket the run emptied: it asks until the bucket lets it through.
    let answer: SipResponse | undefined;
    for (let attempt = 0; attempt < 20 && !answer; attempt++) {
      probe.send(
        `OPTIONS sip:${DOMAIN} SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:${probe.socket.address().port};branch=z9hG4bKprobe${attempt}\r\nFrom: <sip:p@x>;tag=1\r\nTo: <sip:${DOMAIN}@${DOMAIN}>\r\nCall-ID: probe\r\nCSeq: 1 OPTIONS\r\nContent-Length: 0\r\n\r\n`,
      );
      answer = await probe.next(500);
    }
    expect(answer?.status).toBe(200);
    await probe.close();
    expect(channels).toEqual([]);
    expect(parseAuthorization('Digest')).toBeUndefined();
  }, 60_000);
});
