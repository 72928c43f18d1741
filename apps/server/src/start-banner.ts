import type { Config } from './config.js';

/** What the start banner reports. */
export interface BannerFacts {
  port: number;
  /** The embedded broker's ports (undefined with an external broker, MQTT_URL). */
  mqttPort: number | undefined;
  mqttTlsPort: number | undefined;
}

/** The demo fleet's state (features/fleet/demo-runner.ts). */
export type DemoFleetState = { running: true; gateways: number; mqttUrl: string } | { running: false; reason: string };

/** A URL with its user name and password left out: the banner and the log never show credentials. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(unparsable URL)';
  }
}

/** The host gateways are told to use for the embedded broker: PUBLIC_URL's, else this machine's loopback name. */
function gatewayHost(config: Pick<Config, 'publicUrl'>): string {
  if (!config.publicUrl) return 'localhost';
  try {
    return new URL(config.publicUrl).hostname;
  } catch {
    return 'localhost';
  }
}

/**
 * The lines `npm start` prints once the server listens: where the console is, which database and broker are
 * in use (embedded or external) and the address gateways connect to. demoFleetLine follows once the demo
 * fleet has started or been skipped.
 */
export function startBanner(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'mqtt' | 'publicUrl'>, facts: BannerFacts): string[] {
  const database = config.databaseUrl
    ? `PostgreSQL ${withoutCredentials(config.databaseUrl)} (DATABASE_URL)`
    : `embedded PGlite in ${config.dataDir}/pg (set DATABASE_URL for PostgreSQL)`;
  const lines = [
    `Sunward is running at http://localhost:${facts.port}  (data: ${config.databaseUrl ? 'PostgreSQL' : `${config.dataDir}/pg`})`,
  ];
  lines.push(`  Database:    ${database}`);
  if (facts.mqttPort !== undefined) {
    lines.push(
      `  Broker:      embedded, port ${facts.mqttPort}${facts.mqttTlsPort !== undefined ? ` and TLS port ${facts.mqttTlsPort}` : ''} (set MQTT_URL for an external one)`,
    );
    lines.push(`Gateways connect to mqtt://${gatewayHost(config)}:${facts.mqttPort}`);
    if (facts.mqttTlsPort !== undefined) lines.push(`Gateways connect over TLS to mqtts://${gatewayHost(config)}:${facts.mqttTlsPort}`);
  } else if (config.mqtt.url) {
    const broker = withoutCredentials(config.mqtt.url);
    lines.push(
      `  Broker:      external ${broker} (MQTT_URL; ${config.mqtt.consumers} connections in share group ${config.mqtt.shareGroup})`,
    );
    lines.push(`Gateways connect to that broker: ${broker} as it is reached from the gateways (see docs/mosquitto.md)`);
  }
  return lines;
}

/** Whether the demo fleet runs, and why not. */
export function demoFleetLine(demo: DemoFleetState): string {
  return demo.running
    ? `  Demo fleet:  on, ${demo.gateways} simulated gateways through ${demo.mqttUrl} (SIMULATOR=off for none)`
    : `  Demo fleet:  off (${demo.reason})`;
}
