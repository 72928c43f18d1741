import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.js';
import { DataDirError } from './data-dir.js';
import { startDemoFleet } from './features/fleet/demo-runner.js';
import { applyHeapGrowth } from './lib/heap-growth.js';
import { startServer } from './server.js';
import { demoFleetLine, startBanner } from './start-banner.js';

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

function isStorageProblem(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS' || code === 'EACCES';
}

function isAddressInUse(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
}

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  config.webDist ??= DEFAULT_WEB_DIST;
  // Before anything is allocated: bounded memory under overload (docs/decisions.md "Memory under overload").
  applyHeapGrowth(config.heapGrowthPercent);
  try {
    const server = await startServer(config);
    // Printed once, on the console, never through the logger: the first start's only copy of it.
    if (server.seededAdmin) {
      const { account, generatedPassword } = server.seededAdmin;
      const lines = [
        '',
        '  Platform administrator created',
        `    account:  ${account}`,
        generatedPassword
          ? `    password: ${generatedPassword}   (shown once: store it now)`
          : '    password: the one set in ADMIN_PASSWORD',
        '',
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    // A default port that was taken (PORT or MQTT_PORT not set): say which one is used instead, before the banner.
    if (server.portInsteadOf !== undefined)
      process.stdout.write(`Port ${server.portInsteadOf} is in use, so Sunward took ${server.port} (set PORT to choose).\n`);
    if (server.mqttPortInsteadOf !== undefined)
      process.stdout.write(
        `MQTT port ${server.mqttPortInsteadOf} is in use (another broker?), so the embedded broker took ${server.telemetry.mqttPort} (set MQTT_PORT to choose).\n`,
      );
    // Which database and broker are in use, where gateways connect, and whether the demo fleet runs (start-banner.ts).
    const banner = startBanner(config, {
      port: server.port,
      mqttPort: server.telemetry.mqttPort,
      mqttTlsPort: server.telemetry.mqttTlsPort,
    });
    process.stdout.write(`${banner.join('\n')}\n`);
    const simulator = await startDemoFleet(server, config);
    process.stdout.write(`${demoFleetLine(simulator)}\n`);
    const shutdown = (signal: string) => {
      server.app.log.info({ signal }, 'shutting down');
      if (simulator.running) simulator.stop();
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  } catch (error) {
    if (error instanceof DataDirError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    if (isStorageProblem(error) && (!error.path || error.path.startsWith(config.dataDir))) {
      // The database or a file under DATA_DIR failed on the disk itself (it filled up during the start).
      process.stderr.write(
        `DATA_DIR ${config.dataDir} could not be written (${error.code}: ${error.message.split('\n')[0]}): free space or set DATA_DIR to a writable directory.\n`,
      );
      process.exit(1);
    }
    if (isAddressInUse(error)) {
      // The broker names its setting and the port it was given; the HTTP listener's is PORT.
      const { setting = 'PORT', port = config.port } = error as { setting?: string; port?: number };
      process.stderr.write(`Port ${port} is already in use: set ${setting} to a free port (e.g. ${setting}=${port + 1} npm start).\n`);
      process.exit(1);
    }
    throw error;
  }
}

await main();
