import { randomBytes } from 'node:crypto';
import { Code } from '@sunward/contracts/codes';
import type { CommandResult } from '@sunward/contracts/commands';
import { type DeviceKind, type DeviceRow, kindOfFamily } from '@sunward/contracts/devices';
import type { Language } from '@sunward/contracts/languages';
import {
  API_KEY_PATTERN,
  type ApiKeyAccess,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type ApiKeyRow,
  OPEN_API_LIMITS,
} from '@sunward/contracts/open-api';
import type { PermissionKey } from '@sunward/contracts/permissions';
import type { PlantRow } from '@sunward/contracts/plants';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { hashToken } from '../auth/tokens.js';
import type { ApiKeyRecord, OpenApiRepository } from './open-api.repository.js';

const DAY_MS = 86_400_000;
/** Last use is written at most this often per key. */
const TOUCH_MS = 10_000;
/** Every plant the key sees is listed (the console list's own query, one page). */
const ALL_PLANTS = 1_000_000;
const DEVICE_PAGE = 100;

/** Who calls /open/v1: a key acting for its creator with the creator's access of now, narrowed to its plants. */
export interface KeyPrincipal {
  keyId: number;
  prefix: string;
  access: ApiKeyAccess;
  auth: AuthContext;
  /** null: every plant the creator sees. */
  plantIds: ReadonlySet<number> | null;
}

/** The console functions the open API answers with, so its figures are the console's (never a copy). */
export interface OpenApiDeps {
  repository: OpenApiRepository;
  access: {
    levels(auth: AuthContext, plantIds: readonly number[]): Promise<Map<number, 'view' | 'operate' | 'manage'>>;
    require(auth: AuthContext, plantId: number, needed: 'view' | 'operate' | 'manage'): Promise<unknown>;
  };
  permissionsOf(roleId: number, inCompany: boolean): Promise<ReadonlySet<PermissionKey>>;
  plants: {
    list(
      auth: AuthContext,
      filter: Record<string, never>,
      page: number,
      size: number,
      sort: string,
      order: 'asc' | 'desc',
    ): Promise<{ records: PlantRow[] }>;
  };
  devices: {
    list(
      auth: AuthContext,
      kind: DeviceKind,
      query: { page: number; size: number; plantId: number; sort: 'sn'; order: 'asc' },
    ): Promise<{ infos: DeviceRow[] }>;
  };
  commands: {
    boot(auth: AuthContext, language: Language, sn: string, body: { idempotencyKey?: string }): Promise<CommandResult>;
    shutdown(
      auth: AuthContext,
      language: Language,
      sn: string,
      body: { idempotencyKey?: string; confirmed?: boolean },
    ): Promise<CommandResult>;
    writeParams(
      auth: AuthContext,
      language: Language,
      sn: string,
      body: { params: Record<string, number>; idempotencyKey?: string; confirmed?: boolean },
    ): Promise<CommandResult>;
  };
  now?: () => number;
}

export function keyState(key: Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt'>, now: number): ApiKeyRow['state'] {
  if (key.revokedAt) return 'revoked';
  return key.expiresAt.getTime() <= now ? 'expired' : 'active';
}

/** A new key: `sw_<10 hex prefix>_<256 random bits, base64url>`; the server keeps its SHA-256 only. */
export function newApiKey(): { prefix: string; secret: string } {
  const prefix = randomBytes(5).toString('hex');
  return { prefix, secret: `sw_${prefix}_${randomBytes(32).toString('base64url')}` };
}

/** The prefix of a presented key (the rate limit counts per key without a database call), or undefined. */
export function keyPrefixOf(authorization: string | undefined): string | undefined {
  const [scheme, token] = (authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token) return undefined;
  return API_KEY_PATTERN.exec(token)?.[1];
}

export function createOpenApiService(deps: OpenApiDeps) {
  const { repository, access, permissionsOf } = deps;
  const now = deps.now ?? Date.now;
  const touched = new Map<number, number>();
  const quotas = new Map<string, { at: number; quota: number }>();

  async function present(keys: readonly ApiKeyRecord[]): Promise<ApiKeyRow[]> {
    const names = await repository.plantNames([...new Set(keys.flatMap((k) => k.plantIds))]);
    const t = now();
    return keys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: `sw_${k.prefix}`,
      scope: k.scope,
      plantIds: k.plantIds,
      plantNames: k.plantIds.flatMap((id) => names.get(id) ?? []),
      access: k.access,
      quotaPerMinute: k.quotaPerMinute,
      createdBy: k.createdByAccount,
      createdAt: k.createdAt.toISOString(),
      expiresAt: k.expiresAt.toISOString(),
      revokedAt: k.revokedAt?.toISOString() ?? null,
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      state: keyState(k, t),
    }));
  }

  /** A plant of the key's scope the creator still sees (700 otherwise, as the console answers a plant not theirs). */
  async function plant(principal: KeyPrincipal, plantId: number): Promise<number> {
    if (principal.plantIds !== null && !principal.plantIds.has(plantId)) throw new ApiError(Code.PLANT_NOT_FOUND);
    await access.require(principal.auth, plantId, 'view');
    return plantId;
  }

  /** A device of a plant in the key's scope, with the console's kind for it (602 otherwise). */
  async function device(principal: KeyPrincipal, sn: string): Promise<{ sn: string; kind: DeviceKind; plantId: number }> {
    const found = await repository.deviceBySn(sn);
    const kind = found ? kindOfFamily(found.family) : undefined;
    if (!found || found.plantId === null || !kind) throw new ApiError(Code.DEVICE_NOT_FOUND);
    const plantId = found.plantId;
    if (principal.plantIds !== null && !principal.plantIds.has(plantId)) throw new ApiError(Code.DEVICE_NOT_FOUND);
    const level = (await access.levels(principal.auth, [plantId])).get(plantId);
    if (!level) throw new ApiError(Code.DEVICE_NOT_FOUND);
    return { sn: found.sn, kind, plantId };
  }

  /** Commands: operator keys only, and the creator's own permission for the command (2 otherwise). */
  function operator(principal: KeyPrincipal, key: PermissionKey): AuthContext {
    if (principal.access !== 'operator' || !principal.auth.permissions.has(key)) throw new ApiError(Code.NO_PERMISSION);
    return principal.auth;
  }

  return {
    /**
     * A key for the caller: scope 'all' (every plant the caller sees, at each use) is for a company
     * administrator or an owner outside a company; chosen plants must be plants the caller manages (700).
     */
    async create(auth: AuthContext, input: ApiKeyCreate): Promise<ApiKeyCreated> {
      let plantIds: number[] = [];
      if (input.scope === 'all') {
        if (auth.companyId !== null && auth.roleKey !== 'company_admin') throw new ApiError(Code.NO_PERMISSION);
      } else {
        plantIds = [...new Set(input.plantIds)];
        const levels = await access.levels(auth, plantIds);
        if (plantIds.some((id) => levels.get(id) !== 'manage')) throw new ApiError(Code.PLANT_NOT_FOUND);
      }
      const at = now();
      if ((await repository.activeKeyCount(auth.userId, new Date(at))) >= OPEN_API_LIMITS.keysPerUserMax)
        throw new ApiError(Code.API_KEY_LIMIT, { max: OPEN_API_LIMITS.keysPerUserMax });
      const { prefix, secret } = newApiKey();
      const id = await repository.insertKey({
        name: input.name,
        prefix,
        secretHash: hashToken(secret),
        createdBy: auth.userId,
        companyId: auth.companyId,
        scope: input.scope,
        plantIds,
        access: input.access,
        quotaPerMinute: input.quotaPerMinute,
        expiresAt: new Date(at + input.expiresInDays * DAY_MS),
      });
      const record = await repository.keyById(id);
      const [key] = record ? await present([record]) : [];
      if (!key) throw new ApiError(Code.SERVER_ERROR);
      return { key, secret };
    },

    async list(auth: AuthContext): Promise<ApiKeyRow[]> {
      return present(await repository.listKeys(auth.userId, auth.roleKey === 'company_admin' ? auth.companyId : null));
    },

    /** The creator revokes, or the administrator of the key's company; others see 4320. */
    async revoke(auth: AuthContext, id: number): Promise<void> {
      const key = await repository.keyById(id);
      const may =
        key &&
        (key.createdBy === auth.userId || (auth.roleKey === 'company_admin' && key.companyId !== null && key.companyId === auth.companyId));
      if (!key || !may) throw new ApiError(Code.API_KEY_INVALID);
      await repository.revokeKey(id, new Date(now()));
      quotas.delete(key.prefix);
    },

    /** Requests per minute of the key with this prefix (the default for an unknown one), cached for 30 s. */
    async quotaOf(prefix: string | undefined): Promise<number> {
      if (!prefix) return OPEN_API_LIMITS.quotaDefault;
      const t = now();
      const hit = quotas.get(prefix);
      if (hit && t - hit.at < 30_000) return hit.quota;
      const quota = (await repository.quotaByPrefix(prefix)) ?? OPEN_API_LIMITS.quotaDefault;
      if (quotas.size > 10_000) quotas.clear();
      quotas.set(prefix, { at: t, quota });
      return quota;
    },

    /**
     * The principal behind a presented key, checked at every call: known and not revoked (4320), not expired
     * (4321); its creator still enabled, still allowed to view plants, and still seeing at least one of its
     * chosen plants (4320 otherwise). Last use is recorded.
     */
    async authenticate(authorization: string | undefined, ip: string): Promise<KeyPrincipal> {
      const [scheme, token] = (authorization ?? '').split(' ');
      const valid = scheme?.toLowerCase() === 'bearer' && token !== undefined && API_KEY_PATTERN.test(token);
      const key = valid ? await repository.keyBySecretHash(hashToken(token)) : undefined;
      if (!key || key.revokedAt) throw new ApiError(Code.API_KEY_INVALID);
      const at = now();
      if (key.expiresAt.getTime() <= at) throw new ApiError(Code.API_KEY_EXPIRED);
      const creator = await repository.creator(key.createdBy);
      if (!creator || creator.disabled) throw new ApiError(Code.API_KEY_INVALID);
      const permissions = await permissionsOf(creator.roleId, creator.companyId !== null);
      if (!permissions.has('station.view')) throw new ApiError(Code.API_KEY_INVALID);
      const auth: AuthContext = {
        userId: creator.userId,
        sessionId: `api-key:${key.id}`,
        // The command audit and the operation log name the key beside its creator.
        account: `${creator.account} (API key sw_${key.prefix})`,
        roleId: creator.roleId,
        roleKey: creator.roleKey,
        companyId: creator.companyId,
        readOnly: key.access === 'read',
        permissions,
        ip,
      };
      let plantIds: Set<number> | null = null;
      if (key.scope === 'plants') {
        const levels = await access.levels(auth, key.plantIds);
        plantIds = new Set(key.plantIds.filter((id) => levels.has(id)));
        if (plantIds.size === 0) throw new ApiError(Code.API_KEY_INVALID);
      }
      if (at - (touched.get(key.id) ?? 0) >= TOUCH_MS) {
        touched.set(key.id, at);
        await repository.touchKey(key.id, new Date(at));
      }
      return { keyId: key.id, prefix: key.prefix, access: key.access, auth, plantIds };
    },

    plant,
    device,

    /** The key's plants: the console's plant list rows, narrowed to the key's scope. */
    async plants(principal: KeyPrincipal): Promise<PlantRow[]> {
      const page = await deps.plants.list(principal.auth, {}, 1, ALL_PLANTS, 'createdAt', 'asc');
      return principal.plantIds === null ? page.records : page.records.filter((r) => principal.plantIds?.has(r.id));
    },

    /** A plant's devices of every kind: the console's device list rows (each kind's list, filtered to the plant). */
    async plantDevices(principal: KeyPrincipal, plantId: number): Promise<DeviceRow[]> {
      await plant(principal, plantId);
      const kinds: DeviceKind[] = [
        'inverter',
        'battery',
        'meter',
        'optimizer',
        'weather_station',
        'combiner_box',
        'heat_pump',
        'ac_switch',
      ];
      const pages = await Promise.all(
        kinds.map((kind) => deps.devices.list(principal.auth, kind, { page: 1, size: DEVICE_PAGE, plantId, sort: 'sn', order: 'asc' })),
      );
      return pages.flatMap((p) => p.infos);
    },

    async boot(principal: KeyPrincipal, language: Language, sn: string, body: { idempotencyKey?: string }): Promise<CommandResult> {
      const auth = operator(principal, 'inverter.control');
      await device(principal, sn);
      return deps.commands.boot(auth, language, sn, body);
    },

    /** Shutdown and parameter writes ask the console user's password again; an operator key is that proof here. */
    async shutdown(principal: KeyPrincipal, language: Language, sn: string, body: { idempotencyKey?: string }): Promise<CommandResult> {
      const auth = operator(principal, 'inverter.control');
      await device(principal, sn);
      return deps.commands.shutdown(auth, language, sn, { ...body, confirmed: true });
    },

    async writeParams(
      principal: KeyPrincipal,
      language: Language,
      sn: string,
      body: { params: Record<string, number>; idempotencyKey?: string },
    ): Promise<CommandResult> {
      const auth = operator(principal, 'inverter.setting');
      await device(principal, sn);
      return deps.commands.writeParams(auth, language, sn, { ...body, confirmed: true });
    },
  };
}

export type OpenApiService = ReturnType<typeof createOpenApiService>;
