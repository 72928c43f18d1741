import net from 'node:net';
import tls from 'node:tls';
import { generate, type Packet, parser } from 'mqtt-packet';
import { every } from '../jobs/timers.js';
import { MAX_MQTT_PACKET_BYTES } from './mqtt-frame-guard.js';

/**
 * One persistent MQTT 5 session on an external broker whose messages are handled several at a time and
 * acknowledged in the order they arrived, each only once it is stored.
 *
 * mqtt.js reads a connection's next packet only after the previous QoS 1 message was acknowledged
 * (`customHandleAcks`), so a consumer that acknowledges after its batch commit takes one report per commit from
 * each connection. That is enough for the live share group, which spreads the load over many connections, but a
 * dead process's session adopted by another (consumer-sessions.ts) holds a backlog that drained at one report per
 * commit (measured: about 75 s for 10 s of a process's share). Here the broker's in-flight window (the smaller of
 * our Receive Maximum and its own limit, 20 in Mosquitto's default) arrives at once, all of it joins the same batch,
 * and the PUBACKs leave in arrival order as MQTT requires (MQTT 5 §4.6).
 */
export interface OrderedAckSession {
  /** The broker still held this client id's session (what it kept for it is delivered next). */
  readonly sessionPresent: boolean;
  /** Messages handled and acknowledged. */
  readonly handled: number;
  /** Messages received and not yet acknowledged. */
  readonly pending: number;
  /** When the last message arrived (Date.now()); the connection time until one does. */
  readonly lastMessageAt: number;
  /** The connection is gone (ended, dropped, or the session was taken over by its owner). */
  readonly closed: boolean;
  /** The first message that could not be handled: it and everything after it stay unacknowledged on the broker. */
  readonly failure: unknown;
  /** Resolves when the connection is gone. */
  readonly whenClosed: Promise<void>;
  subscribe(topics: string[]): Promise<void>;
  unsubscribe(topics: string[]): Promise<void>;
  /** Waits for every received message to be acknowledged, then ends the session on the broker (expiry 0). */
  end(): Promise<void>;
  /** Drops the connection; the session stays on the broker with what is not acknowledged. */
  destroy(): void;
}

interface Received {
  messageId: number | undefined;
  stored: boolean;
}

/**
 * The broker's in-flight window bounds QoS 1 messages; QoS 0 ones (a gateway may publish at QoS 0) are not
 * bounded by it, so the socket is not read while this many messages wait to be stored.
 */
const MAX_WAITING = 500;

/** Seconds between two packets from the broker at most (it answers our pings within it). */
const KEEPALIVE_S = 30;
/** Unacknowledged QoS 1 messages the broker may send us at once (its own limit may be lower: Mosquitto's is 20). */
const RECEIVE_MAXIMUM = 100;

/** An unanswered SUBSCRIBE/UNSUBSCRIBE or the CONNECT fails after this long. */
const ANSWER_TIMEOUT_MS = 10_000;

export async function openOrderedAckSession(options: {
  url: string;
  clientId: string;
  sessionExpirySeconds: number;
  /** Stores a message; resolves once it is stored (then it is acknowledged). */
  handle: (topic: string, payload: Buffer) => Promise<void>;
}): Promise<OrderedAckSession> {
  const url = new URL(options.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const secure = url.protocol === 'mqtts:';
  const port = Number(url.port) || (secure ? 8883 : 1883);
  const socket = secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
  socket.setNoDelay(true);

  const received: Received[] = [];
  const answers = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  const drained: Array<() => void> = [];
  let lastId = 0;
  const nextMessageId = () => {
    lastId = (lastId % 0xffff) + 1;
    return lastId;
  };
  let handled = 0;
  let lastMessageAt = Date.now();
  let closed = false;
  let failure: unknown;
  let stopPinging = () => {};
  let lastPacketAt = Date.now();
  let markClosed = () => {};
  const whenClosed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });

  const send = (packet: Packet) => {
    if (!closed) socket.write(generate(packet, { protocolVersion: 5 }));
  };
  const settleDrained = () => {
    if (received.length > 0 && !closed) return;
    for (const resolve of drained.splice(0)) resolve();
  };
  /** Acknowledges the stored messages at the head of the queue: PUBACKs leave in arrival order. */
  const acknowledge = () => {
    while (received[0]?.stored) {
      const head = received.shift();
      if (head?.messageId !== undefined) send({ cmd: 'puback', messageId: head.messageId, reasonCode: 0 });
      handled++;
    }
    if (socket.isPaused() && received.length < MAX_WAITING / 2) socket.resume();
    settleDrained();
  };

  const connack = new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`broker did not answer the connection of ${options.clientId} within ${ANSWER_TIMEOUT_MS} ms`));
      socket.destroy();
    }, ANSWER_TIMEOUT_MS);
    const readPackets = parser({ protocolVersion: 5 });
    readPackets.on('error', (error: Error) => {
      failure ??= error;
      socket.destroy();
    });
    readPackets.on('packet', (packet: Packet) => {
      lastPacketAt = Date.now();
      switch (packet.cmd) {
        case 'connack':
          clearTimeout(timer);
          if ((packet.reasonCode ?? 0) !== 0) {
            reject(new Error(`broker refused the connection of ${options.clientId}: reason ${packet.reasonCode}`));
            socket.destroy();
          } else resolve(packet.sessionPresent);
          return;
        case 'publish': {
          lastMessageAt = Date.now();
          if (packet.qos === 2) {
            // Never subscribed at QoS 2; acknowledging it needs PUBREC/PUBREL, which this session does not speak.
            failure ??= new Error(`QoS 2 message on ${packet.topic} in ${options.clientId}`);
            socket.destroy();
            return;
          }
          const entry: Received = { messageId: packet.qos === 1 ? packet.messageId : undefined, stored: false };
          received.push(entry);
          if (received.length >= MAX_WAITING) socket.pause();
          options.handle(packet.topic, typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload).then(
            () => {
              entry.stored = true;
              acknowledge();
            },
            (error: unknown) => {
              // Not stored: no acknowledgement for it or anything after it; the broker redelivers them to the
              // session's next holder.
              failure ??= error;
              socket.destroy();
            },
          );
          return;
        }
        case 'suback':
        case 'unsuback': {
          const answer = packet.messageId === undefined ? undefined : answers.get(packet.messageId);
          if (!answer || packet.messageId === undefined) return;
          answers.delete(packet.messageId);
          // 0x11: there was no such subscription (a session that never joined, or left already).
          const refused = packet.granted.filter((code): code is number => typeof code === 'number' && code >= 0x80);
          if (refused.length > 0) answer.reject(new Error(`broker refused ${packet.cmd} of ${options.clientId}: ${refused.join(', ')}`));
          else answer.resolve();
          return;
        }
        case 'disconnect':
          // E.g. 0x8E, session taken over: the owner came back.
          socket.end();
          return;
        default:
          return;
      }
    });
    socket.on('data', (chunk: Buffer) => readPackets.parse(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      closed = true;
      stopPinging();
      markClosed();
      reject(new Error(`connection of ${options.clientId} closed before the broker answered`));
      for (const answer of answers.values()) answer.reject(new Error(`connection of ${options.clientId} closed`));
      answers.clear();
      settleDrained();
    });
  });

  const connect = () =>
    send({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 5,
      clientId: options.clientId,
      clean: false,
      keepalive: KEEPALIVE_S,
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: Buffer.from(decodeURIComponent(url.password)) } : {}),
      properties: {
        sessionExpiryInterval: options.sessionExpirySeconds,
        receiveMaximum: RECEIVE_MAXIMUM,
        maximumPacketSize: MAX_MQTT_PACKET_BYTES,
      },
    });
  if (secure) socket.once('secureConnect', connect);
  else socket.once('connect', connect);

  const sessionPresent = await connack;
  stopPinging = every((KEEPALIVE_S * 1000) / 2, () => {
    // The broker answers a ping within the keep-alive: a connection silent for longer is dead.
    if (Date.now() - lastPacketAt > KEEPALIVE_S * 1500) socket.destroy();
    else send({ cmd: 'pingreq' });
  });

  const ask = (packet: Packet & { messageId: number }) =>
    new Promise<void>((resolve, reject) => {
      if (closed) return reject(new Error(`connection of ${options.clientId} closed`));
      answers.set(packet.messageId, { resolve, reject });
      send(packet);
    });

  return {
    sessionPresent,
    get handled() {
      return handled;
    },
    get pending() {
      return received.length;
    },
    get lastMessageAt() {
      return lastMessageAt;
    },
    get closed() {
      return closed;
    },
    get failure() {
      return failure;
    },
    whenClosed,
    subscribe(topics) {
      return ask({ cmd: 'subscribe', messageId: nextMessageId(), subscriptions: topics.map((topic) => ({ topic, qos: 1 as const })) });
    },
    unsubscribe(topics) {
      return ask({ cmd: 'unsubscribe', messageId: nextMessageId(), unsubscriptions: topics });
    },
    async end() {
      await new Promise<void>((resolve) => {
        drained.push(resolve);
        settleDrained();
      });
      if (closed) return;
      send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } });
      await new Promise<void>((resolve) => {
        if (closed) return resolve();
        socket.once('close', () => resolve());
        socket.end();
      });
    },
    destroy() {
      socket.destroy();
    },
  };
}

/** A consumer connection that holds its session: reconnects after a drop and subscribes again on each connection. */
export interface HeldSession {
  /** Connected now. */
  readonly connected: boolean;
  /** Resolves once the first connection is up and subscribed. */
  readonly ready: Promise<void>;
  /** Leaves the given subscriptions (a graceful stop), if connected. */
  unsubscribe(topics: string[]): Promise<void>;
  /** Stops reconnecting; waits for what it received to be acknowledged, then ends the session (expiry 0). */
  close(): Promise<void>;
}

export function holdOrderedAckSession(
  options: Parameters<typeof openOrderedAckSession>[0] & {
    reconnectMs: number;
    /** Runs on each connection before it counts as up (subscriptions). */
    onConnect: (session: OrderedAckSession) => Promise<void>;
    /** A connection that could not be opened, was dropped, or whose message could not be stored. */
    onError: (error: unknown) => void;
  },
): HeldSession {
  let current: OrderedAckSession | undefined;
  let up = false;
  let stopped = false;
  let wake = () => {};
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.reconnectMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    while (!stopped) {
      try {
        const session = await openOrderedAckSession(options);
        current = session;
        if (stopped) {
          await session.end();
          break;
        }
        await options.onConnect(session);
        up = true;
        markReady();
        await session.whenClosed;
        if (session.failure) options.onError(session.failure);
      } catch (error) {
        if (!stopped) options.onError(error);
        current?.destroy();
      }
      up = false;
      current = undefined;
      if (!stopped) await pause();
    }
  })();
  return {
    get connected() {
      return up && current !== undefined && !current.closed;
    },
    ready,
    async unsubscribe(topics) {
      if (current && up && !current.closed) await current.unsubscribe(topics);
    },
    async close() {
      stopped = true;
      wake();
      const session = current;
      if (session && !session.closed) await session.end().catch(() => session.destroy());
      await loop;
    },
  };
}
