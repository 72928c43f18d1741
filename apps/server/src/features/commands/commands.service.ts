import { Code, type ResponseCode } from '@sunward/contracts/codes';
import type {
  BatchUpgradeCheck,
  CommandLogQuery,
  CommandResult,
  DebugRequest,
  SettingsDeviceRow,
  SettingsDevicesQuery,
  SettingsFamily,
  UpgradeTarget,
  WritableParam,
} from '@sunward/contracts/commands';
import { DeviceStatus } from '@sunward/contracts/device-status';
import { DEVICE_KIND_INFO } from '@sunward/contracts/devices';
import { DISCHARGE_POINT } from '@sunward/contracts/energy-hub';
import { compareVersions, firmwareFits, versionInRange } from '@sunward/contracts/firmware-compat';
import type { CommandPayload, ReplyPayload } from '@sunward/contracts/gateway-protocol';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { decodeBlocks, registersFromHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveHub } from '../../ingest/live-hub.js';
import { ApiError } from '../../lib/envelope.js';
import { commandMetrics } from '../../lib/metrics.js';
import type { AuthContext } from '../../plugins/auth.js';
import { verifyPassword } from '../auth/password.js';
import { requireSecret, type SecretThrottle } from '../auth/secret-throttle.js';
import type { DeviceAccess } from '../devices/device-access.js';
import { catalogueOf, writableParams } from '../devices/device-catalogue.js';
import type { DeviceRecord, DevicesRepository } from '../devices/devices.repository.js';
import type { GatewayRecord } from '../gateways/gateways.repository.js';
import { CommandChannelClosedError, CommandTimeoutError } from './command-channel.js';
import { type CommandTracker, commandCorrelationId } from './command-tracker.js';
import type { CommandLogFilter, CommandsRepository, StoredOutcome } from './commands.repository.js';
import { assertLimitPairs, familiesOf, familyPointIds, protocolsWithSettings, settingPairsOf, unconfirmed } from './settings-forms.js';

type Op = 'boot' | 'shutdown' | 'set' | 'read' | 'write' | 'upgrade' | 'cancel_upgrade';

/** Inverter families a command may address (spec 01 §7 Inverters). */
const INVERTER_FAMILIES = ['inverter', 'hybrid_inverter', 'micro_inverter'];
/** Settings families address any device whose map carries them (a switch's limits, for one). */
const ALL_FAMILIES = Object.values(DEVICE_KIND_INFO).flatMap((k) => k.families);
const BATTERY_FAMILIES = DEVICE_KIND_INFO.battery.families;
/** The device families each upgrade target names. */
const UPGRADE_FAMILIES: Record<Exclude<UpgradeTarget, 'gateway'>, readonly string[]> = {
  inverter: INVERTER_FAMILIES,
  battery: BATTERY_FAMILIES,
};

/** How often pending commands of a stopped server process are looked for. */

/** A response code's text in the caller's language (lists of per-device results). */
function codeMessage(language: Language, code: number): string {
  return translate(language, `code.${code}` as Parameters<typeof translate>[1], { cap: '' });
}

/** Gateway refusals as the console's codes. */
const REFUSALS: Partial<Record<NonNullable<ReplyPayload['error']>, ResponseCode>> = {
  device_offline: Code.DEVICE_OFFLINE,
  device_upgrading: Code.DEVICE_UPGRADING,
  unsupported: Code.SETTING_NOT_SUPPORTED,
  out_of_range: Code.VALIDATION,
  bad_request: Code.VALIDATION,
};

/** What an upgrade needs of a firmware record. */
export interface UpgradeImage {
  id: number;
  type: string;
  mode: string;
  enabled: boolean;
  swVersion: string;
  size: number;
  sha256: string;
  signature: string;
  hwVersion: string | null;
  swCompatible: string | null;
}

/** Spec 02 §4 upgrade results from the command's record. */
function upgradeState(status: string, message: string | null | undefined): 'waiting' | 'upgrading' | 'successful' | 'failed' | 'cancelled' {
  if (status === 'queued') return 'waiting';
  if (status === 'pending') return 'upgrading';
  if (status === 'ok') return 'successful';
  return message === 'cancelled' ? 'cancelled' : 'failed';
}

export interface CommandsSettings {
  /** How long a command waits for its reply. */
  timeoutMs: number;
  /** Devices a company may command per minute when it has no cap of its own. */
  defaultCapPerMinute: number;
}

/** Whose commands the caller sees: their company's, their own without one, everyone's for the platform. */
export function commandLogScope(auth: AuthContext, filters: Omit<CommandLogQuery, 'page' | 'size'>): CommandLogFilter {
  return { ...filters, companyId: auth.companyId, all: auth.roleKey === 'platform_admin', userId: auth.userId };
}

/**
 * Remote operation of a device: who may, what is checked before anything is sent (level, offline,
 * upgrading, the password again for destructive commands, the company's per-minute cap), the command
 * sent once per idempotency key, the reply mapped to a result, and every step audited.
 */
export function createCommandsService(deps: {
  repository: CommandsRepository;
  devices: DevicesRepository;
  access: DeviceAccess;
  /** The command tracker (features/commands/command-tracker.ts), once telemetry runs. */
  commands: () => CommandTracker | undefined;
  settings: CommandsSettings;
  /** Counts wrong confirmation passwords with sign-in's (135 once locked). */
  throttle: SecretThrottle;
  /** Firmware records and the signed links devices fetch images from (upgrades). */
  firmware?: {
    byId(id: number): Promise<UpgradeImage | undefined>;
    /** Whether the caller may use the image (one authorised for a company: that company's subtree only). */
    offeredTo(id: number, auth: AuthContext): Promise<boolean>;
    imagePath(id: number): string;
    /** The firmware versions the hardware list says a model can run (null: not listed, or any). */
    modelRange?(brand: string, model: string): Promise<string | null>;
  };
  /** Gateways by SN (their own upgrades). */
  gateways?: { find(by: { sn: string }): Promise<GatewayRecord | undefined> };
  /** Where devices reach this server over HTTP (the image link's origin). */
  baseUrl?: () => string;
  live?: LiveHub;
  log?: Pick<FastifyBaseLogger, 'error'>;
}) {
  const { repository, devices, access, settings } = deps;

  function channel(): CommandTracker {
    const found = deps.commands();
    if (!found) throw new ApiError(Code.SERVER_ERROR);
    return found;
  }

  /** A step of a command's background work that failed: logged with the command's id and counted, never lost in silence. */
  function failed(step: string, commandId: number) {
    return (error: unknown) => {
      const tracker = deps.commands();
      if (tracker) return tracker.failed(step, commandId, error);
      commandMetrics.failures.inc({ step });
      deps.log?.error({ err: error, commandId, step }, 'command step failed');
    };
  }

  /** The password again before a destructive command: 708 when wrong, 135 once wrong too often (even when right). */
  async function confirmPassword(auth: AuthContext, password: string | undefined): Promise<void> {
    if (!password) throw new ApiError(Code.CONFIRM_PASSWORD_WRONG);
    await requireSecret(
      deps.throttle,
      { kind: 'password', subject: auth.account, ip: auth.ip },
      async () => {
        const stored = await repository.passwordHash(auth.userId);
        return !!stored && (await verifyPassword(password, stored));
      },
      Code.CONFIRM_PASSWORD_WRONG,
    );
  }

  async function target(
    auth: AuthContext,
    sn: string,
    families: readonly string[] = INVERTER_FAMILIES,
    notFound: ResponseCode = families === INVERTER_FAMILIES ? Code.INVERTER_NOT_FOUND : Code.DEVICE_NOT_FOUND,
  ): Promise<DeviceRecord> {
    const device = await devices.find({ sn }, [...families]);
    await access.require(
      auth,
      device ? { id: device.id, plantId: device.plantId, companyId: device.companyId } : undefined,
      'operate',
      notFound,
    );
    return device as DeviceRecord;
  }

  function outcomeOf(
    code: ResponseCode,
    reply: Partial<ReplyPayload>,
    message: string | null,
    values?: Record<string, number | string> | null,
  ): StoredOutcome {
    return { code, hex: reply.hex ?? null, values: values ?? reply.values ?? null, message };
  }

  /** The command's result, or its refusal (a replayed retry answers with the same code as the first). */
  function answer(commandId: number, status: CommandResult['status'], outcome: StoredOutcome): CommandResult {
    if (outcome.code !== Code.OK) throw new ApiError(outcome.code as ResponseCode, {}, { commandId, message: outcome.message });
    return { commandId, status, hex: outcome.hex, values: outcome.values, message: outcome.message };
  }

  interface RunOptions {
    idempotencyKey?: string;
    password?: string;
    destructive: boolean;
    /** Cancelling an upgrade is the one command an upgrading device takes. */
    whileUpgrading?: boolean;
    /** What the audit keeps of the request, when it is not the command itself (an upgrade's signed link). */
    audit?: unknown;
    /** The device families the SN may name (default inverters; settings families address every kind). */
    families?: readonly string[];
    /** The password was already confirmed for a batch of which this command is one item. */
    confirmed?: boolean;
    decode?: (reply: ReplyPayload) => Record<string, number | string> | null;
    /** The command's own reading of a device's refusals, before the general ones (an AC switch's `locked`). */
    refusals?: Partial<Record<NonNullable<ReplyPayload['error']>, ResponseCode>>;
  }

  /**
   * Everything before a command is sent (nothing is sent when a check fails): a retry with a known key
   * answers the first result; level operate; the device online and not upgrading; the password for
   * destructive commands; the company's cap. Then the command is recorded.
   */
  async function prepare(
    auth: AuthContext,
    sn: string,
    op: Op,
    command: Omit<CommandPayload, 'v' | 'id' | 'device' | 'op'>,
    options: RunOptions,
  ): Promise<{ replay: CommandResult } | { device: DeviceRecord & { gatewaySn: string }; commandId: number }> {
    if (options.idempotencyKey) {
      const earlier = await repository.byIdempotencyKey(auth.userId, options.idempotencyKey);
      if (earlier) return { replay: replay(earlier.id, earlier.status, earlier.result) };
    }
    const device = await target(auth, sn, options.families);
    if (device.status === DeviceStatus.OFFLINE || device.gatewaySn === null) throw new ApiError(Code.DEVICE_OFFLINE);
    if (device.status === DeviceStatus.UPGRADING && !options.whileUpgrading) throw new ApiError(Code.DEVICE_UPGRADING);
    if (options.destructive && !options.confirmed) await confirmPassword(auth, options.password);
    await requireCap(auth, device.sn);
    const commandId = await repository.start({
      userId: auth.userId,
      account: auth.account,
      companyId: auth.companyId,
      deviceId: device.id,
      deviceSn: device.sn,
      gatewaySn: device.gatewaySn,
      plantId: device.plantId,
      op,
      request: options.audit ?? command,
      idempotencyKey: options.idempotencyKey ?? null,
    });
    if (commandId === undefined) {
      const earlier = options.idempotencyKey ? await repository.byIdempotencyKey(auth.userId, options.idempotencyKey) : undefined;
      if (!earlier) throw new ApiError(Code.SERVER_ERROR);
      return { replay: replay(earlier.id, earlier.status, earlier.result) };
    }
    return { device: { ...device, gatewaySn: device.gatewaySn }, commandId };
  }

  /** Records a gateway's final reply and answers it as the console's result or refusal. */
  async function conclude(
    commandId: number,
    reply: ReplyPayload,
    decode?: RunOptions['decode'],
    refusals?: RunOptions['refusals'],
  ): Promise<CommandResult> {
    if (reply.status !== 'ok') {
      const code = (reply.error && (refusals?.[reply.error] ?? REFUSALS[reply.error])) ?? Code.TIMEOUT;
      const outcome = outcomeOf(code, reply, reply.message ?? reply.error ?? null);
      await repository.finish(commandId, 'error', outcome);
      throw new ApiError(code, {}, { commandId, message: outcome.message });
    }
    const outcome = outcomeOf(Code.OK, reply, null, decode ? decode(reply) : undefined);
    await repository.finish(commandId, 'ok', outcome);
    return answer(commandId, 'ok', outcome);
  }

  /** Runs one command and waits for the device's reply (or the timeout, which is recorded as such). */
  async function run(
    auth: AuthContext,
    language: Language,
    sn: string,
    op: Op,
    command: Omit<CommandPayload, 'v' | 'id' | 'device' | 'op'>,
    options: RunOptions,
  ): Promise<CommandResult> {
    const prepared = await prepare(auth, sn, op, command, options);
    if ('replay' in prepared) return prepared.replay;
    const { device, commandId } = prepared;
    let reply: ReplyPayload;
    try {
      reply = await channel().send(
        device.gatewaySn,
        { ...command, device: device.sn, op },
        { timeoutMs: settings.timeoutMs, id: commandCorrelationId(commandId) },
      );
    } catch (error) {
      if (error instanceof CommandChannelClosedError) throw new ApiError(Code.SERVER_ERROR);
      const timedOut = error instanceof CommandTimeoutError;
      const message = translate(language, timedOut ? 'commands.timeout' : 'commands.sendFailed', {
        seconds: Math.round(settings.timeoutMs / 1000),
      });
      await repository.finish(commandId, timedOut ? 'timeout' : 'error', outcomeOf(Code.TIMEOUT, {}, message));
      throw new ApiError(Code.TIMEOUT, {}, { commandId, message });
    }
    return conclude(commandId, reply, options.decode, options.refusals);
  }

  function replay(commandId: number, status: string, outcome: StoredOutcome | null): CommandResult {
    if (status === 'pending' || !outcome) return { commandId, status: 'pending', hex: null, values: null, message: null };
    return answer(commandId, status as CommandResult['status'], outcome);
  }

  /** Writable points of the device's map with their current values, ranges and choices. */
  function writable(device: DeviceRecord, language: Language): WritableParam[] {
    return writableParams(device.protocolId, device.values, language);
  }

  /**
   * An enabled, remotely installable image of the target's type that the caller's company may use (the
   * pickers offer no other, and the server does not take one anyway); else code 4 naming firmId.
   */
  async function upgradeImage(auth: AuthContext, language: Language, firmId: number, kind: UpgradeTarget): Promise<UpgradeImage> {
    const record = deps.firmware ? await deps.firmware.byId(firmId) : undefined;
    const refuse = (key: 'commands.firmwareUnavailable' | 'commands.firmwareLocalOnly') =>
      new ApiError(Code.VALIDATION, {}, { errors: [{ field: 'firmId', message: translate(language, key) }] });
    if (!record?.enabled || record.type !== kind || !deps.firmware || !deps.baseUrl) throw refuse('commands.firmwareUnavailable');
    if (!(await deps.firmware.offeredTo(record.id, auth))) throw refuse('commands.firmwareUnavailable');
    if (record.mode !== 'remote') throw refuse('commands.firmwareLocalOnly');
    return record;
  }

  /** What the device is told to fetch: a signed link, the version, size, SHA-256 and the platform's signature. */
  function firmwareFor(record: UpgradeImage) {
    if (!deps.firmware || !deps.baseUrl) throw new ApiError(Code.SERVER_ERROR);
    return {
      url: `${deps.baseUrl()}${deps.firmware.imagePath(record.id)}`,
      version: record.swVersion,
      size: record.size,
      sha256: record.sha256,
      signature: record.signature,
    };
  }

  /**
   * The device an upgrade addresses, once the caller may operate it: not a battery slave (605), not on
   * the image's version already (4001), and fitting the image's hardware and software range and the
   * firmware range the hardware list gives its model (4010).
   */
  async function upgradable(auth: AuthContext, sn: string, kind: Exclude<UpgradeTarget, 'gateway'>, record: UpgradeImage) {
    const device = await target(auth, sn, UPGRADE_FAMILIES[kind], kind === 'inverter' ? Code.INVERTER_NOT_FOUND : Code.DEVICE_NOT_FOUND);
    if (kind === 'battery' && device.parentId !== null) throw new ApiError(Code.BATTERY_SLAVE);
    if (device.firmwareVersion && compareVersions(device.firmwareVersion, record.swVersion) === 0)
      throw new ApiError(Code.FIRMWARE_ALREADY_LATEST);
    if (!firmwareFits(record, { hwVersion: null, firmwareVersion: device.firmwareVersion }).fits)
      throw new ApiError(Code.FIRMWARE_INCOMPATIBLE);
    // The hardware list's range for the device's model: the image's version must be one the model can run.
    const range = device.brand && device.model ? await deps.firmware?.modelRange?.(device.brand, device.model) : null;
    if (range && versionInRange(record.swVersion, range) === false) throw new ApiError(Code.FIRMWARE_INCOMPATIBLE);
    return device;
  }

  /** The gateway an upgrade addresses, once the caller may operate it, with the same version and fit checks. */
  async function gatewayUpgradable(auth: AuthContext, sn: string, record: UpgradeImage) {
    const gateway = await deps.gateways?.find({ sn });
    await access.require(
      auth,
      gateway ? { id: gateway.id, plantId: gateway.plantId, companyId: gateway.companyId } : undefined,
      'operate',
      Code.GATEWAY_NOT_FOUND,
    );
    const found = gateway as NonNullable<typeof gateway>;
    if (found.fwVersion && compareVersions(found.fwVersion, record.swVersion) === 0) throw new ApiError(Code.FIRMWARE_ALREADY_LATEST);
    if (!firmwareFits(record, { hwVersion: found.hwVersion, firmwareVersion: found.fwVersion }).fits)
      throw new ApiError(Code.FIRMWARE_INCOMPATIBLE);
    // The hardware list's range for the gateway's model (its status names maker and model), as for devices.
    const range = found.manufacturer && found.model ? await deps.firmware?.modelRange?.(found.manufacturer, found.model) : null;
    if (range && versionInRange(record.swVersion, range) === false) throw new ApiError(Code.FIRMWARE_INCOMPATIBLE);
    return found;
  }

  /**
   * A gateway's own upgrade: sent now when the gateway is online, else queued and sent by the scheduler
   * as soon as it comes online (spec 02 §4). Password, idempotency and the company's cap as for devices.
   */
  async function upgradeGateway(
    auth: AuthContext,
    sn: string,
    record: UpgradeImage,
    body: { idempotencyKey?: string; password?: string; confirmed?: boolean },
  ): Promise<CommandResult> {
    const gateway = await gatewayUpgradable(auth, sn, record);
    if (await repository.openUpgrade(gateway.sn)) throw new ApiError(Code.DEVICE_UPGRADING);
    if (!body.confirmed) await confirmPassword(auth, body.password);
    await requireCap(auth, gateway.sn);
    const status = gateway.online ? 'pending' : 'queued';
    const commandId = await repository.start({
      userId: auth.userId,
      account: auth.account,
      companyId: auth.companyId,
      deviceId: null,
      deviceSn: gateway.sn,
      gatewaySn: gateway.sn,
      plantId: gateway.plantId,
      op: 'upgrade',
      request: { firmId: record.id, version: record.swVersion, target: 'gateway' },
      idempotencyKey: body.idempotencyKey ?? null,
      status,
    });
    if (commandId === undefined) {
      const earlier = body.idempotencyKey ? await repository.byIdempotencyKey(auth.userId, body.idempotencyKey) : undefined;
      if (!earlier) throw new ApiError(Code.SERVER_ERROR);
      return replay(earlier.id, earlier.status, earlier.result);
    }
    if (status === 'queued') return { commandId, status: 'queued', hex: null, values: null, message: null };
    dispatchUpgrade(
      commandId,
      { id: gateway.id, sn: gateway.sn, plantId: gateway.plantId, gatewaySn: gateway.sn, self: true },
      firmwareFor(record),
      'en',
    );
    return { commandId, status: 'pending', hex: null, values: null, message: null };
  }

  /** The company's per-minute cap on devices commanded (709). */
  async function requireCap(auth: AuthContext, sn: string): Promise<void> {
    const cap = await repository.capOf(auth.companyId, settings.defaultCapPerMinute);
    const recent = await repository.devicesCommandedLastMinute(auth.companyId, auth.userId);
    if (!recent.has(sn) && recent.size >= cap) throw new ApiError(Code.COMMAND_CAP_REACHED, { cap });
  }

  /**
   * Sends an upgrade and follows it without holding the request: progress kept on the command and pushed
   * live, the final reply or the timeout (which each progress message renews) recorded.
   */
  function dispatchUpgrade(
    commandId: number,
    to: { id: number; sn: string; plantId: number | null; gatewaySn: string; self?: boolean },
    firmware: ReturnType<typeof firmwareFor>,
    language: Language,
  ): void {
    const push = (progress: number, status: string) =>
      deps.live?.publish({ type: 'upgrade', deviceId: to.id, plantId: to.plantId, sn: to.sn, progress, status });
    void repository.progress(commandId, 0).catch(failed('upgrade_progress', commandId));
    push(0, 'upgrading');
    channel()
      .send(to.gatewaySn, to.self ? { op: 'upgrade', firmware } : { op: 'upgrade', device: to.sn, firmware }, {
        timeoutMs: settings.timeoutMs,
        id: commandCorrelationId(commandId),
        onProgress: (percent) => {
          void repository.progress(commandId, Math.round(percent)).catch(failed('upgrade_progress', commandId));
          push(Math.round(percent), 'upgrading');
        },
      })
      .then(async (reply) => {
        // A refusal is the device's answer, recorded by conclude (it throws it for requests that wait).
        await conclude(commandId, reply).catch((error: unknown) => {
          if (!(error instanceof ApiError)) failed('upgrade_conclude', commandId)(error);
        });
        push(reply.status === 'ok' ? 100 : 0, upgradeState(reply.status === 'ok' ? 'ok' : 'error', reply.error));
      })
      .catch(async (error: unknown) => {
        // Stopping: the command stays pending; the next process records the device's reply (or its silence).
        if (error instanceof CommandChannelClosedError) return;
        const message = translate(language, 'commands.timeout', { seconds: Math.round(settings.timeoutMs / 1000) });
        await repository.finish(commandId, 'timeout', outcomeOf(Code.TIMEOUT, {}, message)).catch(failed('upgrade_timeout', commandId));
        push(0, 'failed');
      });
  }

  return {
    boot: (auth: AuthContext, language: Language, sn: string, body: { idempotencyKey?: string }) =>
      run(auth, language, sn, 'boot', {}, { idempotencyKey: body.idempotencyKey, destructive: false }),

    /** `confirmed`: the caller proved itself otherwise (an operator API key of the open API); never from the console's body. */
    shutdown: (
      auth: AuthContext,
      language: Language,
      sn: string,
      body: { idempotencyKey?: string; password?: string; confirmed?: boolean },
    ) =>
      run(
        auth,
        language,
        sn,
        'shutdown',
        {},
        { idempotencyKey: body.idempotencyKey, password: body.password, destructive: true, confirmed: body.confirmed },
      ),

    async params(auth: AuthContext, language: Language, sn: string): Promise<WritableParam[]> {
      return writable(await target(auth, sn), language);
    },

    /** Writes parameters (checked against the map's ranges first), then reads them back to confirm. */
    async writeParams(
      auth: AuthContext,
      language: Language,
      sn: string,
      body: { params: Record<string, number>; idempotencyKey?: string; password?: string; confirmed?: boolean },
    ): Promise<CommandResult> {
      const device = await target(auth, sn);
      const points = writable(device, language);
      if (points.length === 0) throw new ApiError(Code.SETTING_NOT_SUPPORTED);
      checkValues(points, body.params, language, 'params');
      assertLimitPairs(device.protocolId, body.params, points, language, 'params');
      const result = await run(
        auth,
        language,
        sn,
        'set',
        { params: body.params },
        {
          idempotencyKey: body.idempotencyKey,
          password: body.password,
          destructive: true,
          confirmed: body.confirmed,
        },
      );
      return confirmed(result, body.params, language);
    },

    /**
     * Switches an AC switch on or off (its Conn point) and answers what the switch confirms. Cutting or
     * restoring a circuit asks for the password again, unless a scheduler acting for its creator says it was
     * confirmed; a switch turned off with its own button refuses `locked`, read as 4427.
     */
    async switchAcSwitch(
      auth: AuthContext,
      language: Language,
      sn: string,
      on: boolean,
      options: { password?: string; idempotencyKey?: string; confirmed?: boolean },
    ): Promise<CommandResult> {
      const result = await run(
        auth,
        language,
        sn,
        'set',
        { params: { Conn: on ? 1 : 0 } },
        {
          idempotencyKey: options.idempotencyKey,
          password: options.password,
          destructive: true,
          confirmed: options.confirmed,
          families: ['ac_switch'],
          refusals: { locked: Code.AC_SWITCH_OFF_LOCALLY },
        },
      );
      return confirmed(result, { Conn: on ? 1 : 0 }, language);
    },

    /**
     * A demand-response discharge (energy hub, issue 23): writes the battery's DrDisW point (W; 0 gives the pack
     * back to its own dispatch) within the map's range, acting for the enrollment's owner at their level on the
     * plant; the dispatch runs unattended, so no password (as a timed switch task). 4642 when the model has no
     * such point.
     */
    async dischargeBattery(auth: AuthContext, language: Language, sn: string, watts: number): Promise<CommandResult> {
      const device = await target(auth, sn, ['battery'], Code.ENERGY_HUB_DEVICE_NOT_FOUND);
      const point = writable(device, language).find((p) => p.id === DISCHARGE_POINT);
      if (!point) throw new ApiError(Code.ENERGY_HUB_NOT_BATTERY);
      const value = Math.round(Math.min(point.max ?? watts, Math.max(point.min ?? 0, watts)));
      const result = await run(
        auth,
        language,
        sn,
        'set',
        { params: { [DISCHARGE_POINT]: value } },
        { destructive: true, confirmed: true, families: ['battery'] },
      );
      return confirmed(result, { [DISCHARGE_POINT]: value }, language);
    },

    /**
     * Starts an AC switch's leakage self-check (its LeakTest point, issue 22). The switch answers the write at once,
     * as any Modbus write (the command timeout stays the write's), and reports the outcome in its next readings
     * (LeakTestRes, LeakTestMa, LeakTestCnt). A healthy switch cuts the circuit for 10 s, so the password again
     * unless a task acting for its creator says it was confirmed; an open switch refuses `locked`, read as 4438.
     */
    async selfCheckAcSwitch(
      auth: AuthContext,
      language: Language,
      sn: string,
      options: { password?: string; confirmed?: boolean },
    ): Promise<CommandResult> {
      const result = await run(
        auth,
        language,
        sn,
        'set',
        { params: { LeakTest: 1 } },
        {
          password: options.password,
          destructive: true,
          confirmed: options.confirmed,
          families: ['ac_switch'],
          refusals: { locked: Code.AC_SWITCH_SELFCHECK_OFF },
        },
      );
      return confirmed(result, { LeakTest: 1 }, language);
    },

    /** Writes an AC switch's report interval (its RptIntv point, minutes): the console's upload frequency. */
    async reportIntervalAcSwitch(auth: AuthContext, language: Language, sn: string, minutes: number): Promise<CommandResult> {
      const result = await run(
        auth,
        language,
        sn,
        'set',
        { params: { RptIntv: minutes } },
        { destructive: false, families: ['ac_switch'] },
      );
      return confirmed(result, { RptIntv: minutes }, language);
    },

    /** A raw Modbus read or write through the gateway, the reply decoded with the device's map. */
    async debug(auth: AuthContext, language: Language, sn: string, request: DebugRequest): Promise<CommandResult> {
      const write = request.fc === 5 || request.fc === 6 || request.fc === 15 || request.fc === 16;
      if (write && !request.hex)
        throw new ApiError(Code.VALIDATION, {}, { errors: [{ field: 'hex', message: translate(language, 'validation.required') }] });
      if (!write && !request.count)
        throw new ApiError(Code.VALIDATION, {}, { errors: [{ field: 'count', message: translate(language, 'validation.required') }] });
      const protocol = protocolById((await target(auth, sn)).protocolId);
      return run(
        auth,
        language,
        sn,
        write ? 'write' : 'read',
        write ? { fc: request.fc, addr: request.addr, hex: request.hex } : { fc: request.fc, addr: request.addr, count: request.count },
        {
          idempotencyKey: request.idempotencyKey,
          password: request.password,
          destructive: write,
          decode: (reply) => {
            const registers = reply.hex ? registersFromHex(reply.hex) : null;
            if (!registers || !protocol) return reply.values ?? null;
            return decodeBlocks(protocol, [{ functionCode: request.fc === 4 ? 4 : 3, address: request.addr, registers }]).values;
          },
        },
      );
    },

    /** The stored result of a command (a debug console polling, or a late reply arrived). */
    async reply(auth: AuthContext, sn: string, commandId: number) {
      await target(auth, sn);
      const command = await repository.byId(commandId);
      if (!command || command.deviceSn !== sn || command.userId !== auth.userId) throw new ApiError(Code.NOT_FOUND);
      return { commandId: command.id, status: command.status, result: command.result };
    },

    async support(auth: AuthContext, sn: string) {
      const device = await target(auth, sn);
      const hasWritable = (catalogueOf(device.protocolId)?.visible ?? []).some((v) => v.point.operation === 'rw');
      if (!hasWritable) throw new ApiError(Code.SETTING_NOT_SUPPORTED);
      return {
        customParams: true,
        families: familiesOf(device.protocolId),
        boot: true,
        debug: true,
      };
    },

    /**
     * Upgrades an inverter, a battery (master pack) or a gateway with a firmware record of its type
     * (remote mode, enabled, fitting the device's hardware and current software): the gateway is given a
     * signed link, the version, size, SHA-256 and the platform's signature, which the device checks before
     * applying. The call answers at once (pending; queued for an offline gateway, sent when it comes
     * online); progress is kept on the command and pushed live; the final reply (or a timeout) ends it.
     * Password needed, as for every upgrade.
     */
    async upgrade(
      auth: AuthContext,
      language: Language,
      sn: string,
      body: { firmId: number; idempotencyKey?: string; password?: string; confirmed?: boolean },
      kind: UpgradeTarget = 'inverter',
    ): Promise<CommandResult> {
      if (body.idempotencyKey) {
        const earlier = await repository.byIdempotencyKey(auth.userId, body.idempotencyKey);
        if (earlier) return replay(earlier.id, earlier.status, earlier.result);
      }
      const record = await upgradeImage(auth, language, body.firmId, kind);
      if (kind === 'gateway') return upgradeGateway(auth, sn, record, body);
      const device = await upgradable(auth, sn, kind, record);
      const firmware = firmwareFor(record);
      const prepared = await prepare(
        auth,
        device.sn,
        'upgrade',
        { firmware },
        {
          idempotencyKey: body.idempotencyKey,
          password: body.password,
          destructive: true,
          confirmed: body.confirmed,
          families: UPGRADE_FAMILIES[kind],
          audit: { firmId: record.id, version: record.swVersion, target: kind },
        },
      );
      if ('replay' in prepared) return prepared.replay;
      dispatchUpgrade(prepared.commandId, prepared.device, firmware, language);
      return { commandId: prepared.commandId, status: 'pending', hex: null, values: null, message: null };
    },

    /**
     * The check before a batch upgrade: each SN with whether it can take the image now and why not
     * (nothing is sent). Another tenant's device answers the plain not-found code.
     */
    async batchUpgradeCheck(
      auth: AuthContext,
      language: Language,
      body: { sns: readonly string[]; firmId: number },
      kind: UpgradeTarget,
    ): Promise<BatchUpgradeCheck> {
      const record = await upgradeImage(auth, language, body.firmId, kind);
      const results: BatchUpgradeCheck['results'] = [];
      for (const sn of new Set(body.sns)) {
        try {
          if (kind === 'gateway') {
            await gatewayUpgradable(auth, sn, record);
          } else {
            const device = await upgradable(auth, sn, kind, record);
            if (device.status === DeviceStatus.OFFLINE || device.gatewaySn === null) throw new ApiError(Code.DEVICE_OFFLINE);
            if (device.status === DeviceStatus.UPGRADING) throw new ApiError(Code.DEVICE_UPGRADING);
          }
          results.push({ sn, ready: true, code: 0, message: null });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          results.push({ sn, ready: false, code: error.responseCode, message: codeMessage(language, error.responseCode) });
        }
      }
      return { ready: results.filter((r) => r.ready).length, results };
    },

    /**
     * Upgrades several devices with one image (spec 02 §4): the password is confirmed once; each
     * device is then tried on its own, so those that cannot take it now (offline, upgrading, already on
     * the version, not compatible, a battery slave, over the company's per-minute cap) are listed with the
     * reason and the rest start.
     */
    async batchUpgrade(
      auth: AuthContext,
      language: Language,
      body: { sns: readonly string[]; firmId: number; idempotencyKey?: string; password?: string },
      kind: UpgradeTarget = 'inverter',
    ) {
      await confirmPassword(auth, body.password);
      const results: { sn: string; started: boolean; commandId: number | null; code: number; message: string | null }[] = [];
      for (const sn of new Set(body.sns)) {
        try {
          const started = await this.upgrade(
            auth,
            language,
            sn,
            {
              firmId: body.firmId,
              idempotencyKey: body.idempotencyKey ? `${body.idempotencyKey}-${sn}`.slice(0, 64) : undefined,
              confirmed: true,
            },
            kind,
          );
          results.push({ sn, started: true, commandId: started.commandId, code: 0, message: null });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const code = error.responseCode;
          // Another tenant's device is named by what was asked and gets the plain not-found answer.
          results.push({ sn, started: false, commandId: null, code, message: codeMessage(language, code) });
        }
      }
      return { results, started: results.filter((r) => r.started).length };
    },

    /** A device's or gateway's latest upgrade: waiting, upgrading (with progress), successful, failed or cancelled. */
    async upgradeProgress(auth: AuthContext, sn: string, kind: 'device' | 'gateway' = 'device') {
      if (kind === 'gateway') {
        const gateway = await deps.gateways?.find({ sn });
        await access.require(
          auth,
          gateway ? { id: gateway.id, plantId: gateway.plantId, companyId: gateway.companyId } : undefined,
          'view',
          Code.GATEWAY_NOT_FOUND,
        );
      } else {
        // Spec 02 §7: batteries follow their upgrade through inverter/{sn}/upgrade/progress too.
        const device = await devices.find({ sn }, [...INVERTER_FAMILIES, ...BATTERY_FAMILIES]);
        await access.require(
          auth,
          device ? { id: device.id, plantId: device.plantId, companyId: device.companyId } : undefined,
          'view',
          Code.INVERTER_NOT_FOUND,
        );
      }
      const row = await repository.latestUpgrade(sn);
      if (!row) return null;
      const state = upgradeState(row.status, row.result?.message);
      return {
        commandId: Number(row.id),
        state,
        progress: state === 'successful' ? 100 : (row.result?.progress ?? 0),
        version: row.request?.version ?? null,
        message: state === 'failed' ? (row.result?.message ?? null) : null,
        at: new Date(row.at).toISOString(),
      };
    },

    /**
     * Closes the commands a previous process sent that have heard nothing for a minute (or three timeouts): nobody
     * will answer them now (the `orphaned_commands` job, every 30 s and at start; not the commands in flight here).
     */
    async sweepOrphans(): Promise<void> {
      const commands = deps.commands();
      if (!commands || !deps.firmware) return;
      await commands.sweepOrphans(Math.max(settings.timeoutMs * 3, 60_000), translate('en', 'commands.orphaned'));
    },

    /**
     * Sends the gateway upgrades that waited for their gateway to come online (the scheduler calls this
     * every second; the queue is in the database, so it survives a restart).
     */
    async dispatchQueued(): Promise<number> {
      const commands = deps.commands();
      if (!commands || !deps.firmware) return 0;
      let sent = 0;
      for (const queued of await repository.queuedForOnlineGateways(50)) {
        if (!(await repository.claimQueued(queued.id))) continue;
        const record = await deps.firmware.byId(queued.firmId);
        if (!record?.enabled) {
          await repository.finish(queued.id, 'error', outcomeOf(Code.VALIDATION, {}, translate('en', 'commands.firmwareUnavailable')));
          continue;
        }
        const gateway = await deps.gateways?.find({ sn: queued.gatewaySn });
        dispatchUpgrade(
          queued.id,
          { id: gateway?.id ?? 0, sn: queued.gatewaySn, plantId: gateway?.plantId ?? null, gatewaySn: queued.gatewaySn, self: true },
          firmwareFor(record),
          'en',
        );
        sent += 1;
      }
      return sent;
    },

    /** Cancels a running upgrade where the model supports it (spec 02 §4). */
    cutUpgrade: (auth: AuthContext, language: Language, sn: string, body: { idempotencyKey?: string }) =>
      run(auth, language, sn, 'cancel_upgrade', {}, { idempotencyKey: body.idempotencyKey, destructive: false, whileUpgrading: true }),

    /** A settings family's form: its points with values, ranges and choices; 601 when the model lacks it. */
    async readFamily(auth: AuthContext, language: Language, family: SettingsFamily, sn: string): Promise<WritableParam[]> {
      const device = await target(auth, sn, ALL_FAMILIES);
      return familyPoints(device, family, language);
    },

    /** Writes a settings family's values (only its points, within their ranges) and confirms them. */
    async writeFamily(
      auth: AuthContext,
      language: Language,
      family: SettingsFamily,
      body: { sn: string; values: Record<string, number>; idempotencyKey?: string; password?: string },
    ): Promise<CommandResult> {
      const device = await target(auth, body.sn, ALL_FAMILIES);
      checkValues(familyPoints(device, family, language), body.values, language, 'values');
      assertLimitPairs(device.protocolId, body.values, writable(device, language), language, 'values');
      const result = await run(
        auth,
        language,
        body.sn,
        'set',
        { params: body.values },
        {
          idempotencyKey: body.idempotencyKey,
          password: body.password,
          destructive: true,
          families: ALL_FAMILIES,
        },
      );
      return confirmed(result, body.values, language);
    },

    /**
     * The setting pages' list: devices of the caller's plants whose protocol carries a family of the scope,
     * each with its groups (the forms, with the values the device last reported) and whether the caller may
     * write them (plant level operate).
     */
    async settingsDevices(
      auth: AuthContext,
      language: Language,
      query: SettingsDevicesQuery,
    ): Promise<{ infos: SettingsDeviceRow[]; total: number }> {
      const protocols = protocolsWithSettings(query.scope);
      if (protocols.length === 0) return { infos: [], total: 0 };
      const { rows, total } = await devices.page(
        auth,
        {
          families: ALL_FAMILIES,
          query: { ...(query.plantId ? { plantId: query.plantId } : {}), ...(query.keyword ? { keyword: query.keyword } : {}) },
          protocolsOfType: protocols,
        },
        'sn',
        'asc',
        query.page,
        query.size,
      );
      const levels = await access.levelsFor(
        auth,
        rows.map((d) => ({ id: d.id, plantId: d.plantId, companyId: d.companyId })),
      );
      const infos = rows.map((device) => {
        const params = writable(device, language);
        const level = levels.get(device.id);
        return {
          sn: device.sn,
          alias: device.alias,
          family: device.family,
          protocolId: device.protocolId,
          plantId: device.plantId,
          plantName: device.plantName,
          status: device.status,
          lastReportAt: device.lastReportAt ? device.lastReportAt.toISOString() : null,
          canWrite: level === 'operate' || level === 'manage',
          groups: familiesOf(device.protocolId, query.scope).map((family) => {
            const ids = familyPointIds(device.protocolId, family) ?? [];
            return {
              family,
              params: ids.flatMap((id) => params.filter((p) => p.id === id)),
              pairs: settingPairsOf(device.protocolId, family),
            };
          }),
        };
      });
      return { infos, total };
    },

    log: repository.page,
    confirmPassword,
  };

  /** Every value names a writable point of the form and lies within its range or choices; else code 4 naming it. */
  function checkValues(points: readonly WritableParam[], values: Record<string, number>, language: Language, field: string): void {
    for (const [id, value] of Object.entries(values)) {
      const point = points.find((p) => p.id === id);
      const name = `${field}.${id}`;
      if (!point)
        throw new ApiError(
          Code.VALIDATION,
          {},
          { errors: [{ field: name, message: translate(language, 'devices.unknownPoint', { point: id }) }] },
        );
      const outside = (point.min !== null && value < point.min) || (point.max !== null && value > point.max);
      const notChoice = point.options !== null && !point.options.some((o) => o.value === value);
      if (outside || notChoice)
        throw new ApiError(
          Code.VALIDATION,
          {},
          {
            errors: [{ field: name, message: translate(language, 'commands.outOfRange', { min: point.min ?? '', max: point.max ?? '' }) }],
          },
        );
    }
  }

  /** A family's form in the protocol's order of the group; 601 when the device's protocol has no such group. */
  function familyPoints(device: DeviceRecord, family: SettingsFamily, language: Language): WritableParam[] {
    const ids = familyPointIds(device.protocolId, family);
    if (!ids) throw new ApiError(Code.SETTING_NOT_SUPPORTED);
    const params = writable(device, language);
    return ids.flatMap((id) => params.filter((p) => p.id === id));
  }

  /** Read back: the device's reply carries its values after the write; each must be what was asked. */
  function confirmed(result: CommandResult, asked: Record<string, number>, language: Language): CommandResult {
    const differs = result.status === 'ok' ? unconfirmed(asked, result.values) : [];
    if (differs.length === 0) return result;
    return { ...result, message: translate(language, 'commands.notConfirmed', { points: differs.join(', ') }) };
  }
}

export type CommandsService = ReturnType<typeof createCommandsService>;
