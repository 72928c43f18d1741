import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer, Server as TlsServer } from 'node:tls';
import { Code } from '@sunward/contracts/codes';
import { DEFAULT_LANGUAGE, languageFromAcceptLanguage } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import type { Config } from '../config.js';

/** A port that is taken; `setting` names the setting that chose it (main.ts prints one line from it). */
export type PortInUse = NodeJS.ErrnoException & { setting: string; port: number };

/** With a default port taken, the following ports are tried, then any free one. */
const NEXT_PORTS = 10;

/** One bound listener: the port it got, and the one it was asked for when that was taken. */
export interface BoundPort<S> {
  server: S;
  port: number;
  /** The default port that was taken (the setting was not given, so another one was chosen). */
  insteadOf: number | undefined;
}

/** Every port the server answers on, bound before anything is written (issue 17: a first start cannot lock anyone out). */
export interface Listeners {
  http: BoundPort<HttpServer>;
  /** The embedded broker's ports; absent with MQTT_URL (an external broker). */
  mqtt: BoundPort<NetServer> | undefined;
  mqttTls: BoundPort<TlsServer> | undefined;
  /** Until the app is ready, requests are answered 503 "starting"; then they go to `handler`. */
  serve(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  close(): Promise<void>;
}

function listenOnce(server: NetServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function portOf(server: NetServer, fallback: number): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : fallback;
}

function inUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
}

/**
 * Binds `server` to `port`. A port the operator set explicitly must be that one (a taken one throws,
 * naming the setting); a default that is taken falls back to the following ports, then to any free port.
 */
export async function bindPort<S extends NetServer>(
  server: S,
  wanted: { port: number; host: string; setting: string; explicit: boolean },
): Promise<BoundPort<S>> {
  const candidates =
    wanted.explicit || wanted.port === 0 ? [wanted.port] : [...Array.from({ length: NEXT_PORTS + 1 }, (_, i) => wanted.port + i), 0];
  for (const port of candidates) {
    if (port > 65535) continue;
    try {
      await listenOnce(server, port, wanted.host);
      if (!openSockets.has(server)) trackConnections(server);
      return { server, port: portOf(server, port), insteadOf: port === wanted.port ? undefined : wanted.port };
    } catch (error) {
      if (!inUse(error) || port === candidates.at(-1)) throw Object.assign(error as Error, { setting: wanted.setting, port: wanted.port });
    }
  }
  throw new Error('unreachable: the last candidate either binds or throws');
}

/** Every connection a bound server holds, so closing it can end them (a broker client never hangs up by itself). */
const openSockets = new WeakMap<NetServer, Set<Socket>>();

/** Whether nothing takes this server's connections yet (the broker's ports until the broker is attached). */
function unanswered(server: NetServer): boolean {
  return server instanceof TlsServer ? server.listenerCount('secureConnection') === 0 : server.listenerCount('connection') <= 1;
}

function trackConnections(server: NetServer): void {
  const open = new Set<Socket>();
  openSockets.set(server, open);
  server.on('connection', (socket: Socket) => {
    // A gateway connecting while the database still opens would wait, answered by nobody, until its keep-alive ran
    // out (and kept a shutdown waiting): it is ended at once and retries, as the HTTP port answers 503 "starting".
    if (unanswered(server)) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/**
 * Stops accepting, then ends every connection still open: `server.close()` alone waits for each client to hang
 * up, and a gateway that reconnected after the broker closed (its connection accepted by the listener, answered by
 * nobody) kept a shutdown waiting for ever.
 */
export function closeServer(server: NetServer): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    for (const socket of openSockets.get(server) ?? []) socket.destroy();
  });
}

/** The answer while the database opens and migrates: the same envelope as every error, and when to retry. */
function starting(req: IncomingMessage, res: ServerResponse): void {
  const language = languageFromAcceptLanguage(req.headers['accept-language']) ?? DEFAULT_LANGUAGE;
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '2', connection: 'close' });
  res.end(JSON.stringify({ code: Code.SERVER_STARTING, data: null, message: translate(language, 'code.150') }));
}

/**
 * Binds the HTTP port and the embedded broker's ports (PORT, MQTT_PORT, MQTT_TLS_PORT) before the
 * database is opened or anything written: a clash stops the start with nothing done, or, for a port that
 * was not set, another free port is used and reported.
 */
export async function bindListeners(config: Config): Promise<Listeners> {
  const bound: NetServer[] = [];
  let handler: (req: IncomingMessage, res: ServerResponse) => void = starting;
  const httpServer = createHttpServer((req, res) => handler(req, res));
  try {
    const http = await bindPort(httpServer, { port: config.port, host: config.host, setting: 'PORT', explicit: config.portExplicit });
    bound.push(httpServer);
    let mqtt: BoundPort<NetServer> | undefined;
    let mqttTls: BoundPort<TlsServer> | undefined;
    if (!config.mqtt.url) {
      mqtt = await bindPort(createNetServer(), {
        port: config.mqtt.port,
        host: config.mqtt.host,
        setting: 'MQTT_PORT',
        explicit: config.mqtt.portExplicit,
      });
      bound.push(mqtt.server);
      if (config.mqtt.tls) {
        const { cert, key, port } = config.mqtt.tls;
        mqttTls = await bindPort(createTlsServer({ cert, key }), {
          port,
          host: config.mqtt.host,
          setting: 'MQTT_TLS_PORT',
          explicit: true,
        });
        bound.push(mqttTls.server);
      }
    }
    return {
      http,
      mqtt,
      mqttTls,
      serve(next) {
        handler = next;
      },
      async close() {
        await Promise.all(bound.map(closeServer));
      },
    };
  } catch (error) {
    await Promise.all(bound.map(closeServer));
    throw error;
  }
}
