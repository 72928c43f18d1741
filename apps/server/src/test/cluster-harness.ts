import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

// Real server processes for the multi-process tests (issue 26 part 5): the product's own entry point (main.ts),
// several times on one PostgreSQL database and one MQTT broker, as `npm run cluster` starts them.
const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const SIMULATOR = fileURLToPath(new URL('../../../simulator/src/main.ts', import.meta.url));

export interface ClusterProcess {
  index: number;
  /** http://127.0.0.1:port */
  url: string;
  child: ChildProcess;
  /** Everything it printed. */
  output(): string;
}

export interface Cluster {
  processes: ClusterProcess[];
  dataDir: string;
  /** Starts one more process (or process `index` again, under the same MQTT consumer id). */
  start(index: number): Promise<ClusterProcess>;
  /** kill -9: no goodbye to the broker or the database. */
  kill(process: ClusterProcess): Promise<void>;
  close(): Promise<void>;
}

export interface ClusterOptions {
  servers: number;
  databaseUrl: string;
  mqttUrl: string;
  /** Unique per run: the share group and the consumer ids' prefix. */
  run: string;
  env?: Record<string, string>;
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * The product's entry point (main.ts) as its own process, on an ephemeral port, quiet (`LOG_LEVEL` warn, no
 * simulator) unless `env` says otherwise. Resolves once it serves; fails with what it printed if it exits first.
 */
export async function startServerProcess(
  env: Record<string, string>,
  name = 'server',
): Promise<{ url: string; child: ChildProcess; output(): string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SIMULATOR: 'off', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const match = /running at http:\/\/localhost:(\d+)/.exec(out);
    if (match) return { url: `http://127.0.0.1:${match[1]}`, child, output: () => out };
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not start:\n${out.slice(-4000)}`);
    }
    await delay(100);
  }
}

/** Starts `servers` processes: the first alone (it migrates the database), then the others at once. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sunward-cluster-'));
  const processes: ClusterProcess[] = [];
  const children: ChildProcess[] = [];

  async function start(index: number): Promise<ClusterProcess> {
    const started = await startServerProcess(
      {
        DATABASE_URL: options.databaseUrl,
        MQTT_URL: options.mqttUrl,
        MQTT_CONSUMER_ID: `${options.run}-s${index + 1}`,
        MQTT_SHARE_GROUP: `cl-${options.run}`,
        MQTT_CONSUMERS: '4',
        DATA_DIR: dataDir,
        SIP_PORT: 'off',
        SIMULATOR_HISTORY_DAYS: '0',
        ...options.env,
      },
      `server ${index + 1}`,
    );
    children.push(started.child);
    processes[index] = { index, ...started };
    return processes[index];
  }

  try {
    await start(0);
    await Promise.all(Array.from({ length: options.servers - 1 }, (_, i) => start(i + 1)));
  } catch (error) {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    processes,
    dataDir,
    start,
    async kill(target) {
      target.child.kill('SIGKILL');
      await waitForExit(target.child);
    },
    async close() {
      await Promise.all(
        children.map(async (child) => {
          const exited = waitForExit(child);
          child.kill('SIGTERM');
          const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(force);
        }),
      );
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The simulator as its own process, playing a fleet file over MQTT. */
export function startSimulator(args: string[]): { child: ChildProcess; output(): string; stop(): Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', SIMULATOR, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  });
  return {
    child,
    output: () => out,
    async stop() {
      const exited = waitForExit(child);
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The API's JSON answer ({ code, data, message }). */
export async function api<T>(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; json?: unknown } = {},
): Promise<{ code: number; data: T; message: string }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  return (await response.json()) as { code: number; data: T; message: string };
}

export async function signInTo(base: string, account: string, password: string): Promise<string> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: account, password }).toString(),
  });
  const body = (await response.json()) as { code: number; data: { access_token: string } };
  if (body.code !== 0) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
  return body.data.access_token;
}

/**
 * A live-push stream (GET /api/v1/live), read as the console reads it: each event handed to `onEvent` as it
 * arrives. Resolves once the stream is open.
 */
export async function openLiveStream(
  base: string,
  token: string,
  onEvent: (type: string, data: unknown) => void,
): Promise<{ close(): void }> {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/v1/live`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`live stream answered ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type && data) onEvent(type, JSON.parse(data));
        }
      }
    } catch {
      // Closed.
    }
  })();
  return { close: () => controller.abort() };
}
