/**
 * SIP messages (RFC 3261) as GB28181 cameras send them over UDP: parsed from a datagram and written back. Pure and
 * total: `parseSip` answers undefined for anything it cannot read, never throws (docs/decisions.md "SIP parser":
 * why not a library).
 */

/** A datagram larger than this is not read (UDP SIP stays under the path MTU; GB28181 catalogs are split). */
export const SIP_MAX_BYTES = 65_507;
const MAX_HEADERS = 120;

/** Compact header forms (RFC 3261 §7.3.3). */
const COMPACT: Record<string, string> = {
  v: 'via',
  f: 'from',
  t: 'to',
  i: 'call-id',
  m: 'contact',
  l: 'content-length',
  c: 'content-type',
  k: 'supported',
  s: 'subject',
  e: 'content-encoding',
};

/** Header values by lower-case name, in order; a comma-separated Via line counts as several values. */
export type SipHeaders = Map<string, string[]>;

export interface SipRequest {
  kind: 'request';
  method: string;
  uri: string;
  headers: SipHeaders;
  body: Buffer;
}

export interface SipResponse {
  kind: 'response';
  status: number;
  reason: string;
  headers: SipHeaders;
  body: Buffer;
}

export type SipMessage = SipRequest | SipResponse;

const TOKEN = /^[A-Za-z0-9.!%*_+`'~-]+$/;

/** Splits at commas outside quotes and angle brackets (multiple Via or Contact values on one line). */
function splitValues(value: string): string[] {
  const out: string[] = [];
  let depthAngle = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"' && value[i - 1] !== '\\') quoted = !quoted;
    else if (!quoted && c === '<') depthAngle++;
    else if (!quoted && c === '>') depthAngle = Math.max(0, depthAngle - 1);
    else if (!quoted && depthAngle === 0 && c === ',') {
      out.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(value.slice(start).trim());
  return out.filter((v) => v.length > 0);
}

const MULTI_VALUE = new Set(['via', 'contact', 'route', 'record-route']);

export function parseSip(datagram: Buffer): SipMessage | undefined {
  if (datagram.length === 0 || datagram.length > SIP_MAX_BYTES) return undefined;
  const end = datagram.indexOf('\r\n\r\n');
  const headEnd = end >= 0 ? end : datagram.indexOf('\n\n');
  const separator = end >= 0 ? 4 : 2;
  if (headEnd < 0) return undefined;
  const head = datagram.subarray(0, headEnd).toString('latin1');
  const lines = head.split(/\r?\n/);
  const startLine = lines.shift();
  if (!startLine) return undefined;
  // Folded header lines (leading white space) continue the previous one.
  const joined: string[] = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && joined.length > 0) joined[joined.length - 1] += ` ${line.trim()}`;
    else joined.push(line);
  }
  if (joined.length > MAX_HEADERS) return undefined;
  const headers: SipHeaders = new Map();
  for (const line of joined) {
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    let name = line.slice(0, colon).trim().toLowerCase();
    if (!TOKEN.test(name)) return undefined;
    name = COMPACT[name] ?? name;
    const value = line.slice(colon + 1).trim();
    const values = MULTI_VALUE.has(name) ? splitValues(value) : [value];
    const list = headers.get(name);
    if (list) list.push(...values);
    else headers.set(name, values);
  }
  let body = datagram.subarray(headEnd + separator);
  const lengthHeader = headers.get('content-length')?.[0];
  if (lengthHeader !== undefined) {
    if (!/^\d{1,6}$/.test(lengthHeader)) return undefined;
    const length = Number(lengthHeader);
    if (length > body.length) return undefined;
    body = body.subarray(0, length);
  }
  // Copy: the datagram's buffer is reused by nothing, but the body outlives this call in pending catalogs.
  body = Buffer.from(body);

  const response = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(startLine);
  if (response) {
    const status = Number(response[1]);
    if (status < 100 || status > 699) return undefined;
    return { kind: 'response', status, reason: (response[2] ?? '').trim(), headers, body };
  }
  const request = /^([A-Za-z]{1,20}) (\S{1,1024}) SIP\/2\.0$/.exec(startLine);
  if (!request?.[1] || !request[2]) return undefined;
  for (const required of ['via', 'from', 'to', 'call-id', 'cseq']) if (!headers.get(required)?.[0]) return undefined;
  if (!parseCSeq(header(headers, 'cseq'))) return undefined;
  return { kind: 'request', method: request[1].toUpperCase(), uri: request[2], headers, body };
}

/** The first value of a header, or undefined. */
export function header(headers: SipHeaders, name: string): string | undefined {
  return headers.get(name.toLowerCase())?.[0];
}

export function parseCSeq(value: string | undefined): { seq: number; method: string } | undefined {
  const m = value ? /^(\d{1,10})\s+([A-Za-z]{1,20})$/.exec(value.trim()) : null;
  if (!m?.[1] || !m[2]) return undefined;
  return { seq: Number(m[1]), method: m[2].toUpperCase() };
}

/** `;name=value` parameters after the first `;` (lower-case names; a bare name has the value ''). */
export function parseParams(text: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of text.split(';').slice(1)) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (name)
      params.set(
        name,
        eq < 0
          ? ''
          : part
              .slice(eq + 1)
              .trim()
              .replace(/^"|"$/g, ''),
      );
  }
  return params;
}

/** A From, To or Contact value: `"Name" <sip:user@host:port;x>;tag=abc`. */
export interface NameAddr {
  uri: string;
  user: string | undefined;
  host: string | undefined;
  params: Map<string, string>;
}

export function parseNameAddr(value: string | undefined): NameAddr | undefined {
  if (!value) return undefined;
  let uri: string;
  let rest: string;
  const open = value.indexOf('<');
  if (open >= 0) {
    const close = value.indexOf('>', open);
    if (close < 0) return undefined;
    uri = value.slice(open + 1, close).trim();
    rest = value.slice(close + 1);
  } else {
    const semi = value.indexOf(';');
    uri = (semi < 0 ? value : value.slice(0, semi)).trim();
    rest = semi < 0 ? '' : value.slice(semi);
  }
  const m = /^sips?:(?:([^@;]+)@)?([^;?>]+)/i.exec(uri);
  return { uri, user: m?.[1], host: m?.[2], params: parseParams(rest) };
}

/** The top Via: its sent-by host and port and its parameters (branch, rport, received). */
export function parseVia(value: string | undefined): { host: string; port: number | undefined; params: Map<string, string> } | undefined {
  const m = value ? /^SIP\s*\/\s*2\.0\s*\/\s*[A-Za-z]+\s+([^;:\s]+|\[[^\]]+\])(?::(\d{1,5}))?/i.exec(value) : null;
  if (!m?.[1] || !value) return undefined;
  return { host: m[1], port: m[2] ? Number(m[2]) : undefined, params: parseParams(value.slice(m[0].length)) };
}

/** Writes a request or response; Content-Length is always written from the body. */
export function serializeSip(message: SipMessage): Buffer {
  const start = message.kind === 'request' ? `${message.method} ${message.uri} SIP/2.0` : `SIP/2.0 ${message.status} ${message.reason}`;
  const lines = [start];
  for (const [name, values] of message.headers) {
    if (name === 'content-length') continue;
    for (const value of values) lines.push(`${canonicalName(name)}: ${value}`);
  }
  lines.push(`Content-Length: ${message.body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), message.body]);
}

const CANONICAL: Record<string, string> = {
  'call-id': 'Call-ID',
  cseq: 'CSeq',
  'www-authenticate': 'WWW-Authenticate',
  'content-type': 'Content-Type',
  'user-agent': 'User-Agent',
  'max-forwards': 'Max-Forwards',
  'retry-after': 'Retry-After',
};

function canonicalName(name: string): string {
  return CANONICAL[name] ?? name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

/** Headers in writing order from pairs. */
export function sipHeaders(pairs: ReadonlyArray<readonly [string, string | undefined]>): SipHeaders {
  const headers: SipHeaders = new Map();
  for (const [name, value] of pairs) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const list = headers.get(key);
    if (list) list.push(value);
    else headers.set(key, [value]);
  }
  return headers;
}

/**
 * A response to a request (RFC 3261 §8.2.6): its Via values (the top one with received and rport filled in, RFC 3581),
 * From, Call-ID and CSeq copied, To with our tag added when it had none.
 */
export function responseTo(
  request: SipRequest,
  status: number,
  reason: string,
  options: {
    source?: { address: string; port: number };
    toTag?: string;
    headers?: ReadonlyArray<readonly [string, string]>;
    body?: Buffer;
    contentType?: string;
  } = {},
): SipResponse {
  const vias = [...(request.headers.get('via') ?? [])];
  const top = vias[0];
  if (top && options.source) {
    const via = parseVia(top);
    let filled = top;
    if (via?.params.has('rport')) filled = filled.replace(/;rport(=[^;]*)?/i, `;rport=${options.source.port}`);
    if (via && via.host !== options.source.address && !via.params.has('received')) filled += `;received=${options.source.address}`;
    vias[0] = filled;
  }
  let to = header(request.headers, 'to') ?? '';
  if (options.toTag && status > 100 && !parseNameAddr(to)?.params.has('tag')) to += `;tag=${options.toTag}`;
  const headers = sipHeaders([
    ...vias.map((v) => ['Via', v] as const),
    ['From', header(request.headers, 'from')],
    ['To', to],
    ['Call-ID', header(request.headers, 'call-id')],
    ['CSeq', header(request.headers, 'cseq')],
    ...(options.headers ?? []),
    ['User-Agent', 'Sunward'],
    ['Content-Type', options.body && options.body.length > 0 ? options.contentType : undefined],
  ]);
  return { kind: 'response', status, reason, headers, body: options.body ?? Buffer.alloc(0) };
}
