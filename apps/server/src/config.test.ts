import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('settings of issue 17', () => {
  it('TRUST_PROXY: off by default; true, a hop count, or addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(
      new ConfigError('Setting TRUST_PROXY is invalid: "proxy.example.com" is not true, false, a hop count or an address/CIDR'),
    );
  });

  it('PORT given or not: only a default port may be replaced by a free one', () => {
    expect(loadConfig({}).portExplicit).toBe(false);
    expect(loadConfig({ PORT: '' }).portExplicit).toBe(false);
    expect(loadConfig({ PORT: '9000' })).toMatchObject({ port: 9000, portExplicit: true });
  });

  it('RATE_LIMIT_*: generous defaults, 0 turns a limit off', () => {
    expect(loadConfig({}).rateLimit).toEqual({ perToken: 1200, perAddress: 1200, windowMs: 60_000 });
    expect(loadConfig({ RATE_LIMIT_PER_TOKEN: '0', RATE_LIMIT_WINDOW_SECONDS: '10' }).rateLimit).toEqual({
      perToken: 0,
      perAddress: 1200,
      windowMs: 10_000,
    });
    expect(() => loadConfig({ RATE_LIMIT_PER_ADDRESS: '-1' })).toThrow(/Setting RATE_LIMIT_PER_ADDRESS is invalid/);
  });
});
