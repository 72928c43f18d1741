import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefusedError, nonPublicKind, postOutbound, urlRefusal } from './outbound-address.js';

describe('nonPublicKind', () => {
  it('names loopback, private, link-local, unique-local, multicast, unspecified and reserved addresses, IPv4 and IPv6', () => {
    expect(nonPublicKind('127.0.0.1')).toBe('loopback');
    expect(nonPublicKind('127.255.0.9')).toBe('loopback');
    expect(nonPublicKind('::1')).toBe('loopback');
    expect(nonPublicKind('[::1]')).toBe('loopback');
    expect(nonPublicKind('10.1.2.3')).toBe('private');
    expect(nonPublicKind('172.31.255.255')).toBe('private');
    expect(nonPublicKind('192.168.0.10')).toBe('private');
    expect(nonPublicKind('100.64.0.1')).toBe('private');
    expect(nonPublicKind('169.254.169.254')).toBe('link-local');
    expect(nonPublicKind('fe80::1')).toBe('link-local');
    expect(nonPublicKind('fe80::1%eth0')).toBe('link-local');
    expect(nonPublicKind('fd12:3456::1')).toBe('unique-local');
    expect(nonPublicKind('fc00::1')).toBe('unique-local');
    expect(nonPublicKind('224.0.0.1')).toBe('multicast');
    expect(nonPublicKind('ff02::1')).toBe('multicast');
    expect(nonPublicKind('0.0.0.0')).toBe('unspecified');
    expect(nonPublicKind('::')).toBe('unspecified');
    expect(nonPublicKind('255.255.255.255')).toBe('reserved');
    expect(nonPublicKind('2001:db8::1')).toBe('reserved');
    expect(nonPublicKind('not an address')).toBe('reserved');
  });

  it('looks at the IPv4 address inside IPv4-mapped, NAT64 and 6to4 IPv6 addresses', () => {
    expect(nonPublicKind('::ffff:127.0.0.1')).toBe('loopback');
    expect(nonPublicKind('::ffff:7f00:1')).toBe('loopback');
    expect(nonPublicKind('0:0:0:0:0:ffff:a9fe:a9fe')).toBe('link-local');
    expect(nonPublicKind('64:ff9b::10.0.0.1')).toBe('private');
    expect(nonPublicKind('2002:c0a8:0101::1')).toBe('private');
    expect(nonPublicKind('::ffff:8.8.8.8')).toBeUndefined();
  });

  it('passes public addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e'])
      expect(nonPublicKind(address), address).toBeUndefined();
  });
});

describe('urlRefusal', () => {
  it('refuses an IP literal that is not public, and a name that resolves to one', async () => {
    expect((await urlRefusal('http://127.0.0.1:8080/hook'))?.kind).toBe('loopback');
    expect((await urlRefusal('http://[::ffff:127.0.0.1]/'))?.kind).toBe('loopback');
    expect((await urlRefusal('http://2130706433/'))?.kind).toBe('loopback');
    const rebinding = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    const refusal = await urlRefusal('https://hooks.example.net/x', { resolve: rebinding });
    expect(refusal).toBeInstanceOf(AddressRefusedError);
    expect(refusal?.message).toBe(
      'refused: hooks.example.net resolves to 10.0.0.7, a private address (webhooks reach public addresses only)',
    );
  });

  it('accepts public addresses, and names that do not resolve now (each connection checks again)', async () => {
    expect(await urlRefusal('https://93.184.216.34/hook')).toBeUndefined();
    expect(
      await urlRefusal('https://hooks.example.net/', { resolve: async () => [{ address: '93.184.216.34', family: 4 }] }),
    ).toBeUndefined();
    expect(await urlRefusal('https://nowhere.invalid/', { resolve: () => Promise.reject(new Error('ENOTFOUND')) })).toBeUndefined();
    expect(await urlRefusal('https://slow.example.net/', { resolve: () => new Promise(() => undefined), timeoutMs: 10 })).toBeUndefined();
  });
});

describe('postOutbound', () => {
  let receiver: Server;
  let hits = 0;
  let port = 0;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      hits++;
      req.resume();
      req.on('end', () => res.writeHead(req.url === '/moved' ? 302 : 204, { location: 'http://127.0.0.1/' }).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('refuses a loopback address, literal or by name (the connection’s own lookup), before sending anything', async () => {
    const options = { timeoutMs: 2000, allowPrivate: false };
    await expect(postOutbound(`http://127.0.0.1:${port}/`, '{}', {}, options)).rejects.toBeInstanceOf(AddressRefusedError);
    await expect(postOutbound(`http://[::ffff:127.0.0.1]:${port}/`, '{}', {}, options)).rejects.toBeInstanceOf(AddressRefusedError);
    await expect(postOutbound(`http://localhost:${port}/`, '{}', {}, options)).rejects.toThrow(/^refused: localhost resolves to/);
    expect(hits).toBe(0);
  });

  it('delivers to a local receiver when private addresses are allowed, and follows no redirect', async () => {
    const options = { timeoutMs: 2000, allowPrivate: true };
    expect(await postOutbound(`http://127.0.0.1:${port}/hook`, '{"a":1}', { 'content-type': 'application/json' }, options)).toBe(204);
    expect(await postOutbound(`http://localhost:${port}/moved`, '{}', {}, options)).toBe(302);
    expect(hits).toBe(2);
  });
});
