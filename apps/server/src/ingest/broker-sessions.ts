import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import { mqttOutgoing, mqttSubscriptions } from '../db/schema.js';

/** What the broker hands us: a client (by id) and packets with aedes' identity fields. */
interface ClientRef {
  id: string;
}
interface SubscriptionRef {
  topic: string;
  qos: number;
}
interface StoredPacket {
  cmd?: string;
  topic: string;
  payload: Buffer | string;
  qos: number;
  retain?: boolean;
  dup?: boolean;
  brokerId: string;
  brokerCounter: number;
  messageId?: number | undefined;
}

/** aedes-persistence's in-memory store, called the promise way (aedes 1.x calls it without callbacks). */
interface MemoryStore {
  setup(broker: unknown): Promise<void>;
  storeRetained(packet: unknown): Promise<void>;
  createRetainedStream(pattern: string): Readable;
  createRetainedStreamCombi(patterns: string[]): Readable;
  addSubscriptions(client: ClientRef, subs: SubscriptionRef[]): Promise<void>;
  removeSubscriptions(client: ClientRef, topics: string[]): Promise<void>;
  subscriptionsByClient(client: ClientRef): Promise<unknown[]>;
  countOffline(): Promise<unknown>;
  subscriptionsByTopic(pattern: string): Promise<unknown[]>;
  cleanSubscriptions(client: ClientRef): Promise<void>;
  outgoingEnqueue(sub: { clientId: string }, packet: StoredPacket): Promise<void>;
  outgoingEnqueueCombi(subs: { clientId: string }[], packet: StoredPacket): Promise<void>;
  outgoingUpdate(client: ClientRef, packet: StoredPacket): Promise<void>;
  outgoingClearMessageId(client: ClientRef, packet: StoredPacket): Promise<StoredPacket | undefined>;
  outgoingStream(client: ClientRef): Readable;
  incomingStorePacket(client: ClientRef, packet: unknown): Promise<void>;
  incomingGetPacket(client: ClientRef, packet: unknown): Promise<unknown>;
  incomingDelPacket(client: ClientRef, packet: unknown): Promise<void>;
  cleanIncoming?(client: ClientRef): Promise<void>;
  putWill(client: ClientRef, packet: unknown): Promise<void>;
  getWill(client: ClientRef): Promise<unknown>;
  delWill(client: ClientRef): Promise<unknown>;
  streamWill(brokers?: unknown): Readable;
  getClientList(topic: string): Readable;
  destroy(): Promise<void>;
}

// A CommonJS module whose typings declare an ES default export: loaded as what it is, a factory function.
const memoryPersistence = createRequire(import.meta.url)('aedes-persistence') as () => unknown;

/** How long an unacknowledged message waits for its client at most (pruned at start). */
const OUTGOING_KEPT_MS = 7 * 86_400_000;

function payloadText(payload: Buffer | string): string {
  return (Buffer.isBuffer(payload) ? payload : Buffer.from(payload)).toString('base64');
}

/**
 * Persistent MQTT sessions for the embedded broker (aedes), kept in the database: a gateway that connects
 * with clean session = false finds its subscriptions and its unacknowledged QoS 1 messages (commands)
 * again after a server restart or crash, and is told so (CONNACK sessionPresent = 1).
 *
 * The broker works on aedes' in-memory store (topic matching, queues in order); every change to what a
 * session holds is also written to `mqtt_subscriptions` / `mqtt_outgoing` before the broker goes on, and
 * the store is loaded from there at start. Kept: subscriptions and outgoing QoS ≥ 1 messages of persistent
 * sessions. Not kept (no use to gateways, which subscribe only to their command and refusal topics, never retained): retained messages,
 * wills, and QoS 2 messages half-received from a client; messages older than a week are dropped at start.
 * A failed write is logged and the broker carries on with the session in memory, as before this store existed.
 */
export function createBrokerSessions(db: Database, log: FastifyBaseLogger) {
  const memory = memoryPersistence() as MemoryStore;

  async function write(what: string, action: () => Promise<unknown>): Promise<void> {
    try {
      await action();
    } catch (error) {
      log.error({ err: error, event: 'mqtt_session_write_failed', what }, 'broker session not saved: kept in memory only');
    }
  }

  async function enqueue(clientIds: string[], packet: StoredPacket): Promise<void> {
    if (clientIds.length === 0) return;
    await write('enqueue', () =>
      db
        .insert(mqttOutgoing)
        .values(
          clientIds.map((clientId) => ({
            clientId,
            brokerId: packet.brokerId,
            brokerCounter: packet.brokerCounter,
            topic: packet.topic,
            payload: payloadText(packet.payload),
            qos: packet.qos,
          })),
        )
        .onConflictDoNothing(),
    );
  }

  const store = {
    async setup(broker: unknown): Promise<void> {
      await memory.setup(broker);
      const subscriptions = await db.select().from(mqttSubscriptions);
      const byClient = new Map<string, SubscriptionRef[]>();
      for (const s of subscriptions) {
        const list = byClient.get(s.clientId) ?? [];
        list.push({ topic: s.topic, qos: s.qos });
        byClient.set(s.clientId, list);
      }
      for (const [id, subs] of byClient) await memory.addSubscriptions({ id }, subs);
      // A message nobody collected in a week (a gateway gone for good) is not worth delivering: commands
      // carry a far shorter expiresAt, and the queue of a vanished gateway must not grow for ever.
      await db.delete(mqttOutgoing).where(lt(mqttOutgoing.createdAt, new Date(Date.now() - OUTGOING_KEPT_MS)));
      // In the order the broker queued them: its counter, not the row id (parallel inserts on a pool commit in
      // any order); the queues of earlier broker processes first.
      const outgoing = await db
        .select()
        .from(mqttOutgoing)
        .orderBy(
          sql`min(${mqttOutgoing.createdAt}) over (partition by ${mqttOutgoing.brokerId})`,
          asc(mqttOutgoing.brokerId),
          asc(mqttOutgoing.brokerCounter),
        );
      for (const o of outgoing)
        await memory.outgoingEnqueue(
          { clientId: o.clientId },
          {
            cmd: 'publish',
            topic: o.topic,
            payload: Buffer.from(o.payload, 'base64'),
            qos: o.qos,
            retain: false,
            dup: false,
            brokerId: o.brokerId,
            brokerCounter: o.brokerCounter,
          },
        );
      if (byClient.size > 0 || outgoing.length > 0)
        log.info({ sessions: byClient.size, queued: outgoing.length }, 'MQTT sessions restored');
    },

    storeRetained: (packet: unknown) => memory.storeRetained(packet),
    createRetainedStream: (pattern: string) => memory.createRetainedStream(pattern),
    createRetainedStreamCombi: (patterns: string[]) => memory.createRetainedStreamCombi(patterns),

    async addSubscriptions(client: ClientRef, subs: SubscriptionRef[]): Promise<void> {
      await memory.addSubscriptions(client, subs);
      if (subs.length === 0) return;
      await write('subscribe', () =>
        db
          .insert(mqttSubscriptions)
          .values(subs.map((s) => ({ clientId: client.id, topic: s.topic, qos: s.qos })))
          .onConflictDoUpdate({ target: [mqttSubscriptions.clientId, mqttSubscriptions.topic], set: { qos: sql`excluded.qos` } }),
      );
    },

    async removeSubscriptions(client: ClientRef, topics: string[]): Promise<void> {
      await memory.removeSubscriptions(client, topics);
      if (topics.length === 0) return;
      await write('unsubscribe', () =>
        db.delete(mqttSubscriptions).where(and(eq(mqttSubscriptions.clientId, client.id), inArray(mqttSubscriptions.topic, topics))),
      );
    },

    subscriptionsByClient: (client: ClientRef) => memory.subscriptionsByClient(client),
    countOffline: () => memory.countOffline(),
    subscriptionsByTopic: (pattern: string) => memory.subscriptionsByTopic(pattern),

    async cleanSubscriptions(client: ClientRef): Promise<void> {
      await memory.cleanSubscriptions(client);
      await write('clean session', () => db.delete(mqttSubscriptions).where(eq(mqttSubscriptions.clientId, client.id)));
    },

    async outgoingEnqueue(sub: { clientId: string }, packet: StoredPacket): Promise<void> {
      await memory.outgoingEnqueue(sub, packet);
      if (packet.qos > 0) await enqueue([sub.clientId], packet);
    },

    async outgoingEnqueueCombi(subs: { clientId: string }[], packet: StoredPacket): Promise<void> {
      await memory.outgoingEnqueueCombi(subs, packet);
      if (packet.qos > 0)
        await enqueue(
          subs.map((s) => s.clientId),
          packet,
        );
    },

    async outgoingUpdate(client: ClientRef, packet: StoredPacket): Promise<void> {
      await memory.outgoingUpdate(client, packet);
      const messageId = packet.messageId;
      if (messageId === undefined) return;
      await write('update', () =>
        db
          .update(mqttOutgoing)
          .set({ messageId })
          .where(
            and(
              eq(mqttOutgoing.clientId, client.id),
              eq(mqttOutgoing.brokerId, packet.brokerId),
              eq(mqttOutgoing.brokerCounter, packet.brokerCounter),
            ),
          ),
      );
    },

    async outgoingClearMessageId(client: ClientRef, packet: StoredPacket): Promise<StoredPacket | undefined> {
      const cleared = await memory.outgoingClearMessageId(client, packet);
      if (cleared)
        await write('acknowledged', () =>
          db
            .delete(mqttOutgoing)
            .where(
              and(
                eq(mqttOutgoing.clientId, client.id),
                eq(mqttOutgoing.brokerId, cleared.brokerId),
                eq(mqttOutgoing.brokerCounter, cleared.brokerCounter),
              ),
            ),
        );
      return cleared;
    },

    outgoingStream: (client: ClientRef) => memory.outgoingStream(client),
    incomingStorePacket: (client: ClientRef, packet: unknown) => memory.incomingStorePacket(client, packet),
    incomingGetPacket: (client: ClientRef, packet: unknown) => memory.incomingGetPacket(client, packet),
    incomingDelPacket: (client: ClientRef, packet: unknown) => memory.incomingDelPacket(client, packet),
    cleanIncoming: async (client: ClientRef) => memory.cleanIncoming?.(client),
    putWill: (client: ClientRef, packet: unknown) => memory.putWill(client, packet),
    getWill: (client: ClientRef) => memory.getWill(client),
    delWill: (client: ClientRef) => memory.delWill(client),
    streamWill: (brokers?: unknown) => memory.streamWill(brokers),
    getClientList: (topic: string) => memory.getClientList(topic),
    destroy: () => memory.destroy(),
  };
  return store;
}
