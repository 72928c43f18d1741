import { Code } from '@sunward/contracts/codes';
import { type DeviceStatusValue, worstStatus } from '@sunward/contracts/device-status';
import {
  type GatewayBinding,
  type GatewayCheck,
  isLatitude,
  isLongitude,
  type PlantCreate,
  type PlantDetail,
  type PlantFields,
  type ShareRole,
  type Tariff,
} from '@sunward/contracts/plants';
import { gatewayKeyMatches } from '../../ingest/gateway-auth.js';
import type { RegistryEvents } from '../../ingest/registry-events.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { verifyPassword } from '../auth/password.js';
import { requireSecret, type SecretThrottle } from '../auth/secret-throttle.js';
import type { PlantAccess } from './plant-access.js';
import type { PlantsRepository } from './plants.repository.js';
import type { TimeZoneCatalogue } from './time-zones.js';

/** Compared with a key given for an unknown SN, so that answer takes as long as a wrong key's. */
const UNKNOWN_GATEWAY_HASH = '0'.repeat(64);

function isDeviceStatus(value: number): value is DeviceStatusValue {
  return value >= 1 && value <= 6;
}

/** Checks that code 4 cannot express by schema alone: coordinates (code 10), the time zone and the currency (the dictionary's). */
export async function checkPlantFields(fields: PlantFields, timeZones: TimeZoneCatalogue): Promise<void> {
  if (!isLatitude(fields.latitude) || !isLongitude(fields.longitude)) throw new ApiError(Code.COORDINATES_INVALID);
  if (!(await timeZones.has(fields.timezone)))
    throw new ApiError(Code.VALIDATION, {}, { errors: [{ field: 'timezone', message: 'validation.timezone' }] });
}

/** A tariff's currency is one the dictionary offers (issue 24: administrators add currencies there). */
async function checkCurrency(tariff: Tariff, currencies: { has(code: string): Promise<boolean> } | undefined): Promise<void> {
  if (currencies && !(await currencies.has(tariff.currency)))
    throw new ApiError(Code.VALIDATION, {}, { errors: [{ field: 'currency', message: 'validation.invalidValue' }] });
}

/**
 * Plant rules of spec 02 §5–6: creation binds gateways checked by SN and key, sharing only by the
 * creator and never with oneself or company users, transfer with the owner's password.
 */
export function createPlantsService(deps: {
  /** Counts wrong gateway keys per SN and address, wrong transfer passwords with sign-in's. */
  throttle: SecretThrottle;
  repository: PlantsRepository;
  access: PlantAccess;
  registry: RegistryEvents;
  timeZones: TimeZoneCatalogue;
  /** The dictionary's enabled currencies (issue 24). */
  currencies?: { has(code: string): Promise<boolean> };
}) {
  const { throttle } = deps;
  const { repository, access, registry, timeZones, currencies } = deps;

  /**
   * A gateway the caller may bind: SN and key match (300 for an unknown SN and for a wrong key alike, so the
   * answer tells nothing about which SNs exist; 135 once guessed at too often), and it is free (301).
   */
  async function checkGateway(binding: GatewayBinding, ip: string) {
    let gateway = undefined as Awaited<ReturnType<PlantsRepository['gatewayBySn']>>;
    await requireSecret(
      throttle,
      { kind: 'gateway-key', subject: binding.sn, ip },
      async () => {
        gateway = await repository.gatewayBySn(binding.sn);
        return gatewayKeyMatches(binding.key, gateway?.keyHash ?? UNKNOWN_GATEWAY_HASH);
      },
      Code.GATEWAY_REGISTRATION_WRONG,
    );
    if (!gateway) throw new ApiError(Code.GATEWAY_REGISTRATION_WRONG);
    if (gateway.plantId !== null) throw new ApiError(Code.GATEWAY_USED);
    return gateway;
  }

  /** After devices join a plant, its status is the worst of theirs (until the next report recomputes it). */
  async function afterBinding(plantId: number): Promise<void> {
    const statuses = await repository.deviceStatuses(plantId);
    await repository.setStatus(plantId, worstStatus(statuses.filter(isDeviceStatus)));
    await registry.changed();
  }

  return {
    async checkGateway(auth: AuthContext, binding: GatewayBinding): Promise<GatewayCheck> {
      const gateway = await checkGateway(binding, auth.ip);
      return { sn: binding.sn, online: gateway.online, deviceCount: gateway.deviceCount };
    },

    async create(auth: AuthContext, input: PlantCreate): Promise<number> {
      const { gateways: bindings, tariff, ...fields } = input;
      await checkPlantFields(fields, timeZones);
      await checkCurrency(tariff, currencies);
      const ids: number[] = [];
      for (const binding of bindings) ids.push((await checkGateway(binding, auth.ip)).id);
      // A company member creates a company plant; an independent owner or installer owns it alone.
      const plantId = await repository.create(fields, tariff, auth.userId, auth.companyId, ids);
      await afterBinding(plantId);
      return plantId;
    },

    async detail(auth: AuthContext, plantId: number): Promise<PlantDetail> {
      const level = await access.require(auth, plantId, 'view');
      const detail = await repository.detail(plantId, level, auth.userId);
      if (!detail) throw new ApiError(Code.PLANT_NOT_FOUND);
      return detail;
    },

    async update(auth: AuthContext, plantId: number, fields: PlantFields): Promise<void> {
      await access.require(auth, plantId, 'manage');
      await checkPlantFields(fields, timeZones);
      await repository.update(plantId, fields);
    },

    async setTariff(auth: AuthContext, plantId: number, tariff: Tariff): Promise<void> {
      await access.require(auth, plantId, 'manage');
      await checkCurrency(tariff, currencies);
      await repository.setTariff(plantId, tariff);
    },

    async bindGateway(auth: AuthContext, plantId: number, binding: GatewayBinding): Promise<void> {
      await access.require(auth, plantId, 'manage');
      const gateway = await checkGateway(binding, auth.ip);
      await repository.bindGateways(plantId, [gateway.id]);
      await afterBinding(plantId);
    },

    /** Only the creator shares (2); not with oneself (701), not with company users (702), not a company plant (703). */
    async share(auth: AuthContext, plantId: number, account: string, role: ShareRole): Promise<void> {
      await access.require(auth, plantId, 'view');
      const plant = await repository.record(plantId);
      if (!plant) throw new ApiError(Code.PLANT_NOT_FOUND);
      if (plant.ownerId !== auth.userId) throw new ApiError(Code.NO_PERMISSION);
      if (plant.companyId !== null) throw new ApiError(Code.SHARE_COMPANY_PLANT);
      const target = await repository.userByAccount(account);
      if (!target) throw new ApiError(Code.ACCOUNT_NOT_REGISTERED);
      if (target.id === auth.userId) throw new ApiError(Code.SHARE_WITH_SELF);
      if (target.companyId !== null) throw new ApiError(Code.SHARE_TO_COMPANY_USER);
      if (target.disabled) throw new ApiError(Code.ACCOUNT_DISABLED);
      await repository.share(plantId, target.id, role);
    },

    async cancelShare(auth: AuthContext, plantId: number, userId: number): Promise<void> {
      await access.require(auth, plantId, 'view');
      const plant = await repository.record(plantId);
      if (!plant) throw new ApiError(Code.PLANT_NOT_FOUND);
      // The creator withdraws any share; a guest or maintainer may leave a plant shared with them.
      if (plant.ownerId !== auth.userId && userId !== auth.userId) throw new ApiError(Code.NO_PERMISSION);
      // Withdrawing someone else's share is a change of the plant: it needs the share key, not just a view.
      if (userId !== auth.userId && !auth.permissions.has('station.share')) throw new ApiError(Code.NO_PERMISSION);
      await repository.cancelShare(plantId, userId);
    },

    async shareUsers(auth: AuthContext, plantId: number) {
      await access.require(auth, plantId, 'manage');
      return repository.shareUsers(plantId);
    },

    /**
     * The owner hands the plant over: their own password confirms it (705), never to themselves (704).
     * A company plant stays in its company: the new owner must be a member of it (702 otherwise).
     */
    async transfer(auth: AuthContext, plantId: number, account: string, password: string): Promise<void> {
      await access.require(auth, plantId, 'manage');
      const plant = await repository.record(plantId);
      if (!plant) throw new ApiError(Code.PLANT_NOT_FOUND);
      await requireSecret(
        throttle,
        { kind: 'password', subject: auth.account, ip: auth.ip },
        async () => {
          const hash = await repository.passwordHash(auth.userId);
          return !!hash && (await verifyPassword(password, hash));
        },
        Code.OWNER_PASSWORD_WRONG,
      );
      const target = await repository.userByAccount(account);
      if (!target) throw new ApiError(Code.ACCOUNT_NOT_REGISTERED);
      if (target.id === plant.ownerId || target.id === auth.userId) throw new ApiError(Code.TRANSFER_TO_SELF);
      if (target.disabled) throw new ApiError(Code.ACCOUNT_DISABLED);
      if (plant.companyId !== null && target.companyId !== plant.companyId) throw new ApiError(Code.SHARE_TO_COMPANY_USER);
      await repository.transfer(plantId, target.id);
    },

    async delete(auth: AuthContext, plantId: number): Promise<void> {
      await access.require(auth, plantId, 'manage');
      await repository.delete(plantId);
      await registry.changed();
    },
  };
}

export type PlantsService = ReturnType<typeof createPlantsService>;
