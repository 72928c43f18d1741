import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Outbound HTTP to addresses chosen by users (webhooks, issue 25) reaches the public internet only: never this
 * machine, its private networks, link-local cloud metadata (169.254.169.254), unique-local, multicast, unspecified
 * or reserved addresses, IPv4 or IPv6, IPv4-mapped IPv6 (::ffff:127.0.0.1) and the IPv4 inside NAT64 and 6to4
 * addresses included. The address is checked when a user gives the URL (a name resolved then) and again on every
 * connection, on the address actually connected to (the lookup of the connection itself), so a name that
 * resolves to a public address at creation and to a private one later (DNS rebinding) is refused too.
 */

/** Why an address is not public. */
export type NonPublicKind = 'unspecified' | 'loopback' | 'private' | 'link-local' | 'unique-local' | 'multicast' | 'reserved';

const RANGES: readonly (readonly [NonPublicKind, string, number, 'ipv4' | 'ipv6'])[] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  // Carrier-grade NAT (RFC 6598): the provider's network, not the internet.
  ['private', '100.64.0.0', 10, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['unique-local', 'fc00::', 7, 'ipv6'],
  // Site-local (deprecated by RFC 3879, still routed inside some networks).
  ['unique-local', 'fec0::', 10, 'ipv6'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['multicast', 'ff00::', 8, 'ipv6'],
  // IETF protocol assignments, documentation, benchmarking, future use and broadcast (240/4 holds 255.255.255.255).
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  // IPv4-compatible (deprecated), discard-only, documentation, local-use NAT64.
  ['reserved', '::', 96, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
  ['reserved', '2001:db8::', 32, 'ipv6'],
  ['reserved', '64:ff9b:1::', 48, 'ipv6'],
];

const LISTS: readonly (readonly [NonPublicKind, BlockList])[] = (() => {
  const byKind = new Map<NonPublicKind, BlockList>();
  for (const [kind, network, prefix, type] of RANGES) {
    const list = byKind.get(kind) ?? new BlockList();
    list.addSubnet(network, prefix, type);
    byKind.set(kind, list);
  }
  return [...byKind];
})();

/** An IPv6 address in its canonical form (`::ffff:7f00:1`), or undefined when the text is not one. */
function canonicalIpv6(address: string): string | undefined {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** The IPv4 address in the last 32 bits of an IPv6 address (`7f00:1` → 127.0.0.1). */
function embeddedIpv4(high: string, low: string): string {
  const a = Number.parseInt(high, 16);
  const b = Number.parseInt(low, 16);
  return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
}

/**
 * The IPv4 address an IPv6 address stands for, when it does: IPv4-mapped (::ffff:a.b.c.d), NAT64
 * (64:ff9b::a.b.c.d, which a NAT64 gateway translates) and 6to4 (2002:aabb:ccdd::, relayed to a.b.c.d).
 */
function ipv4Inside(ipv6: string): string | undefined {
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ipv6) ?? /^64:ff9b::([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ipv6);
  if (mapped?.[1] && mapped[2]) return embeddedIpv4(mapped[1], mapped[2]);
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(:|$)/.exec(ipv6);
  if (sixToFour?.[1] && sixToFour[2]) return embeddedIpv4(sixToFour[1], sixToFour[2]);
  return undefined;
}

/** Why an IP address is not a public one, or undefined when it is public. Text that is not an IP address is 'reserved'. */
export function nonPublicKind(address: string): NonPublicKind | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const version = isIP(bare);
  if (version === 4) return LISTS.find(([, list]) => list.check(bare, 'ipv4'))?.[0];
  if (version !== 6) return 'reserved';
  // A zone index (fe80::1%eth0) names an interface of this machine.
  if (bare.includes('%')) return 'link-local';
  const ipv6 = canonicalIpv6(bare);
  if (ipv6 === undefined) return 'reserved';
  const inside = ipv4Inside(ipv6);
  if (inside !== undefined) return nonPublicKind(inside);
  return LISTS.find(([, list]) => list.check(ipv6, 'ipv6'))?.[0];
}

/** A connection refused because the address it would reach is not public. */
export class AddressRefusedError extends Error {
  readonly code = 'ERR_ADDRESS_NOT_PUBLIC';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: NonPublicKind,
  ) {
    super(
      host === address
        ? `refused: ${address} is a ${kind} address (webhooks reach public addresses only)`
        : `refused: ${host} resolves to ${address}, a ${kind} address (webhooks reach public addresses only)`,
    );
  }
}

/** The host of a URL as a connection uses it: IPv6 without its brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

type Resolve = (host: string) => Promise<readonly LookupAddress[]>;

const resolveAll: Resolve = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/**
 * The refusal for a URL a user gives, or undefined when it may be used: its host is a public IP address, or a name
 * none of whose addresses is non-public. A name that does not resolve now (or not within `timeoutMs`) is accepted:
 * every connection checks again.
 */
export async function urlRefusal(
  text: string,
  options: { timeoutMs?: number; resolve?: Resolve } = {},
): Promise<AddressRefusedError | undefined> {
  const host = hostOf(new URL(text));
  if (isIP(host) !== 0) {
    const kind = nonPublicKind(host);
    return kind ? new AddressRefusedError(host, host, kind) : undefined;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<readonly LookupAddress[]>((resolve) => {
    timer = setTimeout(() => resolve([]), options.timeoutMs ?? 3000);
  });
  try {
    const addresses = await Promise.race([(options.resolve ?? resolveAll)(host).catch(() => []), timeout]);
    for (const { address } of addresses) {
      const kind = nonPublicKind(address);
      if (kind) return new AddressRefusedError(host, address, kind);
    }
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A lookup for `http.request` that fails the connection when any address of the name is not public: the check is
 * on the addresses the socket then connects to, so it cannot be raced by a second resolution.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupAllOptions), all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    for (const { address } of addresses) {
      const kind = nonPublicKind(address);
      if (kind) return callback(new AddressRefusedError(hostname, address, kind), '', 4);
    }
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
    if ((options as LookupAllOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, first.address, first.family);
  });
};

/**
 * POSTs a body and answers the HTTP status (the answer's body is read and dropped). Redirects are not followed.
 * Unless `allowPrivate` (on-premise installs with local receivers, tests), a URL whose address is not public is
 * refused with an AddressRefusedError before anything is sent.
 */
export function postOutbound(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const host = hostOf(target);
    if (!options.allowPrivate && isIP(host) !== 0) {
      const kind = nonPublicKind(host);
      if (kind) return reject(new AddressRefusedError(host, host, kind));
    }
    const send = target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : undefined;
    if (!send) return reject(new Error(`unsupported protocol ${target.protocol}`));
    const request = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        resolve(response.statusCode ?? 0);
        // The answer's body is not needed: drained (cut by the timeout at the latest) and dropped.
        response.on('error', () => undefined);
        response.resume();
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
