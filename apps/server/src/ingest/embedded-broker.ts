import { createServer, type Server } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { SecretThrottle } from '../features/auth/secret-throttle.js';
import { createLogThrottle } from '../lib/log-throttle.js';
import type { createBrokerSessions } from './broker-sessions.js';
import type { ConnectionLog } from './connection-log.js';
import { gatewayKeyMatches, isValidGatewayIdentity, mayPublish, maySubscribe } from './gateway-auth.js';
import { recordGatewayStatus } from './gateway-status.js';
import type { IngestPipeline } from './ingest-pipeline.js';
import { guardFrameSizes, MAX_MQTT_PACKET_BYTES } from './mqtt-frame-guard.js';
import type { TelemetryRepository } from './telemetry.repository.js';

export interface EmbeddedBroker {
  port: number;
  /** The MQTT-over-TLS port, when a certificate is configured. */
  tlsPort: number | undefined;
  /** Whether the broker takes connections, and how many clients are connected (readiness, /metrics). */
  state(): { up: boolean; connections: number };
  /** Publishes a command to a gateway's command topic (QoS 1). */
  publishCommand(gatewaySn: string, payload: string): Promise<void>;
  /** Publishes to any topic (QoS 1, not retained): refusals answered to a gateway. */
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/** How long a command waits for a just-connected gateway to subscribe to its command topic. */
const SUBSCRIBE_WAIT_MS = 5000;

/** Compared with a key given for an unknown SN, so that refusal takes as long as a wrong key's. */
const UNKNOWN_GATEWAY_HASH = '0'.repeat(64);

function authError(message: string, returnCode: 4 | 5): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * The MQTT broker inside the server (aedes). Gateways authenticate with SN and registration key; each
 * may publish only on its own up topics and subscribe only to its own command topic. A report is
 * acknowledged (PUBACK) only after the pipeline has committed it: aedes writes PUBACK when
 * authorizePublish calls back.
 */
export async function startEmbeddedBroker(deps: {
  port: number;
  host: string;
  repository: TelemetryRepository;
  pipeline: IngestPipeline;
  log: FastifyBaseLogger;
  onReply: (gatewaySn: string, payload: Buffer) => void;
  /** With the default port taken (another broker on this machine), try this many following ports. */
  fallbackPorts: number;
  /** Also accept MQTT over TLS (mqtts://) with this certificate, on its own port. */
  tls?: { port: number; cert: Buffer; key: Buffer } | undefined;
  /** Ports already bound at start (lib/listeners.ts: nothing is written before every port is ours); else the broker binds its own. */
  listeners?: { plain: Server; tls: TlsServer | undefined } | undefined;
  /** Where persistent sessions (clean session = false) are kept across restarts (broker-sessions.ts); default: memory. */
  persistence?: ReturnType<typeof createBrokerSessions>;
  /**
   * Wrong keys count per SN and per address like every secret (features/auth/secret-throttle.ts): past the
   * limit a CONNECT waits (a timer, never the event loop), at the lock it is refused as not authorised.
   */
  throttle: SecretThrottle;
  /** Gateway communication history: connects, disconnects, refused logins (written in batches, off this path). */
  connectionLog?: ConnectionLog;
}): Promise<EmbeddedBroker> {
  const { repository, pipeline, log } = deps;
  const gatewayIds = new Map<string, number>();
  // Refusals repeat per message or reconnect: one WARN line per cause a minute, with a count (issue 17).
  const warnings = createLogThrottle(log);
  const broker = await Aedes.createBroker({
    concurrency: 1000,
    ...(deps.persistence ? { persistence: deps.persistence } : {}),
    authenticate(client, username, password, done) {
      if (!isValidGatewayIdentity(client.id, username) || !password) {
        done(authError('bad identity', 4), false);
        return;
      }
      const ip = client.conn && 'remoteAddress' in client.conn ? String(client.conn.remoteAddress) : '';
      let gatewayId: number | undefined;
      deps.throttle
        .check({ kind: 'gateway-key', subject: client.id, ip }, async () => {
          const gateway = await repository.gatewayCredentials(client.id);
          gatewayId = gateway?.id;
          return gatewayKeyMatches(password.toString('utf8'), gateway?.keyHash ?? UNKNOWN_GATEWAY_HASH);
        })
        .then(
          (verdict) => {
            if (verdict.outcome === 'locked') {
              deps.connectionLog?.record({
                at: new Date(),
                gatewaySn: client.id,
                kind: 'refused',
                address: ip,
                reason: 'login locked: too many wrong keys',
              });
              warnings.warn(
                'gateway_locked',
                { event: 'gateway_refused', gateway: client.id, ip, until: verdict.until },
                'gateway refused: too many wrong keys',
              );
              done(authError('not authorized', 5), false);
              return;
            }
            if (verdict.outcome === 'wrong' || gatewayId === undefined) {
              deps.connectionLog?.record({
                at: new Date(),
                gatewaySn: client.id,
                kind: 'refused',
                address: ip,
                reason: 'login refused: unknown SN or wrong key',
              });
              warnings.warn(
                'gateway_refused',
                { event: 'gateway_refused', gateway: client.id, ip },
                'gateway refused: unknown SN or wrong key',
              );
              done(authError('bad username or password', 4), false);
              return;
            }
            gatewayIds.set(client.id, gatewayId);
            done(null, true);
          },
          (error: unknown) => {
            log.error({ err: error }, 'gateway authentication failed');
            done(authError('server unavailable', 5), false);
          },
        );
    },
    authorizePublish(client, packet, callback) {
      // The broker itself publishes (client null) for wills and internal messages.
      if (!client) return callback(null);
      const kind = mayPublish(client.id, packet.topic);
      const gatewayId = gatewayIds.get(client.id);
      if (!kind || gatewayId === undefined) {
        warnings.warn(
          'publish_refused',
          { event: 'publish_refused', gateway: client.id, topic: packet.topic },
          'publish outside own topics refused',
        );
        return callback(new Error('not authorised'));
      }
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      if (kind === 'report') {
        pipeline.submitReport({ id: gatewayId, sn: client.id }, payload).then(
          () => callback(null),
          // Not stored: refusing the publish closes the connection without PUBACK, so the gateway resends.
          () => callback(new Error('not stored')),
        );
        return;
      }
      if (kind === 'reply') {
        deps.onReply(client.id, payload);
        return callback(null);
      }
      if (kind === 'status') {
        const ip = client.conn && 'remoteAddress' in client.conn ? String(client.conn.remoteAddress) : null;
        recordGatewayStatus(repository, gatewayId, payload, ip).then(
          (ok) => {
            if (!ok) warnings.warn('status_rejected', { event: 'status_rejected', gateway: client.id }, 'malformed gateway status dropped');
            callback(null);
          },
          () => callback(null),
        );
        return;
      }
      callback(null);
    },
    authorizeSubscribe(client, subscription, callback) {
      if (!maySubscribe(client.id, subscription.topic)) {
        warnings.warn(
          'subscribe_refused',
          { event: 'subscribe_refused', gateway: client.id, topic: subscription.topic },
          'subscription outside own command topic refused',
        );
        // A null subscription answers SUBACK with failure (0x80) and delivers nothing.
        return callback(null, null);
      }
      callback(null, subscription);
    },
  });

  // Communication history: when each session began and from where, and why it ended.
  // Keyed by the client object: a gateway reconnecting takes over its id before the old session's end is seen.
  const sessions = new Map<object, { since: number; address: string | null; reason?: string }>();
  broker.on('client', (client) => {
    const gatewayId = gatewayIds.get(client.id);
    const ip = client.conn && 'remoteAddress' in client.conn ? String(client.conn.remoteAddress) : null;
    if (gatewayId !== undefined) void repository.setGatewayPresence(gatewayId, { online: true, at: new Date(), ip }).catch(() => undefined);
    if (gatewayId !== undefined) {
      sessions.set(client, { since: Date.now(), address: ip });
      deps.connectionLog?.record({ at: new Date(), gatewaySn: client.id, kind: 'connect', address: ip });
    }
  });
  broker.on('clientError', (client, error) => {
    const session = sessions.get(client);
    if (session && !session.reason) session.reason = error.message;
  });
  broker.on('keepaliveTimeout', (client) => {
    const session = sessions.get(client);
    if (session) session.reason = 'keep-alive timeout';
  });
  broker.on('clientDisconnect', (client) => {
    const gatewayId = gatewayIds.get(client.id);
    if (gatewayId !== undefined) void repository.setGatewayPresence(gatewayId, { online: false, at: new Date() }).catch(() => undefined);
    const session = sessions.get(client);
    if (session) {
      sessions.delete(client);
      deps.connectionLog?.record({
        at: new Date(),
        gatewaySn: client.id,
        kind: 'disconnect',
        address: session.address,
        reason: session.reason ?? (broker.closed ? 'server shutting down' : 'closed by the gateway'),
        sessionSeconds: Math.round((Date.now() - session.since) / 1000),
      });
    }
  });

  // A gateway the server sees online may not have subscribed to its commands yet (the broker reports the
  // client at CONNACK; on a first connection its session holds no subscription). A command for such a
  // client waits for the SUBSCRIBE, up to SUBSCRIBE_WAIT_MS, instead of going to no subscriber and being lost.
  const subscribeWaiters = new Map<string, Set<() => void>>();
  const wake = (gatewaySn: string) => {
    const waiters = subscribeWaiters.get(gatewaySn);
    subscribeWaiters.delete(gatewaySn);
    for (const waiter of waiters ?? []) waiter();
  };
  // aedes keeps a client's subscriptions (restored ones included) on the client, untyped.
  const connected = new Map<string, Client & { subscriptions?: Record<string, unknown> }>();
  broker.on('client', (client) => connected.set(client.id, client));
  broker.on('subscribe', (subscriptions, client) => {
    // Only the command topic counts: a gateway may subscribe to its refusal answers first.
    if (client && subscriptions.some((s) => s.topic === gatewayTopic(client.id, 'cmd'))) wake(client.id);
  });
  broker.on('clientDisconnect', (client) => {
    if (connected.get(client.id) === client) connected.delete(client.id);
    wake(client.id);
  });
  const subscribed = (gatewaySn: string): Promise<void> => {
    const client = connected.get(gatewaySn);
    if (!client || client.closed || client.subscriptions?.[gatewayTopic(gatewaySn, 'cmd')]) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = subscribeWaiters.get(gatewaySn) ?? new Set();
      subscribeWaiters.set(gatewaySn, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, SUBSCRIBE_WAIT_MS);
      waiters.add(done);
    });
  };

  const portOf = (on: Server, fallback: number) => {
    const address = on.address();
    return typeof address === 'object' && address ? address.port : fallback;
  };
  // Every connection, plain or TLS, is closed at the header of a packet larger than any report.
  // Connections still open at close (one accepted after the broker closed is answered by nobody and never ends by
  // itself) are ended, so that closing the listeners cannot wait for ever.
  const sockets = new Set<Duplex>();
  const handle = (socket: Duplex) => {
    if (broker.closed) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    guardFrameSizes(socket, MAX_MQTT_PACKET_BYTES, (reason) =>
      warnings.warn('packet_too_large', { event: 'packet_too_large', reason }, 'MQTT connection closed: packet too large'),
    );
    // Not read while ingest's byte budget is full (backpressure: the gateway waits, unacknowledged).
    pipeline.readGate.attach(socket);
    return broker.handle(socket);
  };
  const bound = deps.listeners
    ? attachBroker(handle, deps.listeners)
    : await listenBroker(broker, handle, deps.port, deps.host, deps.fallbackPorts, deps.tls, log);
  const { server, tlsServer } = bound;
  const port = portOf(server, deps.port);
  log.info({ port }, 'MQTT broker listening');
  const tlsPort = tlsServer ? portOf(tlsServer, deps.tls?.port ?? 0) : undefined;
  if (tlsServer) log.info({ port: tlsPort }, 'MQTT over TLS listening');
  return {
    port,
    tlsPort,
    state: () => ({ up: server.listening && !broker.closed, connections: broker.connectedClients }),
    async publishCommand(gatewaySn, payload) {
      await subscribed(gatewaySn);
      return new Promise((resolve, reject) =>
        broker.publish(
          { cmd: 'publish', topic: gatewayTopic(gatewaySn, 'cmd'), payload: Buffer.from(payload), qos: 1, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    },
    publish(topic, payload) {
      if (broker.closed) return Promise.resolve();
      return new Promise((resolve, reject) =>
        broker.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
    },
    async close() {
      warnings.flush();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await bound.release(sockets);
    },
  };
}

/** The broker on ports bound before the database opened (lib/listeners.ts). */
function attachBroker(handle: (socket: Duplex) => void, listeners: { plain: Server; tls: TlsServer | undefined }): BoundBroker {
  listeners.plain.on('connection', handle);
  listeners.tls?.on('secureConnection', handle);
  return {
    server: listeners.plain,
    tlsServer: listeners.tls,
    // The ports are the listeners' (lib/listeners.ts closes them, ending what is still connected): the broker only
    // stops taking connections, and ends the ones it took.
    async release(sockets) {
      listeners.plain.off('connection', handle);
      listeners.tls?.off('secureConnection', handle);
      for (const socket of sockets) socket.destroy();
    },
  };
}

interface BoundBroker {
  server: Server;
  tlsServer: Server | undefined;
  /** After the broker closed: frees its ports, ending the connections still open. */
  release(sockets: Set<Duplex>): Promise<void>;
}

/** Closes ports the broker bound itself, ending the connections still open (server.close() alone waits for them). */
async function closeOwnPorts(servers: (Server | undefined)[], sockets: Set<Duplex>): Promise<void> {
  const closed = servers.flatMap((on) => (on?.listening ? [new Promise<void>((resolve) => on.close(() => resolve()))] : []));
  for (const socket of sockets) socket.destroy();
  await Promise.all(closed);
}

/** The broker binds its own ports (tests that run it alone); a taken default port tries the following ones. */
async function listenBroker(
  broker: Aedes,
  handle: (socket: Duplex) => void,
  firstPort: number,
  host: string,
  fallbackPorts: number,
  tls: { port: number; cert: Buffer; key: Buffer } | undefined,
  log: FastifyBaseLogger,
): Promise<BoundBroker> {
  const server: Server = createServer(handle);
  const listen = (on: Server, port: number) =>
    new Promise<void>((resolve, reject) => {
      on.once('error', reject);
      on.listen(port, host, () => {
        on.off('error', reject);
        resolve();
      });
    });
  for (let attempt = 0; ; attempt++) {
    try {
      await listen(server, firstPort + attempt);
      break;
    } catch (error) {
      const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!inUse || attempt >= fallbackPorts || firstPort === 0) {
        await new Promise<void>((resolve) => broker.close(() => resolve()));
        throw Object.assign(error as Error, { setting: 'MQTT_PORT', port: firstPort });
      }
      log.warn({ port: firstPort + attempt }, 'MQTT port in use (another broker?): trying the next one; set MQTT_PORT to choose');
    }
  }
  // The same broker behind TLS: gateways that can, connect with mqtts:// and the registry's credentials.
  if (!tls) return { server, tlsServer: undefined, release: (sockets) => closeOwnPorts([server], sockets) };
  const tlsServer = createTlsServer({ cert: tls.cert, key: tls.key }, handle);
  try {
    await listen(tlsServer, tls.port);
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw Object.assign(error as Error, { setting: 'MQTT_TLS_PORT', port: tls.port });
  }
  return { server, tlsServer, release: (sockets) => closeOwnPorts([server, tlsServer], sockets) };
}
