import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * HTTP digest authentication of SIP REGISTER (RFC 2617 as RFC 3261 §22 uses it, MD5, what GB28181 cameras speak):
 * realm = SIP_DOMAIN, the user name is the camera's SIP ID. Nonces are stateless: time and random bytes signed with
 * a per-process key, valid for NONCE_TTL_MS; an expired one answers 401 with stale=true so the camera retries at once.
 */
export const NONCE_TTL_MS = 5 * 60_000;

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

export function createNonces(key: Buffer = randomBytes(32), now: () => number = Date.now) {
  const sign = (body: string) => createHmac('sha256', key).update(body).digest('base64url').slice(0, 16);
  return {
    issue(): string {
      const body = `${now().toString(16)}${randomBytes(6).toString('hex')}`;
      return `${body}${sign(body)}`;
    },
    /** `valid`, `stale` (ours but older than the TTL) or `invalid` (not ours). */
    check(nonce: string): 'valid' | 'stale' | 'invalid' {
      if (!/^[0-9a-f]{10,13}[0-9a-f]{12}[A-Za-z0-9_-]{16}$/.test(nonce)) return 'invalid';
      const body = nonce.slice(0, -16);
      const mac = nonce.slice(-16);
      const expected = sign(body);
      if (!timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) return 'invalid';
      const issued = Number.parseInt(body.slice(0, -12), 16);
      const age = now() - issued;
      return age >= 0 && age <= NONCE_TTL_MS ? 'valid' : 'stale';
    },
  };
}
export type Nonces = ReturnType<typeof createNonces>;

/** The challenge (no qop: several GB28181 cameras fail on it; a client that sends qop=auth anyway is accepted). */
export function challenge(realm: string, nonce: string, stale = false): string {
  return `Digest realm="${realm}", nonce="${nonce}", algorithm=MD5${stale ? ', stale=true' : ''}`;
}

export interface DigestCredentials {
  username: string;
  realm: string;
  nonce: string;
  uri: string;
  response: string;
  algorithm?: string;
  qop?: string;
  nc?: string;
  cnonce?: string;
}

/** The Authorization header's parameters; undefined unless it is a Digest with the required ones. */
export function parseAuthorization(value: string | undefined): DigestCredentials | undefined {
  if (!value || !/^Digest\s/i.test(value)) return undefined;
  const params = new Map<string, string>();
  const re = /([A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;
  for (let m = re.exec(value); m; m = re.exec(value)) if (m[1]) params.set(m[1].toLowerCase(), m[2] ?? m[3] ?? '');
  const get = (name: string) => params.get(name);
  const username = get('username');
  const realm = get('realm');
  const nonce = get('nonce');
  const uri = get('uri');
  const response = get('response');
  if (username === undefined || realm === undefined || !nonce || !uri || !response) return undefined;
  return { username, realm, nonce, uri, response, algorithm: get('algorithm'), qop: get('qop'), nc: get('nc'), cnonce: get('cnonce') };
}

/** The response a client knowing `password` computes (RFC 2617 §3.2.2.1). */
export function digestResponse(credentials: Omit<DigestCredentials, 'response'>, method: string, password: string): string {
  const ha1 = md5(`${credentials.username}:${credentials.realm}:${password}`);
  const ha2 = md5(`${method}:${credentials.uri}`);
  if (credentials.qop && /^auth$/i.test(credentials.qop))
    return md5(`${ha1}:${credentials.nonce}:${credentials.nc ?? ''}:${credentials.cnonce ?? ''}:${credentials.qop}:${ha2}`);
  return md5(`${ha1}:${credentials.nonce}:${ha2}`);
}

/** Whether the credentials prove `password` (MD5 only; constant-time comparison). */
export function verifyDigest(credentials: DigestCredentials, method: string, password: string): boolean {
  if (credentials.algorithm && !/^MD5$/i.test(credentials.algorithm)) return false;
  const expected = Buffer.from(digestResponse(credentials, method, password));
  const given = Buffer.from(credentials.response.toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
