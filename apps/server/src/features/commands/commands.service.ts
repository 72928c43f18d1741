import { Code, type ResponseCode } from '@sunward/contracts/codes';
import type { CommandResult, DebugRequest, WritableParam } from '@sunward/contracts/commands';
import { DeviceStatus } from '@sunward/contracts/device-status';
import type { CommandPayload, ReplyPayload } from '@sunward/contracts/gateway-protocol';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { decodeBlocks, registersFromHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import type { CommandChannel } from '../../ingest/command-channel.js';
import { CommandTimeoutError } from '../../ingest/command-channel.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { verifyPassword } from '../auth/password.js';
import type { DeviceAccess } from '../devices/device-access.js';
import { catalogueOf, writableParams } from '../devices/device-catalogue.js';
import type { DeviceRecord, DevicesRepository } from '../devices/devices.repository.js';
import type { CommandsRepository, StoredOutcome } from './commands.repository.js';

type Op = 'boot' | 'shutdown' | 'set' | 'read' | 'write';

/** Inverter families a command may address (spec 01 §7 Inverters). */
const INVERTER_FAMILIES = ['inverter', 'hybrid_inverter', 'micro_inverter'];

/** Gateway refusals as the console's codes. */
const REFUSALS: Partial<Record<NonNullable<ReplyPayload['error']>, ResponseCode>> = {
  device_offline: Code.DEVICE_OFFLINE,
  device_upgrading: Code.DEVICE_UPGRADING,
  unsupported: Code.SETTING_NOT_SUPPORTED,
  out_of_range: Code.VALIDATION,
  bad_request: Code.VALIDATION,
};

export interface CommandsSettings {
  /** How long a command waits for its reply. */
  timeoutMs: number;
  /** Devices a company may command per minute when it has no cap of its own. */
  defaultCapPerMinute: number;
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
  commands: () => CommandChannel | undefined;
  settings: CommandsSettings;
}) {
  const { repository, devices, access, settings } = deps;
  let lateHooked: CommandChannel | undefined;

  /** Replies that arrive after their command timed out are recorded on it (once the channel exists). */
  function channel(): CommandChannel {
    const found = deps.commands();
    if (!found) throw new ApiError(Code.SERVER_ERROR);
    if (lateHooked !== found) {
      lateHooked = found;
      found.onLateReply(({ id, reply }) => {
        const commandId = /^cmd-(\d+)$/.exec(id)?.[1];
        if (commandId) void repository.recordLate(Number(commandId), reply).catch(() => undefined);
      });
    }
    return found;
  }

  async function confirmPassword(auth: AuthContext, password: string | undefined): Promise<void> {
    const stored = await repository.passwordHash(auth.userId);
    if (!password || !stored || !(await verifyPassword(password, stored))) throw new ApiError(Code.CONFIRM_PASSWORD_WRONG);
  }

  async function target(auth: AuthContext, sn: string): Promise<DeviceRecord> {
    const device = await devices.find({ sn }, INVERTER_FAMILIES);
    await access.require(
      auth,
      device ? { id: device.id, plantId: device.plantId, companyId: device.companyId } : undefined,
      'operate',
      Code.INVERTER_NOT_FOUND,
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

  /**
   * Runs one command on a device. Checks first (nothing is sent when one fails): level operate, the
   * device online and not upgrading, the password for destructive commands, the company's cap; then
   * records it, sends it through its gateway, waits for the reply and records the outcome.
   */
  async function run(
    auth: AuthContext,
    language: Language,
    sn: string,
    op: Op,
    command: Omit<CommandPayload, 'v' | 'id' | 'device' | 'op'>,
    options: {
      idempotencyKey?: string;
      password?: string;
      destructive: boolean;
      decode?: (reply: ReplyPayload) => Record<string, number | string> | null;
    },
  ): Promise<CommandResult> {
    // A retry of a request already made answers what the first one answered, and sends nothing.
    if (options.idempotencyKey) {
      const earlier = await repository.byIdempotencyKey(auth.userId, options.idempotencyKey);
      if (earlier) return replay(earlier.id, earlier.status, earlier.result);
    }
    const device = await target(auth, sn);
    if (device.status === DeviceStatus.OFFLINE || device.gatewaySn === null) throw new ApiError(Code.DEVICE_OFFLINE);
    if (device.status === DeviceStatus.UPGRADING) throw new ApiError(Code.DEVICE_UPGRADING);
    if (options.destructive) await confirmPassword(auth, options.password);
    const cap = await repository.capOf(auth.companyId, settings.defaultCapPerMinute);
    const recent = await repository.devicesCommandedLastMinute(auth.companyId, auth.userId);
    if (!recent.has(device.sn) && recent.size >= cap) throw new ApiError(Code.COMMAND_CAP_REACHED, { cap });

    const commandId = await repository.start({
      userId: auth.userId,
      account: auth.account,
      companyId: auth.companyId,
      deviceId: device.id,
      deviceSn: device.sn,
      gatewaySn: device.gatewaySn,
      plantId: device.plantId,
      op,
      request: command,
      idempotencyKey: options.idempotencyKey ?? null,
    });
    if (commandId === undefined) {
      const earlier = options.idempotencyKey ? await repository.byIdempotencyKey(auth.userId, options.idempotencyKey) : undefined;
      if (!earlier) throw new ApiError(Code.SERVER_ERROR);
      return replay(earlier.id, earlier.status, earlier.result);
    }

    let reply: ReplyPayload;
    try {
      reply = await channel().send(
        device.gatewaySn,
        { ...command, device: device.sn, op },
        { timeoutMs: settings.timeoutMs, id: `cmd-${commandId}` },
      );
    } catch (error) {
      const timedOut = error instanceof CommandTimeoutError;
      const message = translate(language, timedOut ? 'commands.timeout' : 'commands.sendFailed', {
        seconds: Math.round(settings.timeoutMs / 1000),
      });
      await repository.finish(commandId, timedOut ? 'timeout' : 'error', outcomeOf(Code.TIMEOUT, {}, message));
      throw new ApiError(Code.TIMEOUT, {}, { commandId, message });
    }
    if (reply.status !== 'ok') {
      const code = (reply.error && REFUSALS[reply.error]) ?? Code.TIMEOUT;
      const outcome = outcomeOf(code, reply, reply.message ?? reply.error ?? null);
      await repository.finish(commandId, 'error', outcome);
      throw new ApiError(code, {}, { commandId, message: outcome.message });
    }
    const outcome = outcomeOf(Code.OK, reply, null, options.decode ? options.decode(reply) : undefined);
    await repository.finish(commandId, 'ok', outcome);
    return answer(commandId, 'ok', outcome);
  }

  function replay(commandId: number, status: string, outcome: StoredOutcome | null): CommandResult {
    if (status === 'pending' || !outcome) return { commandId, status: 'pending', hex: null, values: null, message: null };
    return answer(commandId, status as CommandResult['status'], outcome);
  }

  /** Writable points of the device's map with their current values, ranges and choices. */
  function writable(device: DeviceRecord, language: Language): WritableParam[] {
    return writableParams(device.protocolId, device.values, language);
  }

  return {
    boot: (auth: AuthContext, language: Language, sn: string, body: { idempotencyKey?: string }) =>
      run(auth, language, sn, 'boot', {}, { idempotencyKey: body.idempotencyKey, destructive: false }),

    shutdown: (auth: AuthContext, language: Language, sn: string, body: { idempotencyKey?: string; password?: string }) =>
      run(auth, language, sn, 'shutdown', {}, { idempotencyKey: body.idempotencyKey, password: body.password, destructive: true }),

    async params(auth: AuthContext, language: Language, sn: string): Promise<WritableParam[]> {
      return writable(await target(auth, sn), language);
    },

    /** Writes parameters (checked against the map's ranges first), then reads them back to confirm. */
    async writeParams(
      auth: AuthContext,
      language: Language,
      sn: string,
      body: { params: Record<string, number>; idempotencyKey?: string; password?: string },
    ): Promise<CommandResult> {
      const device = await target(auth, sn);
      const points = writable(device, language);
      if (points.length === 0) throw new ApiError(Code.SETTING_NOT_SUPPORTED);
      for (const [id, value] of Object.entries(body.params)) {
        const point = points.find((p) => p.id === id);
        const field = `params.${id}`;
        if (!point)
          throw new ApiError(
            Code.VALIDATION,
            {},
            { errors: [{ field, message: translate(language, 'devices.unknownPoint', { point: id }) }] },
          );
        const outside = (point.min !== null && value < point.min) || (point.max !== null && value > point.max);
        const notChoice = point.options !== null && !point.options.some((o: { value: number }) => o.value === value);
        if (outside || notChoice)
          throw new ApiError(
            Code.VALIDATION,
            {},
            { errors: [{ field, message: translate(language, 'commands.outOfRange', { min: point.min ?? '', max: point.max ?? '' }) }] },
          );
      }
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
        },
      );
      // Read back: the device's reply carries its values after the write; each must be what was asked.
      const differs = Object.entries(body.params).filter(([id, value]) => {
        const now = result.values?.[id];
        return typeof now !== 'number' || Math.abs(now - value) > 1e-6;
      });
      if (result.status === 'ok' && differs.length > 0)
        return { ...result, message: translate(language, 'commands.notConfirmed', { points: differs.map(([id]) => id).join(', ') }) };
      return result;
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
      return { customParams: true, families: [] as string[], boot: true, debug: true };
    },

    log: repository.page,
  };
}

export type CommandsService = ReturnType<typeof createCommandsService>;
