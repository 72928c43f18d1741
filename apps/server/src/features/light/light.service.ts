import { createHash, randomBytes } from 'node:crypto';
import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { isMessageKey, translate } from '@sunward/contracts/messages';
import type {
  AppAuthorisation,
  Light,
  LightBridgeStatus,
  LightOauthCallback,
  LightOauthStart,
  LightSetting,
} from '@sunward/contracts/smart-home';
import { ApiError } from '../../lib/envelope.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationLog } from '../audit/operation-log.js';
import type { PlantAccess } from '../plants/plant-access.js';
import type { SmartAppsService } from '../smart-apps/smart-apps.service.js';
import { type BridgeClient, BridgeFailure, type TokenSet } from './bridge-client.js';
import type { LightRecord, LightRepository } from './light.repository.js';

const STATE_TTL_MS = 600_000;
/** Refresh an access token this long before it expires. */
const REFRESH_MARGIN_MS = 30_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const present = (l: LightRecord): Light => ({
  id: l.id,
  name: l.name,
  plantId: l.plantId,
  plantName: l.plantName,
  on: l.on,
  brightness: l.brightness,
  colorTemperature: l.colorTemperature,
  reachable: l.reachable,
});

export interface LightServiceDeps {
  repository: LightRepository;
  /**
   * The bridge's client now: LIGHT_BRIDGE_*, or the demo's simulated bridge once the simulator runs it; undefined
   * while there is none (every bridge call answers 4402).
   */
  client: () => BridgeClient | undefined;
  box: SecretBox;
  apps: SmartAppsService;
  access: PlantAccess;
  log: OperationLog;
  /** LIGHT_BRIDGE_REDIRECT_URL, else the console's /smart/lights at the request's origin. */
  redirectUrl: (origin: string) => string;
}

/**
 * Smart bulbs (issue 22 part 2): a company connects its bulb bridge with OAuth 2.0 (authorisation code + PKCE),
 * its tokens sealed at rest (lib/secret-box.ts) and refreshed before they expire; bulbs are listed from the bridge,
 * bound to the company's plants and set (on/off, brightness, colour temperature). Revoking cancels the authorisation.
 */
export function createLightService(deps: LightServiceDeps) {
  const { repository, box } = deps;

  function bridgeClient(): BridgeClient {
    const client = deps.client();
    if (!client) throw new ApiError(Code.LIGHT_NOT_AUTHORISED);
    return client;
  }

  /** A working access token for the company, refreshed when due; refusals recorded for the status. */
  async function accessToken(companyId: number): Promise<string> {
    const client = bridgeClient();
    const bridge = await repository.bridge(companyId);
    const sealed = bridge?.accessToken ? box.open(bridge.accessToken) : undefined;
    if (!bridge || !sealed) throw new ApiError(Code.LIGHT_NOT_AUTHORISED);
    if (bridge.expiresAt === null || bridge.expiresAt.getTime() - REFRESH_MARGIN_MS > Date.now()) return sealed;
    return refreshTokens(companyId, client, bridge.refreshToken);
  }

  async function refreshTokens(companyId: number, client: BridgeClient, sealedRefresh: string | null): Promise<string> {
    const refresh = sealedRefresh ? box.open(sealedRefresh) : undefined;
    if (!refresh) {
      await repository.setError(companyId, 'refused');
      throw new ApiError(Code.LIGHT_TOKEN_REFUSED);
    }
    try {
      const tokens = await client.refresh(refresh);
      await store(companyId, null, { ...tokens, refresh: tokens.refresh ?? refresh });
      return tokens.access;
    } catch (error) {
      throw await failure(companyId, error);
    }
  }

  async function store(companyId: number, userId: number | null, tokens: TokenSet): Promise<void> {
    await repository.saveTokens(companyId, userId, {
      access: box.seal(tokens.access),
      refresh: tokens.refresh === null ? null : box.seal(tokens.refresh),
      expiresAt: tokens.expiresAt,
    });
  }

  /** A bridge failure as the caller's refusal (and, when refused, remembered for the status). */
  async function failure(companyId: number, error: unknown): Promise<ApiError> {
    if (error instanceof ApiError) return error;
    if (error instanceof BridgeFailure) {
      if (error.kind === 'refused') {
        await repository.setError(companyId, 'refused');
        return new ApiError(Code.LIGHT_TOKEN_REFUSED);
      }
      return new ApiError(Code.LIGHT_BRIDGE_UNREACHABLE);
    }
    throw error;
  }

  /** Runs a bridge call with the company's token; a refused token is refreshed once before giving up. */
  async function withBridge<T>(companyId: number, call: (client: BridgeClient, token: string) => Promise<T>): Promise<T> {
    const client = bridgeClient();
    const token = await accessToken(companyId);
    try {
      return await call(client, token);
    } catch (error) {
      if (!(error instanceof BridgeFailure) || error.kind !== 'refused') throw await failure(companyId, error);
      const bridge = await repository.bridge(companyId);
      const fresh = await refreshTokens(companyId, client, bridge?.refreshToken ?? null);
      try {
        return await call(client, fresh);
      } catch (again) {
        throw await failure(companyId, again);
      }
    }
  }

  async function authorisation(companyId: number): Promise<AppAuthorisation> {
    const bridge = await repository.bridge(companyId);
    if (!bridge) return 'missing';
    if (bridge.revokedAt) return 'revoked';
    if (bridge.lastError === 'refused') return 'failed';
    return bridge.accessToken ? 'granted' : 'missing';
  }

  async function sync(companyId: number): Promise<void> {
    const bulbs = await withBridge(companyId, (client, token) => client.lights(token));
    await repository.syncBulbs(companyId, bulbs);
    await repository.setError(companyId, null);
  }

  async function companyLight(companyId: number, id: number): Promise<LightRecord> {
    const light = await repository.byId(id);
    if (!light || light.companyId !== companyId) throw new ApiError(Code.LIGHT_NOT_FOUND);
    return light;
  }

  /** Sets a bulb at the bridge, then records it; used by the console and by the rule engine. */
  async function applySetting(companyId: number, light: LightRecord, setting: LightSetting): Promise<void> {
    await withBridge(companyId, (client, token) => client.setState(token, light.bridgeLightId, setting));
    const on = setting.brightness === 0 ? false : setting.on;
    await repository.saveState(light.id, {
      ...(on === undefined ? {} : { on }),
      ...(setting.brightness === undefined || setting.brightness === 0 ? {} : { brightness: setting.brightness }),
      ...(setting.colorTemperature === undefined ? {} : { colorTemperature: setting.colorTemperature }),
    });
  }

  return {
    async oauthStart(auth: AuthContext, origin: string): Promise<LightOauthStart> {
      const companyId = await deps.apps.require(auth, 'smart_bulb');
      const client = bridgeClient();
      const state = randomBytes(24).toString('base64url');
      const verifier = randomBytes(32).toString('base64url');
      await repository.savePending(sha256(state), companyId, auth.userId, box.seal(verifier));
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      return { url: client.authorizeUrl({ state, challenge, redirectUri: deps.redirectUrl(origin) }) };
    },

    async oauthCallback(auth: AuthContext, input: LightOauthCallback, origin: string, language: Language): Promise<LightBridgeStatus> {
      const companyId = await deps.apps.require(auth, 'smart_bulb');
      const client = bridgeClient();
      const pending = await repository.takePending(sha256(input.state));
      const verifier = pending ? box.open(pending.verifier) : undefined;
      if (
        !pending ||
        !verifier ||
        pending.companyId !== companyId ||
        pending.userId !== auth.userId ||
        pending.createdAt.getTime() + STATE_TTL_MS < Date.now()
      )
        throw new ApiError(Code.LIGHT_OAUTH_STATE_INVALID);
      let tokens: TokenSet;
      try {
        tokens = await client.exchange(input.code, verifier, deps.redirectUrl(origin));
      } catch (error) {
        if (error instanceof BridgeFailure)
          throw new ApiError(error.kind === 'refused' ? Code.LIGHT_TOKEN_REFUSED : Code.LIGHT_BRIDGE_UNREACHABLE);
        throw error;
      }
      await store(companyId, auth.userId, tokens);
      await deps.log.record(auth, { action: 'light.connect', targetType: 'device', target: 'light-bridge', result: 'ok' });
      return this.check(auth, language);
    },

    async revoke(auth: AuthContext, language: Language): Promise<LightBridgeStatus> {
      const companyId = await deps.apps.require(auth, 'smart_bulb');
      const bridge = await repository.bridge(companyId);
      const client = deps.client();
      if (client && bridge) {
        for (const sealed of [bridge.refreshToken, bridge.accessToken]) {
          const token = sealed ? box.open(sealed) : undefined;
          if (token) await client.revoke(token);
        }
      }
      if (bridge) await repository.revoke(companyId);
      await deps.log.record(auth, { action: 'light.revoke', targetType: 'device', target: 'light-bridge', result: 'ok' });
      return this.check(auth, language);
    },

    /** light/bridge/check: whether the bridge answers with the stored authorisation (bulbs refreshed from it). */
    async check(auth: AuthContext, language: Language): Promise<LightBridgeStatus> {
      const companyId = await deps.apps.require(auth, 'smart_bulb');
      const bridge = await repository.bridge(companyId);
      let reachable = false;
      let message: string | null = null;
      if (bridge?.accessToken) {
        try {
          await sync(companyId);
          reachable = true;
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const key = `code.${error.responseCode}`;
          message = isMessageKey(key) ? translate(language, key) : null;
        }
      }
      return {
        authorisation: await authorisation(companyId),
        reachable,
        connectedAt: bridge?.connectedAt?.toISOString() ?? null,
        message,
        lights: (await repository.list(companyId)).length,
      };
    },

    /** GET light: the company's bulbs (states refreshed from the bridge when it answers). */
    async list(auth: AuthContext): Promise<Light[]> {
      const companyId = await deps.apps.require(auth, 'smart_bulb');
      const bridge = await repository.bridge(companyId);
      if (bridge?.accessToken) await sync(companyId).catch(() => undefined);
      return (await repository.list(companyId)).map(present);
    },

    /** plant/{id}/light: the plant's bulbs, for whoever views the plant. */
    async ofPlant(auth: AuthContext, plantId: number): Promise<Light[]> {
      await deps.access.require(auth, plantId, 'view');
      return (await repository.ofPlant(plantId)).map(present);
    },

    async bind(auth: AuthContext, id: number, plantId: number): Promise<Light> {
      const companyId = await deps.apps.require(auth, 'smart_bulb');
      const light = await companyLight(companyId, id);
      await deps.access.require(auth, plantId, 'operate');
      await repository.bind(light.id, plantId);
      await deps.log.record(auth, { action: 'light.bind', targetType: 'device', target: `light:${light.id}`, plantId, result: 'ok' });
      return present((await repository.byId(light.id)) ?? light);
    },

    async unbind(auth: AuthContext, id: number): Promise<Light> {
      const companyId = await deps.apps.require(auth, 'smart_bulb');
      const light = await companyLight(companyId, id);
      await repository.bind(light.id, null);
      await deps.log.record(auth, {
        action: 'light.unbind',
        targetType: 'device',
        target: `light:${light.id}`,
        plantId: light.plantId,
        result: 'ok',
      });
      return present((await repository.byId(light.id)) ?? light);
    },

    async setting(auth: AuthContext, id: number, setting: LightSetting): Promise<Light> {
      const companyId = await deps.apps.require(auth, 'smart_bulb');
      const light = await companyLight(companyId, id);
      try {
        await applySetting(companyId, light, setting);
      } catch (error) {
        const detail = error instanceof ApiError ? `code ${error.responseCode}` : 'error';
        await deps.log.record(auth, {
          action: 'light.setting',
          targetType: 'device',
          target: `light:${light.id}`,
          plantId: light.plantId,
          request: setting,
          result: 'failed',
          detail,
        });
        throw error;
      }
      await deps.log.record(auth, {
        action: 'light.setting',
        targetType: 'device',
        target: `light:${light.id}`,
        plantId: light.plantId,
        request: setting,
        result: 'ok',
      });
      return present((await repository.byId(light.id)) ?? light);
    },

    /** For the rule engine: sets a plant's bulb with its company's bridge (no user). */
    async applyForRule(lightId: number, plantId: number, setting: LightSetting): Promise<void> {
      const light = await repository.byId(lightId);
      if (!light || light.plantId !== plantId) throw new ApiError(Code.SMART_RULE_DEVICE_INVALID);
      if (!(await deps.apps.isEnabled(light.companyId, 'smart_bulb'))) throw new ApiError(Code.APP_NOT_ENABLED);
      await applySetting(light.companyId, light, setting);
    },

    /** A plant's bulbs (the rule checks). */
    plantLights: (plantId: number) => repository.ofPlant(plantId),
  };
}

export type LightService = ReturnType<typeof createLightService>;
