import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

// Issue 17: the console works over plain HTTP by any name, and behind a TLS-terminating proxy.
describe('security headers follow the scheme of the request', () => {
  let direct: TestServer;
  let proxied: TestServer;
  beforeAll(async () => {
    [direct, proxied] = await Promise.all([startTestServer(), startTestServer({ TRUST_PROXY: '127.0.0.1' })]);
  });
  afterAll(async () => {
    await Promise.all([direct?.close(), proxied?.close()]);
  });

  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7', 'x-forwarded-host': 'console.example.com' };

  it('plain HTTP (any host name): CSP without upgrade-insecure-requests, no HSTS', async () => {
    const answer = await direct.app.inject({ url: '/api/health', headers: { host: 'sunward.lan:8080' } });
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect(answer.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(answer.headers['strict-transport-security']).toBeUndefined();
    // Ignored by browsers there (with a console error): left out. Kept on localhost.
    expect(answer.headers['cross-origin-opener-policy']).toBeUndefined();
    const local = await direct.app.inject({ url: '/api/health', headers: { host: 'localhost:8080' } });
    expect(local.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('forwarded headers are ignored unless TRUST_PROXY names the proxy', async () => {
    const answer = await direct.app.inject({ url: '/api/health', headers: forwarded });
    expect(answer.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });

  it('https through a trusted proxy: upgrade-insecure-requests and HSTS', async () => {
    const answer = await proxied.app.inject({ url: '/api/health', headers: forwarded });
    expect(answer.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(answer.headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    // The same proxy over plain HTTP: nothing to upgrade to.
    const plain = await proxied.app.inject({ url: '/api/health', headers: { ...forwarded, 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(plain.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});
