import { createHash, randomBytes } from 'node:crypto';

/**
 * The little SIP (RFC 3261) a GB28181 camera speaks over UDP, client side: parse one datagram, build requests and
 * responses, answer a digest challenge (RFC 2617, MD5, with or without qop=auth). Not a SIP stack: no TCP, no
 * forking, no retransmission timers (the platform is on the same network; the test scenarios are sipp's).
 */
export interface SipMessage {
  /** Requests: the method and Request-URI; responses: the status. */
  method?: string;
  uri?: string;
  status?: number;
  reason?: string;
  /** Header values by lower-case name, in order. */
  headers: Map<string, string[]>;
  body: string;
}

const COMPACT: Record<string, string> = {
  v: 'via',
  f: 'from',
  t: 'to',
  i: 'call-id',
  m: 'contact',
  l: 'content-length',
  c: 'content-type',
};

export function parseSip(text: string): SipMessage | undefined {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? '' : text.slice(split + 4);
  const [startLine = '', ...lines] = head.split('\r\n');
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const raw = line.slice(0, colon).trim().toLowerCase();
    const name = COMPACT[raw] ?? raw;
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  const response = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(startLine);
  if (response) return { status: Number(response[1]), reason: response[2] ?? '', headers, body };
  const request = /^([A-Z]+) (\S+) SIP\/2\.0$/.exec(startLine);
  if (request) return { method: request[1], uri: request[2], headers, body };
  return undefined;
}

export function header(message: SipMessage, name: string): string | undefined {
  return message.headers.get(name)?.[0];
}

/** The user part of a SIP URI (`<sip:34020000001320000001@3402000000>` → the 20 digits). */
export function sipUser(value: string | undefined): string | undefined {
  return /sip:([^@;>]+)@/.exec(value ?? '')?.[1];
}

export function newTag(): string {
  return randomBytes(6).toString('hex');
}

export function newBranch(): string {
  return `z9hG4bK${randomBytes(8).toString('hex')}`;
}

export function serialize(startLine: string, headers: [string, string][], body = ''): string {
  const bytes = Buffer.byteLength(body, 'utf8');
  return `${startLine}\r\n${[...headers, ['Content-Length', String(bytes)]].map(([n, v]) => `${n}: ${v}`).join('\r\n')}\r\n\r\n${body}`;
}

/** A response to `request`: Via, From, Call-ID and CSeq copied, our tag added to To. */
export function respond(
  request: SipMessage,
  status: number,
  reason: string,
  toTag: string,
  extra: [string, string][] = [],
  body = '',
): string {
  const copied: [string, string][] = [];
  for (const via of request.headers.get('via') ?? []) copied.push(['Via', via]);
  const to = header(request, 'to') ?? '';
  copied.push(['From', header(request, 'from') ?? '']);
  copied.push(['To', /;tag=/.test(to) ? to : `${to};tag=${toTag}`]);
  copied.push(['Call-ID', header(request, 'call-id') ?? '']);
  copied.push(['CSeq', header(request, 'cseq') ?? '']);
  return serialize(`SIP/2.0 ${status} ${reason}`, [...copied, ['User-Agent', 'Sunward simulated camera'], ...extra], body);
}

/** The parameters of a `WWW-Authenticate: Digest …` challenge. */
export function parseChallenge(value: string): Record<string, string> {
  const params: Record<string, string> = {};
  const text = value.replace(/^Digest\s+/i, '');
  for (const match of text.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]+))/g)) params[(match[1] ?? '').toLowerCase()] = match[2] ?? match[3] ?? '';
  return params;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** The Authorization header answering a digest challenge for `method uri`. */
export function digestAuthorization(options: {
  challenge: Record<string, string>;
  username: string;
  password: string;
  method: string;
  uri: string;
  cnonce?: string;
  nc?: number;
}): string {
  const { challenge, username, password, method, uri } = options;
  const realm = challenge.realm ?? '';
  const nonce = challenge.nonce ?? '';
  const ha1 = md5(`${username}:${realm}:${password}`);
  const ha2 = md5(`${method}:${uri}`);
  const qop = challenge.qop
    ?.split(',')
    .map((q) => q.trim())
    .includes('auth')
    ? 'auth'
    : undefined;
  const parts = [`username="${username}"`, `realm="${realm}"`, `nonce="${nonce}"`, `uri="${uri}"`];
  if (qop) {
    const nc = (options.nc ?? 1).toString(16).padStart(8, '0');
    const cnonce = options.cnonce ?? randomBytes(8).toString('hex');
    parts.push(`response="${md5(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`)}"`, `qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`);
  } else parts.push(`response="${md5(`${ha1}:${nonce}:${ha2}`)}"`);
  parts.push('algorithm=MD5');
  if (challenge.opaque !== undefined) parts.push(`opaque="${challenge.opaque}"`);
  return `Digest ${parts.join(', ')}`;
}

/** The text of one XML element in a MANSCDP body (`<CmdType>Catalog</CmdType>`), the only XML a camera reads. */
export function xmlText(body: string, element: string): string | undefined {
  return new RegExp(`<${element}>\\s*([^<]*?)\\s*</${element}>`).exec(body)?.[1];
}
