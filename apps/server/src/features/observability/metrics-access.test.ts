import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, metricsAccess } from './metrics-access.js';

const TOKEN = 'a-long-enough-metrics-token';

describe('who may read /metrics', () => {
  it('without METRICS_TOKEN: this machine only, and never through a proxy', () => {
    expect(metricsAccess(undefined, { remoteAddress: '127.0.0.1', headers: {} })).toBe('allowed');
    expect(metricsAccess(undefined, { remoteAddress: '::ffff:127.0.0.1', headers: {} })).toBe('allowed');
    expect(metricsAccess(undefined, { remoteAddress: '::1', headers: {} })).toBe('allowed');
    expect(metricsAccess(undefined, { remoteAddress: '192.168.1.20', headers: {} })).toBe('not-found');
    expect(metricsAccess(undefined, { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } })).toBe('not-found');
    expect(metricsAccess(undefined, { remoteAddress: '127.0.0.1', headers: { forwarded: 'for=203.0.113.9' } })).toBe('not-found');
  });

  it('with METRICS_TOKEN: the bearer token from anywhere, nothing else (not even this machine)', () => {
    expect(metricsAccess(TOKEN, { remoteAddress: '10.0.0.9', headers: { authorization: `Bearer ${TOKEN}` } })).toBe('allowed');
    expect(metricsAccess(TOKEN, { remoteAddress: '127.0.0.1', headers: {} })).toBe('unauthorised');
    expect(metricsAccess(TOKEN, { remoteAddress: '10.0.0.9', headers: { authorization: `Bearer ${TOKEN}x` } })).toBe('unauthorised');
    expect(metricsAccess(TOKEN, { remoteAddress: '10.0.0.9', headers: { authorization: `Basic ${TOKEN}` } })).toBe('unauthorised');
  });

  it('knows loopback addresses', () => {
    expect(isLoopbackAddress('127.8.9.10')).toBe(true);
    expect(isLoopbackAddress('1127.0.0.1')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });
});
