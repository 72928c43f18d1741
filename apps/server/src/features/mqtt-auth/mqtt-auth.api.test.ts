import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

// The mosquitto-go-auth HTTP backend protocol: JSON (or form) parameters in, the status out.
const TOKEN = 'broker-asks-with-this-token-1234';
const SN = 'GW16000001';
const OTHER = 'GW16000002';
let server: TestServer;

async function ask(path: string, body: Record<string, unknown>, token = TOKEN): Promise<number> {
  const response = await server.app.inject({ method: 'POST', url: `/api/mqtt-auth/${token}/${path}`, payload: body });
  return response.statusCode;
}

beforeAll(async () => {
  server = await startTestServer({ MQTT_AUTH_TOKEN: TOKEN });
  await server.registerGateway(SN, 'right-key-16');
  await server.registerGateway(OTHER, 'other-key-16');
});
afterAll(async () => {
  await server?.close();
});

describe('gateway checks for an external broker (MQTT_AUTH_TOKEN)', () => {
  it('lets a registered gateway log in with its key, SN as user name and client id', async () => {
    expect(await ask('user', { username: SN, password: 'right-key-16', clientid: SN })).toBe(200);
    expect(await ask('user', { username: SN, password: 'wrong-key', clientid: SN })).toBe(403);
    expect(await ask('user', { username: SN, password: 'right-key-16', clientid: OTHER })).toBe(403);
    expect(await ask('user', { username: 'GW16999999', password: 'right-key-16', clientid: 'GW16999999' })).toBe(403);
    expect(await ask('superuser', { username: SN })).toBe(403);
  });

  it('allows a gateway only its own topics', async () => {
    const topic = (sn: string, kind: string) => `sunward/v1/gw/${sn}/${kind}`;
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(SN, 'report'), acc: 2 })).toBe(200);
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(SN, 'status'), acc: 2 })).toBe(200);
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(SN, 'cmd'), acc: 4 })).toBe(200);
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(SN, 'cmd'), acc: 1 })).toBe(200);
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(OTHER, 'report'), acc: 2 })).toBe(403);
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(OTHER, 'cmd'), acc: 4 })).toBe(403);
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(SN, 'cmd'), acc: 2 })).toBe(403);
    expect(await ask('acl', { username: SN, clientid: SN, topic: 'sunward/v1/gw/+/report', acc: 4 })).toBe(403);
    // The answers to its refused reports and replies (issue 25): its own only, never published by it.
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(SN, 'report/refused'), acc: 4 })).toBe(200);
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(SN, 'reply/refused'), acc: 1 })).toBe(200);
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(OTHER, 'report/refused'), acc: 4 })).toBe(403);
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(SN, 'report/refused'), acc: 2 })).toBe(403);
    expect(await ask('acl', { username: SN, clientid: SN, topic: topic(SN, 'cmd/refused'), acc: 4 })).toBe(403);
  });

  it('answers a wrong token like a missing page, and takes form parameters too', async () => {
    expect(await ask('user', { username: SN, password: 'right-key-16', clientid: SN }, 'not-the-token-at-all-000000')).toBe(404);
    const form = await server.app.inject({
      method: 'POST',
      url: `/api/mqtt-auth/${TOKEN}/user`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=${SN}&password=right-key-16&clientid=${SN}`,
    });
    expect(form.statusCode).toBe(200);
  });
});
