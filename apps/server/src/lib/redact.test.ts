import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { isSecretName, loggerOptions, redactUrl } from './redact.js';

describe('redactUrl', () => {
  it('blanks verification codes, passwords, tokens, keys and signatures in query strings, keeping the rest', () => {
    expect(redactUrl('/anonymous/checkCode?account=a%40b.test&code=123456&type=1')).toBe(
      '/anonymous/checkCode?account=a%40b.test&code=[redacted]&type=1',
    );
    expect(redactUrl('/x?password=hunter2&newKey=K1&access_token=t&sig=ab&verifyCode=9&keyword=solar')).toBe(
      '/x?password=[redacted]&newKey=[redacted]&access_token=[redacted]&sig=[redacted]&verifyCode=[redacted]&keyword=solar',
    );
    expect(redactUrl('/api/v1/plants?keyword=key&page=1')).toBe('/api/v1/plants?keyword=key&page=1');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
    expect(redactUrl('/x?%E0%A4%A=1&code')).toBe('/x?%E0%A4%A=1&code');
  });

  it('judges names word by word', () => {
    for (const name of ['code', 'smsCode', 'refresh_token', 'x-api-key', 'Password', 'otp', 'codes[]'])
      expect(isSecretName(name.replace('[]', ''))).toBe(true);
    for (const name of ['keyword', 'account', 'plantId', 'encoding']) expect(isSecretName(name)).toBe(false);
  });
});

describe('the server’s request log', () => {
  it('never holds a verification code or token sent in the query string', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ loggerInstance: pino(loggerOptions('info'), stream) });
    app.get('/anonymous/checkCode', async () => ({ ok: true }));
    app.get('/api/v1/firmware/image', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/anonymous/checkCode?account=me%40x.test&code=482913&type=1' });
    await app.inject({ method: 'GET', url: '/api/v1/firmware/image?exp=1&sig=deadbeef&token=s3cr3t' });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/anonymous/checkCode?account=me%40x.test&code=[redacted]&type=1');
    expect(log).not.toContain('482913');
    expect(log).not.toContain('deadbeef');
    expect(log).not.toContain('s3cr3t');
  });
});
