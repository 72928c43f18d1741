import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createCoalescingQueue, packPayloads, unpackPayload } from './live-batch.js';
import { createLiveHub, type LiveEvent, type LiveHub } from './live-hub.js';

/** The NOTIFY channel of the live bus (channels are per database, so test databases do not hear each other). */
export const LIVE_CHANNEL = 'sunward_live';

export interface LiveBusLog {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
}

export interface LiveBusOptions {
  connectionString: string;
  /** Least time between two sends: events published meanwhile go together (coalesced, packed). */
  tickMs?: number;
  /** Events waiting to be sent at most (while the database is unreachable); beyond, new ones are dropped. */
  queueLimit?: number;
  /** First wait before reconnecting a lost listener connection; doubles up to 10 s. */
  reconnectMs?: number;
}

/**
 * Small messages between the server processes on one PostgreSQL, beside the live events (a command's reply
 * heard by a process that did not send the command, features/commands/command-tracker.ts). Best effort, like
 * the live events: a receiver that was not listening does not get it, so senders keep their own fallback.
 */
export interface ClusterSignals {
  /** This process's id; a process does not hear its own signals. */
  readonly origin: string;
  /** Sends `payload` (at most SIGNAL_MAX_BYTES) to the other processes' handlers of `channel`; rejects when not connected. */
  signal(channel: string, payload: string): Promise<void>;
  /** Hears the other processes' signals on `channel` (a lower-case identifier, listened to on every connection). */
  onSignal(channel: string, handler: (payload: string) => void): () => void;
}

/** A NOTIFY carries under 8,000 bytes: the origin and a space go first. */
export const SIGNAL_MAX_BYTES = 7_900;

export interface LiveBus extends LiveHub, ClusterSignals {
  /** This process's id in the payloads it sends (its own notifications are skipped on arrival). */
  readonly origin: string;
  /** Connects and listens; resolves once listening, or once the first attempt failed (logged; retried with backoff). */
  start(log: LiveBusLog): Promise<void>;
  /** Sends what waits, stops listening and closes the connection. */
  close(): Promise<void>;
  /** Figures for the bench and tests: events sent and NOTIFYs issued, events heard from others. */
  readonly stats: { sent: number; notifies: number; received: number; dropped: number; reconnects: number };
}

/**
 * The live hub across server processes on one PostgreSQL (issue 26 part 3): each process delivers what it
 * publishes at once to its own subscribers, and sends it to the others with pg_notify on one dedicated
 * connection that also LISTENs. Events published within one tick (default 50 ms; the first after a quiet
 * moment goes on the next turn of the event loop) are coalesced and packed into as few NOTIFYs as fit,
 * all in one statement. A lost connection is logged and reopened with backoff; what others sent meanwhile
 * is lost (push is best effort: the console refetches on reconnect), what this process published waits.
 */
export function createLiveBus(options: LiveBusOptions): LiveBus {
  const tickMs = options.tickMs ?? 50;
  const origin = randomUUID();
  const queue = createCoalescingQueue(options.queueLimit ?? 100_000);
  let log: LiveBusLog = { info: () => undefined, warn: () => undefined };
  const stats = { sent: 0, notifies: 0, received: 0, dropped: 0, reconnects: 0 };
  const hub = createLiveHub({
    onPublish: (event) => {
      queue.push(event);
      schedule();
    },
  });
  let client: pg.Client | undefined;
  let connected = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> | undefined;
  let lastSendAt = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectDelay = options.reconnectMs ?? 250;
  const signalHandlers = new Map<string, Set<(payload: string) => void>>();

  function schedule() {
    if (timer || sending || !connected || queue.length === 0) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        sending = send().finally(() => {
          sending = undefined;
          schedule();
        });
      },
      Math.max(0, lastSendAt + tickMs - Date.now()),
    );
  }

  async function send() {
    const current = client;
    if (!current || !connected) return;
    lastSendAt = Date.now();
    const events = queue.take();
    const { payloads, oversized } = packPayloads(origin, events);
    stats.dropped += queue.takeDropped() + oversized;
    if (payloads.length === 0) return;
    try {
      // One round trip for every payload of the tick; notifications keep their order.
      await current.query('select pg_notify($1, p) from unnest($2::text[]) as p', [LIVE_CHANNEL, payloads]);
      stats.sent += events.length - oversized;
      stats.notifies += payloads.length;
    } catch (error) {
      // The connection is going: its 'error'/'end' reconnects. These events are lost to the other processes.
      stats.dropped += events.length;
      log.warn({ err: error, events: events.length }, 'live bus: send failed');
    }
  }

  function onNotification(message: pg.Notification) {
    if (message.payload === undefined) return;
    const handlers = signalHandlers.get(message.channel);
    if (handlers) {
      const space = message.payload.indexOf(' ');
      if (space < 0 || message.payload.slice(0, space) === origin) return;
      const payload = message.payload.slice(space + 1);
      for (const handler of handlers) handler(payload);
      return;
    }
    if (message.channel !== LIVE_CHANNEL) return;
    const unpacked = unpackPayload(message.payload);
    if (!unpacked || unpacked.origin === origin) return;
    stats.received += unpacked.events.length;
    hub.deliverRemote(unpacked.events);
  }

  function lost(current: pg.Client, error: Error | undefined) {
    if (client !== current) return;
    client = undefined;
    connected = false;
    current.removeAllListeners('notification');
    current.end().catch(() => undefined);
    if (closed) return;
    log.warn({ err: error, retryInMs: reconnectDelay }, 'live bus: listener connection lost, reconnecting');
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().then(
        () => {
          stats.reconnects++;
          log.info({}, 'live bus: listening again');
        },
        () => undefined,
      );
    }, reconnectDelay);
    reconnectTimer.unref();
    reconnectDelay = Math.min(10_000, reconnectDelay * 2);
  }

  async function connect(): Promise<void> {
    const current = new pg.Client({ connectionString: options.connectionString, application_name: 'sunward-live-bus' });
    client = current;
    current.on('notification', onNotification);
    current.on('error', (error) => lost(current, error));
    current.on('end', () => lost(current, undefined));
    try {
      await current.connect();
      await current.query(`listen ${LIVE_CHANNEL}`);
      for (const channel of signalHandlers.keys()) await current.query(`listen ${channel}`);
    } catch (error) {
      lost(current, error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    if (client !== current) return;
    connected = true;
    reconnectDelay = options.reconnectMs ?? 250;
    schedule();
  }

  return {
    origin,
    stats,
    publish: (event: LiveEvent) => hub.publish(event),
    async signal(channel, payload) {
      const current = client;
      if (!current || !connected) throw new Error('live bus: not connected');
      const message = `${origin} ${payload}`;
      if (Buffer.byteLength(message) > SIGNAL_MAX_BYTES) throw new Error(`live bus: signal over ${SIGNAL_MAX_BYTES} bytes`);
      await current.query('select pg_notify($1, $2)', [channel, message]);
    },
    onSignal(channel, handler) {
      if (!/^[a-z_]{1,63}$/.test(channel) || channel === LIVE_CHANNEL) throw new Error(`live bus: bad signal channel ${channel}`);
      let handlers = signalHandlers.get(channel);
      if (!handlers) {
        handlers = new Set();
        signalHandlers.set(channel, handlers);
        // Listening already: listen to this channel too (a reconnect listens to every channel again).
        if (connected)
          client?.query(`listen ${channel}`).catch((error: unknown) => log.warn({ err: error, channel }, 'live bus: listen failed'));
      }
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    subscribe: (listener, subscribeOptions) => hub.subscribe(listener, subscribeOptions),
    get size() {
      return hub.size;
    },
    async start(logTo) {
      log = logTo;
      closed = false;
      await connect().catch(() => undefined);
    },
    async close() {
      if (timer) {
        clearTimeout(timer);
        timer = undefined;
      }
      if (reconnectTimer) clearTimeout(reconnectTimer);
      await sending;
      if (connected && queue.length > 0) await send();
      closed = true;
      const current = client;
      client = undefined;
      connected = false;
      await current?.end().catch(() => undefined);
    },
  };
}

/**
 * What server.ts runs: the live bus with DATABASE_URL (and its signals between processes), else the in-process
 * hub (PGlite is one process: no other process to signal).
 */
export function createServerLive(
  databaseUrl: string | undefined,
): LiveHub & Pick<LiveBus, 'start' | 'close'> & { signals: ClusterSignals | undefined } {
  if (databaseUrl) {
    const bus = createLiveBus({ connectionString: databaseUrl });
    return Object.assign(bus, { signals: bus });
  }
  return Object.assign(createLiveHub(), { start: async () => undefined, close: async () => undefined, signals: undefined });
}
