import { describe, expect, it } from 'vitest';
import { demoFleetLine, startBanner, withoutCredentials } from './start-banner.js';

const mqtt = { url: undefined, shareGroup: 'sunward-ingest', consumers: 16 } as const;
const base = { dataDir: '/var/lib/sunward', publicUrl: undefined, databaseUrl: undefined };

describe('start banner', () => {
  it('names the embedded database and broker and where gateways connect', () => {
    const text = startBanner({ ...base, mqtt } as never, { port: 8080, mqttPort: 1883, mqttTlsPort: undefined }).join('\n');
    expect(text).toContain('Sunward is running at http://localhost:8080');
    expect(text).toContain('embedded PGlite in /var/lib/sunward/pg');
    expect(text).toContain('Broker:      embedded, port 1883');
    expect(text).toContain('Gateways connect to mqtt://localhost:1883');
  });

  it('names external PostgreSQL and broker without their passwords, and the gateway address from PUBLIC_URL', () => {
    const config = {
      ...base,
      databaseUrl: 'postgres://sunward:secret@db:5432/sunward',
      mqtt: { ...mqtt, url: 'mqtt://sunward-server:hush@mosquitto:1883' },
    };
    const text = startBanner(config as never, { port: 8080, mqttPort: undefined, mqttTlsPort: undefined }).join('\n');
    expect(text).toContain('PostgreSQL postgres://db:5432/sunward (DATABASE_URL)');
    expect(text).toContain('external mqtt://mosquitto:1883 (MQTT_URL; 16 connections in share group sunward-ingest)');
    expect(text).toContain('Gateways connect to that broker: mqtt://mosquitto:1883');
    expect(text).not.toMatch(/secret|hush/);
    const embedded = startBanner({ ...base, publicUrl: 'https://pv.example.com', mqtt } as never, {
      port: 8080,
      mqttPort: 1883,
      mqttTlsPort: 8883,
    });
    expect(embedded).toContain('Gateways connect over TLS to mqtts://pv.example.com:8883');
  });

  it('says whether the demo fleet runs and why not', () => {
    expect(demoFleetLine({ running: false, reason: 'SIMULATOR=off' })).toBe('  Demo fleet:  off (SIMULATOR=off)');
    expect(demoFleetLine({ running: true, gateways: 22, mqttUrl: 'mqtt://127.0.0.1:1883' })).toContain('on, 22 simulated gateways');
    expect(withoutCredentials('mqtt://broker:1883')).toBe('mqtt://broker:1883');
  });
});
