import { setTimeout as delay } from 'node:timers/promises';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { holdOrderedAckSession, openOrderedAckSession } from './ordered-ack-session.js';

// The session an adopting process resumes (issue 26 part 5), on the machine's Mosquitto: runs in the api-postgres
// project, which has the machine's services (npm test says when that project is skipped).
const MOSQUITTO_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const run = `${process.pid}-${Date.now() % 100000}`;
const clients: mqtt.MqttClient[] = [];

/** The session's owner: a persistent MQTT 5 session. */
const ownerOptions = (clientId: string) =>
  ({ clientId, protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 300 }, reconnectPeriod: 0 }) as const;

/** A persistent session subscribed to `topic`, left offline with `count` QoS 1 messages queued for it. */
async function backlog(clientId: string, topic: string, count: number): Promise<void> {
  const owner = await mqtt.connectAsync(MOSQUITTO_URL, ownerOptions(clientId));
  await owner.subscribeAsync(topic, { qos: 1 });
  await owner.endAsync(true);
  const sender = await publisher();
  await Promise.all(Array.from({ length: count }, (_, i) => sender.publishAsync(topic, String(i), { qos: 1 })));
}

/** Resolves every handled message together every `ms`, like the ingest pipeline's batch commit. */
function batches(ms: number) {
  const waiting: Array<() => void> = [];
  let largest = 0;
  const timer = setInterval(() => {
    largest = Math.max(largest, waiting.length);
    for (const resolve of waiting.splice(0)) resolve();
  }, ms);
  return {
    commit: () => new Promise<void>((resolve) => waiting.push(resolve)),
    largest: () => largest,
    stop: () => clearInterval(timer),
  };
}

/** Resumes `clientId`'s session with `handle` storing its messages. */
const resume = (clientId: string, handle: (topic: string, payload: Buffer) => Promise<void>) =>
  openOrderedAckSession({ url: MOSQUITTO_URL, clientId, sessionExpirySeconds: 300, handle });

/** Holds `clientId`'s session subscribed to `topic`, reconnecting 100 ms after a drop. */
const hold = (clientId: string, topic: string, handle: (topic: string, payload: Buffer) => Promise<void>) =>
  holdOrderedAckSession({
    url: MOSQUITTO_URL,
    clientId,
    sessionExpirySeconds: 300,
    reconnectMs: 100,
    handle,
    onConnect: (session) => session.subscribe([topic]),
    onError: () => undefined,
  });

/** A plain publisher, closed after the tests. */
async function publisher(): Promise<mqtt.MqttClient> {
  const client = await mqtt.connectAsync(MOSQUITTO_URL, { protocolVersion: 5, reconnectPeriod: 0 });
  clients.push(client);
  return client;
}

afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
});

describe.runIf(process.env.TEST_DATABASE === 'postgres')('an adopted broker session (ordered acknowledgements)', () => {
  it('takes the broker’s whole in-flight window into one batch, handles the backlog in order and ends the session', async () => {
    const clientId = `ordered-${run}-a`;
    const topic = `test/${run}/a`;
    await backlog(clientId, topic, 400);
    const batch = batches(25);
    const seen: number[] = [];
    const started = Date.now();
    const session = await resume(clientId, async (_topic, payload) => {
      seen.push(Number(payload.toString()));
      await batch.commit();
    });
    expect(session.sessionPresent).toBe(true);
    await expect.poll(() => session.handled, { timeout: 20_000 }).toBe(400);
    const took = Date.now() - started;
    batch.stop();
    expect(seen).toEqual(Array.from({ length: 400 }, (_, i) => i));
    // One message per commit (mqtt.js) would take 400 × 25 ms = 10 s; Mosquitto's default window is 20.
    expect(batch.largest()).toBeGreaterThanOrEqual(10);
    expect(took).toBeLessThan(5000);
    await session.end();
    expect(session.closed).toBe(true);
    // Ended (expiry 0): nothing is left on the broker for that client id.
    const again = await resume(clientId, async () => undefined);
    expect(again.sessionPresent).toBe(false);
    await again.end();
  });

  it('acknowledges only up to the first message not stored: it and everything after it are delivered again', async () => {
    const clientId = `ordered-${run}-b`;
    const topic = `test/${run}/b`;
    await backlog(clientId, topic, 10);
    // Later messages are stored before earlier ones; message 4 fails.
    const first = await resume(clientId, (_topic, payload) => {
      const n = Number(payload.toString());
      if (n === 4) return new Promise((_resolve, reject) => setTimeout(() => reject(new Error('not stored')), 200));
      return new Promise((resolve) => setTimeout(resolve, n < 4 ? 20 : 5));
    });
    await expect.poll(() => first.closed).toBe(true);
    expect(first.failure).toBeInstanceOf(Error);
    expect(first.handled).toBe(4);

    const again: number[] = [];
    const second = await resume(clientId, async (_topic, payload) => {
      again.push(Number(payload.toString()));
    });
    expect(second.sessionPresent).toBe(true);
    await expect.poll(() => second.handled).toBe(6);
    expect(again).toEqual([4, 5, 6, 7, 8, 9]);
    await second.end();
  });

  it('closes without a failure when the session’s owner comes back and takes it', async () => {
    const clientId = `ordered-${run}-c`;
    const topic = `test/${run}/c`;
    await backlog(clientId, topic, 1);
    const session = await resume(clientId, async () => undefined);
    await expect.poll(() => session.handled).toBe(1);
    const owner = await mqtt.connectAsync(MOSQUITTO_URL, ownerOptions(clientId));
    await expect.poll(() => session.closed).toBe(true);
    expect(session.failure).toBeUndefined();
    await owner.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
  });

  it('held: connects again after the connection is lost, subscribes again and ends the session on close', async () => {
    const clientId = `ordered-${run}-e`;
    const topic = `test/${run}/e`;
    const seen: string[] = [];
    const held = hold(clientId, topic, async (_topic, payload) => {
      seen.push(payload.toString());
    });
    await held.ready;
    const sender = await publisher();
    await sender.publishAsync(topic, 'before', { qos: 1 });
    await expect.poll(() => seen).toEqual(['before']);
    // Another connection under the same client id takes the session: the broker drops the held one.
    const intruder = await mqtt.connectAsync(MOSQUITTO_URL, ownerOptions(clientId));
    await intruder.endAsync(true);
    await expect.poll(() => held.connected).toBe(true);
    await sender.publishAsync(topic, 'after', { qos: 1 });
    await expect.poll(() => seen).toEqual(['before', 'after']);
    await held.close();
    expect(held.connected).toBe(false);
    // Closed: the session is gone from the broker.
    const again = await resume(clientId, async () => undefined);
    expect(again.sessionPresent).toBe(false);
    await again.end();
  });

  it('stops reading while 500 messages wait to be stored (QoS 0 is not bounded by the broker’s in-flight window)', async () => {
    const clientId = `ordered-${run}-f`;
    const topic = `test/${run}/f`;
    const release: (() => void)[] = [];
    const held = hold(clientId, topic, () => new Promise<void>((resolve) => release.push(resolve)));
    await held.ready;
    const sender = await publisher();
    const body = Buffer.alloc(200, 1);
    await Promise.all(Array.from({ length: 3000 }, () => sender.publishAsync(topic, body, { qos: 0 })));
    await expect.poll(() => release.length).toBeGreaterThanOrEqual(500);
    // What one read of the socket held past the limit arrives too; then nothing more until some are stored.
    await delay(300);
    expect(release.length).toBeLessThan(1000);
    // Stored: it reads again; store everything until nothing more comes.
    for (let quiet = 0; quiet < 5; quiet = release.length === 0 ? quiet + 1 : 0) {
      for (const resolve of release.splice(0)) resolve();
      await delay(100);
    }
    await held.close();
  });

  it('fails to open, with the reason, when the broker is not there', async () => {
    await expect(
      openOrderedAckSession({
        url: 'mqtt://127.0.0.1:9',
        clientId: `ordered-${run}-d`,
        sessionExpirySeconds: 10,
        handle: async () => undefined,
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
