import { COLOR_TEMPERATURE_MAX, COLOR_TEMPERATURE_MIN } from '@sunward/contracts/smart-home';
import type { ReportedBulb } from './light.repository.js';

export interface BridgeSettings {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string | undefined;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Points the bulb service at a bridge after the start: the demo's simulated bridge (fleet/demo-runner.ts). */
    useLightBridge(settings: BridgeSettings & { redirectUrl: string | undefined }): void;
  }
}

export interface TokenSet {
  access: string;
  refresh: string | null;
  expiresAt: Date | null;
}

/** Why a bridge call failed: its authorisation was refused (401/400 invalid_grant) or it did not answer. */
export class BridgeFailure extends Error {
  constructor(readonly kind: 'refused' | 'unreachable') {
    super(`bulb bridge ${kind}`);
  }
}

const TIMEOUT_MS = 5000;

/** Hue brightness 1–254 from percent (0 % is "off", sent as 1 with on: false by the caller). */
export const toBri = (percent: number) => Math.max(1, Math.round((percent / 100) * 254));
export const fromBri = (bri: number) => Math.round((bri / 254) * 100);
/** Kelvin ⇄ mired (Hue's ct). */
export const toMired = (kelvin: number) => Math.round(1_000_000 / kelvin);
export const fromMired = (mired: number) =>
  Math.min(COLOR_TEMPERATURE_MAX, Math.max(COLOR_TEMPERATURE_MIN, Math.round(1_000_000 / mired / 10) * 10));

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new BridgeFailure('unreachable');
  }
}

/** The bridge's OAuth 2.0 token endpoint and Hue-style API, as plain calls. */
export function createBridgeClient(settings: BridgeSettings) {
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`).toString('base64')}`;

  async function token(form: Record<string, string>): Promise<TokenSet> {
    const response = await send(settings.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic, accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    });
    if (response.status >= 500) throw new BridgeFailure('unreachable');
    if (!response.ok) throw new BridgeFailure('refused');
    const data = (await response.json()) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown };
    if (typeof data.access_token !== 'string') throw new BridgeFailure('refused');
    return {
      access: data.access_token,
      refresh: typeof data.refresh_token === 'string' ? data.refresh_token : null,
      expiresAt: typeof data.expires_in === 'number' ? new Date(Date.now() + data.expires_in * 1000) : null,
    };
  }

  async function api(accessToken: string, path: string, init: RequestInit = {}): Promise<unknown> {
    const response = await send(`${settings.apiUrl}${path}`, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    });
    if (response.status === 401 || response.status === 403) throw new BridgeFailure('refused');
    if (!response.ok) throw new BridgeFailure('unreachable');
    return response.json();
  }

  return {
    authorizeUrl(input: { state: string; challenge: string; redirectUri: string }): string {
      const url = new URL(settings.authorizeUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('redirect_uri', input.redirectUri);
      url.searchParams.set('state', input.state);
      url.searchParams.set('code_challenge', input.challenge);
      url.searchParams.set('code_challenge_method', 'S256');
      return url.toString();
    },
    exchange: (code: string, verifier: string, redirectUri: string) =>
      token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri }),
    refresh: (refreshToken: string) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    /** RFC 7009; a bridge without a revocation endpoint just forgets nothing (the tokens are wiped here anyway). */
    async revoke(tokenValue: string): Promise<void> {
      if (!settings.revokeUrl) return;
      await send(settings.revokeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        body: new URLSearchParams({ token: tokenValue }).toString(),
      }).catch(() => undefined);
    },
    async lights(accessToken: string): Promise<ReportedBulb[]> {
      const data = (await api(accessToken, '/lights')) as Record<
        string,
        { name?: string; state?: { on?: boolean; bri?: number; ct?: number; reachable?: boolean } }
      >;
      return Object.entries(data).map(([id, light]) => ({
        bridgeLightId: id,
        name: String(light.name ?? id).slice(0, 100),
        on: light.state?.on === true,
        brightness: light.state?.on ? fromBri(light.state?.bri ?? 254) : 0,
        colorTemperature: fromMired(light.state?.ct ?? 370),
        reachable: light.state?.reachable !== false,
      }));
    },
    async setState(accessToken: string, bridgeLightId: string, state: { on?: boolean; brightness?: number; colorTemperature?: number }) {
      const body: Record<string, unknown> = {};
      if (state.on !== undefined) body.on = state.on;
      if (state.brightness !== undefined) {
        if (state.brightness === 0) body.on = false;
        else body.bri = toBri(state.brightness);
      }
      if (state.colorTemperature !== undefined) body.ct = toMired(state.colorTemperature);
      await api(accessToken, `/lights/${encodeURIComponent(bridgeLightId)}/state`, { method: 'PUT', body: JSON.stringify(body) });
    },
  };
}

export type BridgeClient = ReturnType<typeof createBridgeClient>;
