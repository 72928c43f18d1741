import { Code } from '@sunward/contracts/codes';
import type { Light, LightBridgeStatus, LightOauthStart } from '@sunward/contracts/smart-home';
import { type LightBridge, startLightBridge } from '@sunward/simulator/light-bridge';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createPlant, signedInCast, signedInUser } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let bridge: LightBridge;
let companyAdmin: string;
let otherAdmin: string;
let plantId: number;
let otherPlantId: number;

beforeAll(async () => {
  bridge = await startLightBridge();
  server = await startTestServer(bridge.settings);
  let companyId: number;
  ({ companyAdmin, companyId } = await signedInCast(server, 'Bulb Company'));
  plantId = (await createPlant(server, companyAdmin, {}, companyId)).id;
  const otherId = await server.createCompany('Other Bulb Company');
  otherAdmin = (await signedInUser(server, 'company_admin', otherId)).token;
  otherPlantId = (await createPlant(server, otherAdmin, {}, otherId)).id;
}, 240_000);
afterAll(async () => {
  await server?.close();
  await bridge?.close();
});
const { get, post } = apiClient(
  () => server.app,
  () => companyAdmin,
);

/** What the browser does: follow the bridge's authorisation page back to the console with code and state. */
async function connect(token = companyAdmin) {
  const start = await get<LightOauthStart>('/api/v1/light/oauth', { token });
  expect(start.code).toBe(0);
  const url = new URL(start.data.url);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  const answer = await fetch(url, { redirect: 'manual' });
  const back = new URL(answer.headers.get('location') ?? '');
  expect(back.pathname).toBe('/smart/lights');
  return post<LightBridgeStatus>(
    '/api/v1/light/oauth/callback',
    { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
    token,
  );
}
const bulbs = async (token = companyAdmin) => (await get<Light[]>('/api/v1/light', { token })).data;

describe('smart bulbs through the bridge', () => {
  it('refuses every bulb call with 4400 until the company enables the bulb app', async () => {
    expect((await get('/api/v1/light/oauth')).code).toBe(Code.APP_NOT_ENABLED);
    expect((await get('/api/v1/light')).code).toBe(Code.APP_NOT_ENABLED);
    expect((await post('/api/v1/component/apps/smart_bulb/enable', { enabled: true })).code).toBe(0);
  });

  it('connects with authorisation code + PKCE, stores the tokens sealed, and lists the bridge’s bulbs', async () => {
    const status = await connect();
    expect(status.code).toBe(0);
    expect(status.data).toMatchObject({ authorisation: 'granted', reachable: true, lights: 3 });
    const rows = (await server.database.db.execute(sql`select access_token, refresh_token from light_bridges`)) as { rows: unknown[] };
    const stored = JSON.stringify(rows.rows);
    expect(stored).toContain('v1.');
    expect(bridge.issued.length).toBeGreaterThan(0);
    for (const token of bridge.issued) expect(stored).not.toContain(token);
    expect((await bulbs()).map((b) => b.name)).toEqual(['Garage', 'Garden', 'Porch']);
  });

  it('refuses a state used twice or made up (4405)', async () => {
    expect((await post('/api/v1/light/oauth/callback', { code: 'x', state: 'made-up' })).code).toBe(Code.LIGHT_OAUTH_STATE_INVALID);
  });

  it('binds a bulb to a plant, sets it (brightness 0–100 checked) and the bridge confirms', async () => {
    const porch = (await bulbs()).find((b) => b.name === 'Porch') as Light;
    expect((await post<Light>(`/api/v1/light/${porch.id}/bind`, { plantId })).data.plantId).toBe(plantId);
    expect((await get<Light[]>(`/api/v1/plant/${plantId}/light`)).data.map((b) => b.name)).toEqual(['Porch']);
    expect((await post(`/api/v1/light/${porch.id}/setting`, { brightness: 101 })).code).toBe(Code.VALIDATION);
    const set = await post<Light>(`/api/v1/light/${porch.id}/setting`, { on: true, brightness: 80, colorTemperature: 4000 });
    expect(set.data).toMatchObject({ on: true, brightness: 80, colorTemperature: 4000 });
    expect(bridge.bulbs.get('1')).toMatchObject({ on: true, bri: 203, ct: 250 });
    expect((await post<Light>(`/api/v1/light/${porch.id}/unbind`, {})).data.plantId).toBeNull();
    expect((await post<Light>(`/api/v1/light/${porch.id}/bind`, { plantId })).code).toBe(0);
  });

  it('keeps tenants apart: another company cannot see, bind or set the bulbs, nor bind to a plant it does not reach', async () => {
    const porch = (await bulbs()).find((b) => b.name === 'Porch') as Light;
    expect((await post('/api/v1/component/apps/smart_bulb/enable', { enabled: true }, otherAdmin)).code).toBe(0);
    expect(await bulbs(otherAdmin)).toEqual([]);
    expect((await post(`/api/v1/light/${porch.id}/setting`, { on: false }, otherAdmin)).code).toBe(Code.LIGHT_NOT_FOUND);
    expect((await post(`/api/v1/light/${porch.id}/bind`, { plantId: otherPlantId }, otherAdmin)).code).toBe(Code.LIGHT_NOT_FOUND);
    expect((await post(`/api/v1/light/${porch.id}/bind`, { plantId: otherPlantId })).code).toBe(Code.PLANT_NOT_FOUND);
    expect((await get(`/api/v1/plant/${plantId}/light`, { token: otherAdmin })).code).toBe(Code.PLANT_NOT_FOUND);
  });

  it('refreshes an expired access token by itself', async () => {
    bridge.expireTokens();
    const porch = (await bulbs()).find((b) => b.name === 'Porch') as Light;
    expect((await post<Light>(`/api/v1/light/${porch.id}/setting`, { on: false })).code).toBe(0);
    expect(bridge.bulbs.get('1')?.on).toBe(false);
  });

  it('reports a bridge that does not answer (4404) and one that withdrew the tokens (4403)', async () => {
    const porch = (await bulbs()).find((b) => b.name === 'Porch') as Light;
    bridge.setDown(true);
    expect((await post(`/api/v1/light/${porch.id}/setting`, { on: true })).code).toBe(Code.LIGHT_BRIDGE_UNREACHABLE);
    expect((await get<LightBridgeStatus>('/api/v1/light/bridge/check')).data).toMatchObject({
      reachable: false,
      message: 'The bulb bridge did not answer; try again later.',
    });
    bridge.setDown(false);
    bridge.revokeAll();
    expect((await post(`/api/v1/light/${porch.id}/setting`, { on: true })).code).toBe(Code.LIGHT_TOKEN_REFUSED);
    expect((await get<LightBridgeStatus>('/api/v1/light/bridge/check')).data.authorisation).toBe('failed');
  });

  it('revoking cancels the authorisation: tokens wiped, settings refused with 4402 until connected again', async () => {
    expect((await connect()).data.authorisation).toBe('granted');
    const revoked = await post<LightBridgeStatus>('/api/v1/light/oauth/revoke', {});
    expect(revoked.data.authorisation).toBe('revoked');
    const porch = (await bulbs()).find((b) => b.name === 'Porch') as Light;
    expect(porch.plantId).toBe(plantId);
    expect((await post(`/api/v1/light/${porch.id}/setting`, { on: true })).code).toBe(Code.LIGHT_NOT_AUTHORISED);
    const rows = (await server.database.db.execute(sql`select access_token from light_bridges`)) as { rows: unknown[] };
    expect(rows.rows).toEqual([{ access_token: null }]);
  });
});
