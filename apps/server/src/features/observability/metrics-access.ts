import { createHash, timingSafeEqual } from 'node:crypto';

/** Headers a reverse proxy adds: a request carrying one did not come from this machine, whatever its socket says. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Who may read /metrics (docs/decisions.md): with METRICS_TOKEN set, whoever sends it as a bearer token,
 * from anywhere; without it, only a connection from this machine that no proxy forwarded. Anyone else
 * is told the path does not exist (no token set) or that the token is wrong (token set).
 */
export function metricsAccess(
  token: string | undefined,
  request: { remoteAddress: string | undefined; headers: Record<string, string | string[] | undefined> },
): 'allowed' | 'not-found' | 'unauthorised' {
  if (token) {
    const header = request.headers.authorization;
    const given = typeof header === 'string' && /^bearer /i.test(header) ? header.slice(7).trim() : undefined;
    return given && sameSecret(given, token) ? 'allowed' : 'unauthorised';
  }
  const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
  return !forwarded && isLoopbackAddress(request.remoteAddress) ? 'allowed' : 'not-found';
}
