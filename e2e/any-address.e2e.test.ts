import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

// Issue 17: the console opens over plain HTTP by a host name (not localhost, which browsers treat as secure),
// and through a TLS-terminating reverse proxy that the server trusts (TRUST_PROXY).
const HOST = 'sunward.test';
let server: TestServer;
let browser: Browser;
let proxy: HttpsServer;
let proxyPort = 0;
const certDir = mkdtempSync(join(tmpdir(), 'sunward-proxy-'));

/** A throwaway self-signed certificate for the host name, made for this run. */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${HOST}`, '-addext', `subjectAltName=DNS:${HOST}`].concat(
      ['-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem')],
    ),
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) };
}

/** The reverse proxy: TLS in front, plain HTTP to the server, with the usual X-Forwarded-* headers. */
function startProxy(target: number): Promise<HttpsServer> {
  const https = createHttpsServer(selfSignedCertificate(), (req, res) => {
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: target,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          'x-forwarded-proto': 'https',
          'x-forwarded-host': req.headers.host ?? HOST,
          'x-forwarded-for': req.socket.remoteAddress ?? '',
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => https.listen(0, '127.0.0.1', () => resolve(https)));
}

beforeAll(async () => {
  // The proxy reaches the server from 127.0.0.1: that address is the one proxy the server believes.
  server = await startProduct({ TRUST_PROXY: '127.0.0.1' });
  proxy = await startProxy(server.port);
  const address = proxy.address();
  proxyPort = typeof address === 'object' && address ? address.port : 0;
  browser = await launchBrowser([
    `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
    // The proxy's certificate is self-signed for this run.
    '--ignore-certificate-errors',
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  proxy?.closeAllConnections();
  proxy?.close();
  await server?.close();
  rmSync(certDir, { recursive: true, force: true });
});

describe('the console by any address', () => {
  it('over plain HTTP by host name: the console shows, signs in, and no header points to https', async () => {
    const { page, context, errors } = await openPage(browser, `http://${HOST}:${server.port}`);
    const document = await page.goto('/login');
    const headers = (await document?.allHeaders()) ?? {};
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers['strict-transport-security']).toBeUndefined();
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    expect(new URL(page.url()).protocol).toBe('http:');
    expect(new URL(page.url()).hostname).toBe(HOST);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('through a TLS-terminating proxy the server trusts: signs in, with HSTS and upgrade-insecure-requests', async () => {
    const { page, context, errors } = await openPage(browser, `https://${HOST}:${proxyPort}`);
    const document = await page.goto('/login');
    const headers = (await document?.allHeaders()) ?? {};
    expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    expect(new URL(page.url()).protocol).toBe('https:');
    // The session lives in the page (bearer tokens), not in cookies: nothing to mark Secure.
    expect(await context.cookies()).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
