import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsProvider } from './sms-provider.js';

const requests: { auth: string | undefined; body: unknown }[] = [];
const http = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => {
    body += c.toString();
  });
  req.on('end', () => {
    const parsed: { to: string } = JSON.parse(body);
    requests.push({ auth: req.headers.authorization, body: parsed });
    if (parsed.to === '+000000000') {
      res.writeHead(422).end('invalid number');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'msg-42' }));
  });
});
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/sms`;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

describe('SMS providers', () => {
  it('without a provider only records: nothing leaves the server', async () => {
    expect(await createSmsProvider({ kind: 'log' }).send('+4915112345678', 'hi')).toEqual({ status: 'logged', providerId: null });
  });

  it('posts {to, text} with the bearer token to the HTTP provider and keeps its id', async () => {
    const provider = createSmsProvider({ kind: 'http', url, token: 'secret', timeoutMs: 5000 });
    expect(await provider.send('+4915112345678', 'Grid work')).toEqual({ status: 'sent', providerId: 'msg-42' });
    expect(requests.at(-1)).toEqual({ auth: 'Bearer secret', body: { to: '+4915112345678', text: 'Grid work' } });
  });

  it('rejects with the provider’s answer when it refuses', async () => {
    const provider = createSmsProvider({ kind: 'http', url, token: undefined, timeoutMs: 5000 });
    await expect(provider.send('+000000000', 'x')).rejects.toThrow(/HTTP 422: invalid number/);
  });
});
