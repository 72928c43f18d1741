import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';
import { provisionDemoFleet } from '../fleet/demo-fleet.js';

let server: TestServer;
let fleet: SimulatedFleet;
let gateway: TestGateway | undefined;

beforeAll(async () => {
  server = await startTestServer();
  fleet = await provisionDemoFleet(server.database.db, {
    seed: 11,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    intervalSeconds: 60,
  });
  await server.telemetry.pipeline.reloadDevices();
});
afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

let lastText = '';

/** /metrics over a real connection from this machine, parsed with a Prometheus text-format parser. */
async function scrape(): Promise<Map<string, ParsedFamily>> {
  const response = await fetch(`${server.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  lastText = await response.text();
  const families = parsePrometheusTextFormat(lastText);
  return new Map(families.map((f) => [f.name, f]));
}

/**
 * The series of one histogram's `_count`, each with its labels. The parser folds a histogram's label sets
 * into one sample (it follows prom2json for unlabelled histograms), so its `_count` lines are parsed alone.
 */
function histogramCounts(name: string): { labels: Record<string, string>; count: number }[] {
  const lines = lastText.split('\n').filter((line) => line.startsWith(`${name}_count{`));
  const [family] = parsePrometheusTextFormat(`${lines.join('\n')}\n`);
  return (family?.metrics ?? []).map((m) => ({ labels: m.labels ?? {}, count: Number(m.value) }));
}

function sampleValue(families: Map<string, ParsedFamily>, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name);
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(sample?.value ?? sample?.count ?? 0);
}

describe('Prometheus /metrics', () => {
  it('parses as the text format and holds process, HTTP, ingest, broker and job families', async () => {
    await call(server.app, 'GET', '/api/health');
    const families = await scrape();
    for (const name of [
      'sunward_process_cpu_user_seconds_total',
      'sunward_nodejs_eventloop_lag_seconds',
      'sunward_http_request_duration_seconds',
      'sunward_ingest_readings_total',
      'sunward_ingest_batch_readings',
      'sunward_ingest_lag_seconds',
      'sunward_ingest_refused_total',
      'sunward_ingest_queue_readings',
      'sunward_ingest_pending_bytes',
      'sunward_ingest_waiting_reports',
      'sunward_broker_connections',
      'sunward_commands_total',
      'sunward_job_runs_total',
      'sunward_live_connections',
    ])
      expect(families.has(name), name).toBe(true);
    expect(families.get('sunward_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
  });

  it('labels HTTP latency by route pattern, never by the raw URL', async () => {
    await call(server.app, 'GET', '/api/v1/plant/987654321');
    await scrape();
    const routes = histogramCounts('sunward_http_request_duration_seconds').map((s) => s.labels.route);
    expect(routes).toContain('/api/health');
    expect(routes.some((r) => r?.includes('987654321'))).toBe(false);
    expect(routes.some((r) => r?.startsWith('/api/v1/plant/:'))).toBe(true);
  });

  it('moves the ingest figures when a gateway report is stored or refused', async () => {
    const before = await scrape();
    const target = fleet.gateways.find((g) => !g.spare && g.devices.length > 0);
    if (!target) throw new Error('no gateway with devices');
    gateway = await connectTestGateway(server.telemetry.mqttPort, target.sn, target.key);
    const device = target.devices[0];
    if (!device) throw new Error('no device');
    await gateway.report(Date.now() - 60_000, [{ sn: device.sn, proto: device.protocolId, values: {} }]);
    // A reading far older than ingest keeps: refused, with its reason counted.
    await gateway.report(Date.now() - 400 * 86_400_000, [{ sn: device.sn, proto: device.protocolId, values: {} }]);
    const after = await scrape();
    expect(sampleValue(after, 'sunward_ingest_readings_total')).toBeGreaterThan(sampleValue(before, 'sunward_ingest_readings_total'));
    expect(sampleValue(after, 'sunward_ingest_reports_total')).toBeGreaterThan(sampleValue(before, 'sunward_ingest_reports_total'));
    expect(sampleValue(after, 'sunward_ingest_batch_readings')).toBeGreaterThan(sampleValue(before, 'sunward_ingest_batch_readings'));
    expect(sampleValue(after, 'sunward_ingest_lag_seconds')).toBeGreaterThan(sampleValue(before, 'sunward_ingest_lag_seconds'));
    const refused = (f: Map<string, ParsedFamily>) =>
      (f.get('sunward_ingest_refused_total')?.metrics ?? []).reduce((sum, m) => sum + Number(m.value ?? 0), 0);
    expect(refused(after)).toBeGreaterThan(refused(before));
    expect(sampleValue(after, 'sunward_ingest_refused_total', { reason: 'timestamp_too_old' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, 'sunward_broker_connections', { broker: 'embedded' })).toBeGreaterThanOrEqual(1);
  });

  it('answers other machines and proxied requests with the JSON not-found envelope, never the console page', async () => {
    for (const headers of [{}, { 'x-forwarded-for': '203.0.113.9' }]) {
      const response = await server.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress: '10.1.2.3' });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.json()).toMatchObject({ code: 404 });
    }
    const proxied = await fetch(`${server.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(404);
  });
});

describe('health probes', () => {
  it('answers live, ready and the old /api/health', async () => {
    expect((await call(server.app, 'GET', '/api/health/live')).status).toBe(200);
    const ready = await call<{ status: string; database: string; broker: string }>(server.app, 'GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data).toEqual({ status: 'ready', database: 'ok', broker: 'ok' });
    expect((await call(server.app, 'GET', '/api/health')).status).toBe(200);
  });

  it('answers ready with 503 (code 170) once shutdown drains, while live still answers', async () => {
    server.app.readiness.startDraining();
    const ready = await fetch(`${server.url}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(await ready.json()).toMatchObject({ code: 170, data: { draining: true, database: 'ok', broker: 'ok' } });
    expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);
  });
});
