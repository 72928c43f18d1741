import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Code } from '@sunward/contracts/codes';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import type { Light, LightBridgeStatus, LightOauthStart } from '@sunward/contracts/smart-home';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, createPlant, signedInCast } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { freePort, simulatorArguments } from './demo-runner.js';

// The demo's bulb bridge (issue 22): with no LIGHT_BRIDGE_* set, the simulator process plays the bridge and the
// server's bulb service is pointed at it after the start, as the demo runner does; a company connects it with
// OAuth 2.0 + PKCE and sets a bulb, all across the process boundary.

const SIMULATOR = fileURLToPath(new URL('../../../../simulator/src/main.ts', import.meta.url));
let server: TestServer;
let simulator: ChildProcess | undefined;
let companyAdmin: string;
let plantId: number;
const output: string[] = [];
const { get, post } = apiClient(
  () => server.app,
  () => companyAdmin,
);

beforeAll(async () => {
  server = await startTestServer();
  let companyId: number;
  ({ companyAdmin, companyId } = await signedInCast(server, 'Demo Bulb Company'));
  plantId = (await createPlant(server, companyAdmin, {}, companyId)).id;
}, 120_000);

afterAll(async () => {
  simulator?.kill('SIGTERM');
  await server?.close();
});

describe('the demo’s simulated bulb bridge', () => {
  it('answers 4402 while no bridge is there', async () => {
    expect((await post('/api/v1/component/apps/smart_bulb/enable', { enabled: true })).code).toBe(0);
    expect((await get('/api/v1/light/oauth')).code).toBe(Code.LIGHT_NOT_AUTHORISED);
  });

  it('is played by the simulator process; once the server points at it a company connects it and sets a bulb', async () => {
    // What the demo runner does: a port, a client secret, the simulator's arguments, then the server's settings.
    const port = await freePort();
    const secret = randomBytes(16).toString('hex');
    const args = simulatorArguments({
      fleetFile: 'f.json',
      mqttUrl: 'mqtt://x',
      seed: 1,
      keyFile: 'k',
      historyDays: 0,
      lightBridgePort: port,
    });
    expect(args.slice(-2)).toEqual(['--light-bridge-port', String(port)]);
    const fleet: SimulatedFleet = { seed: 3, mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`, gateways: [] };
    const file = join(mkdtempSync(join(tmpdir(), 'sunward-bridge-')), 'fleet.json');
    writeFileSync(file, JSON.stringify(fleet));
    simulator = spawn(process.execPath, ['--import', 'tsx', SIMULATOR, '--fleet', file, '--light-bridge-port', String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SIMULATOR_LIGHT_BRIDGE_SECRET: secret },
    });
    simulator.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    simulator.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    await vi.waitFor(() => expect(output.join('')).toContain(`Simulated bulb bridge (3 bulbs) at http://127.0.0.1:${port}`), {
      timeout: 30_000,
      interval: 100,
    });
    const url = `http://127.0.0.1:${port}`;
    server.app.useLightBridge({
      authorizeUrl: `${url}/oauth/authorize`,
      tokenUrl: `${url}/oauth/token`,
      revokeUrl: `${url}/oauth/revoke`,
      apiUrl: `${url}/api`,
      clientId: 'sunward',
      clientSecret: secret,
      redirectUrl: undefined,
    });

    const start = await get<LightOauthStart>('/api/v1/light/oauth');
    expect(start.code).toBe(0);
    const back = new URL((await fetch(start.data.url, { redirect: 'manual' })).headers.get('location') ?? '');
    const connected = await post<LightBridgeStatus>('/api/v1/light/oauth/callback', {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
    });
    expect(connected.data).toMatchObject({ authorisation: 'granted', reachable: true, lights: 3 });
    const porch = (await get<Light[]>('/api/v1/light')).data.find((b) => b.name === 'Porch') as Light;
    expect((await post<Light>(`/api/v1/light/${porch.id}/bind`, { plantId })).code).toBe(0);
    const set = await post<Light>(`/api/v1/light/${porch.id}/setting`, { on: true, brightness: 60 });
    expect(set.code).toBe(0);
    expect((await get<Light[]>('/api/v1/light')).data.find((b) => b.name === 'Porch')).toMatchObject({ on: true, brightness: 60 });
  });
});
