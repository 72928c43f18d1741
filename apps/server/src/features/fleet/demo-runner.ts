import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimulatedFleetSchema } from '@sunward/contracts/simulated-fleet';
import type { Config } from '../../config.js';
import { createTelemetryRepository } from '../../ingest/telemetry.repository.js';
import type { RunningServer } from '../../server.js';
import { loadFirmwareSigner } from '../firmware/firmware-signing.js';
import { DEMO_COMPANY, demoFleetExists, provisionDemoFleet } from './demo-fleet.js';

/**
 * The compiled server (apps/server/dist/main.js, npm run build) runs the compiled simulator with plain node;
 * from sources (tests, npm run dev) both run through tsx.
 */
const COMPILED = !import.meta.url.endsWith('.ts');
const SIMULATOR_MAIN = fileURLToPath(
  new URL(COMPILED ? '../../simulator/dist/main.js' : '../../../../simulator/src/main.ts', import.meta.url),
);
const EXIT_WITH_PARENT = fileURLToPath(new URL(COMPILED ? './exit-with-parent.js' : '../../lib/exit-with-parent.ts', import.meta.url));
const RUNTIME_FLAGS = COMPILED ? ['--enable-source-maps'] : ['--import', 'tsx'];

/** DATA_DIR's file of the demo's simulated cameras (SimulatedCamerasSchema), passed to the simulator as --cameras. */
export const DEMO_CAMERAS_FILE = 'demo-cameras.json';

/** Whether the demo fleet runs, and why not (the start banner says it: main.ts). */
export type DemoFleet = { running: true; gateways: number; mqttUrl: string; stop(): void } | { running: false; reason: string };

/** The broker address without the server's own credentials: the simulated gateways log in with their SN and key. */
export function gatewayBrokerUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString().replace(/\/$/, '');
}

/**
 * The simulator's command line. No interval: its gateways report at the fleet file's interval
 * (SIMULATOR_INTERVAL when the fleet was provisioned), live and in the history alike. Only the first run
 * sends the history; a restarted simulator reports live.
 */
export function simulatorArguments(options: {
  fleetFile: string;
  mqttUrl: string;
  seed: number;
  keyFile: string;
  historyDays: number;
  /** The port the simulator plays the demo's bulb bridge on (none when LIGHT_BRIDGE_* name a real one). */
  lightBridgePort?: number;
  /** The demo's GB28181 cameras (contracts SimulatedCamerasSchema), when the video demo wrote them. */
  camerasFile?: string;
}): string[] {
  return [
    '--fleet',
    options.fleetFile,
    '--url',
    options.mqttUrl,
    '--seed',
    String(options.seed),
    '--firmware-key',
    options.keyFile,
    ...(options.historyDays > 0 ? ['--history-days', String(options.historyDays)] : []),
    ...(options.lightBridgePort ? ['--light-bridge-port', String(options.lightBridgePort)] : []),
    ...(options.camerasFile ? ['--cameras', options.camerasFile] : []),
  ];
}

/**
 * npm start: on a fresh database, provision the demo company and its fleet (written to
 * DATA_DIR/demo-fleet.json with the gateways' keys, readable only by this user), then run the simulator
 * as a separate process against this server's broker (the embedded one, or MQTT_URL's, which must then
 * authenticate gateways against this server: docs/mosquitto.md), so the console is alive on first start.
 */
export async function startDemoFleet(server: RunningServer, config: Config): Promise<DemoFleet> {
  const settings = config.simulator;
  if (!settings) return { running: false, reason: 'SIMULATOR=off' };
  const mqttPort = server.telemetry.mqttPort;
  const mqttUrl = mqttPort !== undefined ? `mqtt://127.0.0.1:${mqttPort}` : config.mqtt.url ? gatewayBrokerUrl(config.mqtt.url) : undefined;
  if (!mqttUrl) return { running: false, reason: 'no broker to connect to' };
  const fleetFile = join(config.dataDir, 'demo-fleet.json');
  // The demo's past is played once, right after the fleet is provisioned (docs/decisions.md: demo history).
  let historyDays = 0;
  if (!(await demoFleetExists(server.database.db))) {
    historyDays = settings.historyDays;
    const fleet = await provisionDemoFleet(server.database.db, {
      seed: settings.seed,
      mqttUrl,
      intervalSeconds: settings.intervalSeconds,
      historyDays,
    });
    if (historyDays > 0) await prepareHistory(server, historyDays);
    await server.telemetry.pipeline.start();
    writeFileSync(fleetFile, JSON.stringify(fleet, null, 2), { mode: 0o600 });
    server.app.log.info({ plants: fleet.gateways.length, fleetFile }, 'demo fleet provisioned');
  }
  if (!existsSync(fleetFile)) {
    server.app.log.warn({ fleetFile }, 'demo fleet exists but its file is missing: simulator not started');
    return { running: false, reason: `the database has the demo fleet but ${fleetFile} (its gateways' keys) is missing` };
  }
  const fleet = SimulatedFleetSchema.parse(JSON.parse(readFileSync(fleetFile, 'utf8')));
  const spare = fleet.gateways.filter((g) => g.spare);
  if (spare.length > 0)
    process.stdout.write(
      `Simulated gateways not yet in a plant (bind one at /plant-add):\n${spare.map((g) => `    SN ${g.sn}   key ${g.key}`).join('\n')}\n`,
    );
  // The simulated devices hold the platform's firmware public key and refuse images it does not verify.
  const signer = await loadFirmwareSigner({ keyFile: config.firmwareSigningKeyFile, dataDir: config.dataDir });
  const keyFile = join(config.dataDir, 'keys', 'firmware-ed25519.pub.pem');
  writeFileSync(keyFile, signer.publicKeyPem);
  // The demo's bulbs: unless LIGHT_BRIDGE_* name a real bridge, the simulator plays one on a free local port and the
  // bulb service points at it (its client secret made here, handed to the child in its environment).
  const bridge = config.lightBridge ? undefined : { port: await freePort(), secret: randomBytes(16).toString('hex') };
  if (bridge) {
    const url = `http://127.0.0.1:${bridge.port}`;
    server.app.useLightBridge({
      authorizeUrl: `${url}/oauth/authorize`,
      tokenUrl: `${url}/oauth/token`,
      revokeUrl: `${url}/oauth/revoke`,
      apiUrl: `${url}/api`,
      clientId: 'sunward',
      clientSecret: bridge.secret,
      redirectUrl: undefined,
    });
  }
  const camerasFile = join(config.dataDir, DEMO_CAMERAS_FILE);
  // The demo company's cameras (features/video/demo-cameras.ts): the file names this start's SIP port.
  await server.app
    .provisionDemoCameras(DEMO_COMPANY, camerasFile)
    .catch((error: unknown) => server.app.log.warn({ err: error }, 'demo cameras not provisioned'));
  let child: ChildProcess | undefined;
  let stopping = false;
  const run = () => {
    // The simulator dies with this server however it ends (kill -9 included): it watches the pipe on its
    // stdin, which closes when this process is gone (lib/exit-with-parent.ts).
    child = spawn(
      process.execPath,
      [
        ...RUNTIME_FLAGS,
        '--import',
        EXIT_WITH_PARENT,
        SIMULATOR_MAIN,
        ...simulatorArguments({
          fleetFile,
          mqttUrl,
          seed: fleet.seed,
          keyFile,
          historyDays,
          lightBridgePort: bridge?.port,
          // The demo's cameras register with this server's SIP port once someone wrote their file (docs/video.md).
          camerasFile: existsSync(camerasFile) ? camerasFile : undefined,
        }),
      ],
      {
        stdio: ['pipe', 'inherit', 'inherit'],
        env: bridge ? { ...process.env, SIMULATOR_LIGHT_BRIDGE_SECRET: bridge.secret } : process.env,
      },
    );
    historyDays = 0;
    child.once('exit', (code) => {
      if (stopping) return;
      server.app.log.warn({ code }, 'simulator exited: restarting in 5 s');
      setTimeout(run, 5000).unref();
    });
  };
  run();
  return {
    running: true,
    gateways: fleet.gateways.length,
    mqttUrl,
    stop() {
      stopping = true;
      child?.kill('SIGTERM');
    },
  };
}

/** Monthly readings partitions for the history's months, so its readings land where retention expects them. */
async function prepareHistory(server: RunningServer, days: number): Promise<void> {
  const from = new Date(Date.now() - days * 86_400_000);
  const now = new Date();
  const months = (now.getUTCFullYear() - from.getUTCFullYear()) * 12 + now.getUTCMonth() - from.getUTCMonth();
  await createTelemetryRepository(server.database.db).ensureReadingPartitions(from, months + 2);
  server.app.log.info({ days }, 'demo history: the simulator sends it in the background');
}

/** A local port free right now (the simulator's bulb bridge listens on it a moment later). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
