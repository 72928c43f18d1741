import { Code } from '@sunward/contracts/codes';
import {
  GATEWAY_SN_PATTERN,
  type GatewayConfig,
  REPLY_REFUSAL_REASONS,
  REPORT_REFUSAL_REASONS,
  type ReplyPayload,
} from '@sunward/contracts/gateway-protocol';
import {
  GATEWAY_LIMITS,
  type GatewayCounts,
  type GatewayDetail,
  type GatewayImportProblem,
  type GatewayImportResult,
  type GatewayListQuery,
  type GatewayPage,
  type GatewayRefusal,
  type GatewayRefusals,
  type GatewayRegisterBody,
  type GatewayRegisterResult,
  type GatewayReplaceBody,
  type GatewayRow,
  type GatewaySettings,
  maskSerial,
  type ServerAddress,
  splitServerAddress,
} from '@sunward/contracts/gateways';
import type { Language } from '@sunward/contracts/languages';
import { type MessageKey, translate } from '@sunward/contracts/messages';
import type { PlantAccessLevel } from '@sunward/contracts/plants';
import { aliasProblem, hasSpace, isPlainText, isWifiPassword } from '@sunward/contracts/validators';
import { gatewayKeyMatches, generateGatewayKey, hashGatewayKey } from '../../ingest/gateway-auth.js';
import type { RegistryEvents } from '../../ingest/registry-events.js';
import { ApiError } from '../../lib/envelope.js';
import { readFirstSheet, type SheetRow, spreadsheetLimitParams } from '../../lib/spreadsheet.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationEntry, OperationLog } from '../audit/operation-log.js';
import { requireSecret, type SecretThrottle } from '../auth/secret-throttle.js';
import { CommandTimeoutError } from '../commands/command-channel.js';
import type { CommandTracker } from '../commands/command-tracker.js';
import { type AccessTarget, type DeviceAccess, rankOf } from '../devices/device-access.js';
import { checkImportRows, snsOf } from './gateway-import.js';
import type { GatewayRecord, GatewaySettingsUpdate, GatewaysRepository } from './gateways.repository.js';

/** How many of a gateway's newest refusals its page shows. */
const REFUSALS_SHOWN = 20;

/** Reads a communication-log reason (`<code>: <detail>`, `reply.<code>: …`, `login …`) into what was refused and why. */
export function refusalOf(reason: string | null): Pick<GatewayRefusal, 'of' | 'reason' | 'detail'> {
  const text = reason ?? '';
  if (text.startsWith('login locked')) return { of: 'login', reason: 'login_locked', detail: null };
  if (text.startsWith('login')) return { of: 'login', reason: 'login_refused', detail: null };
  const match = /^(reply\.)?([a-z_]+)(?:: ([\s\S]*))?$/.exec(text);
  const of = match?.[1] ? 'reply' : 'report';
  const code = match?.[2] ?? '';
  const known = (of === 'reply' ? (REPLY_REFUSAL_REASONS as readonly string[]) : (REPORT_REFUSAL_REASONS as readonly string[])).includes(
    code,
  );
  return known ? { of, reason: code, detail: match?.[3] ?? null } : { of, reason: null, detail: text || null };
}

/** How long a gateway has to confirm a setting before the call answers 307. */
export const CONFIGURE_TIMEOUT_MS = 8000;

const validation = (field: string, message: string) => new ApiError(Code.VALIDATION, {}, { errors: [{ field, message }] });

/** A setting applied over the protocol: what to send, who may, and how it is logged. */
interface SettingChange {
  action: string;
  config: GatewayConfig;
  needed: PlantAccessLevel;
  /** What the operation log keeps of the request (never a password). */
  logged: Record<string, unknown>;
}

/**
 * Gateways (spec 02 §3–4): list, counts, detail, alias, import, replacement, deletion and the settings
 * applied over the protocol (server address, lock, digital output, connection password). Every call is
 * tenant-checked through device-access (305 for what the caller may not see) and every change logged.
 */
export function createGatewaysService(deps: {
  repository: GatewaysRepository;
  access: DeviceAccess;
  log: OperationLog;
  registry: RegistryEvents;
  commands: () => CommandTracker | undefined;
  /** Counts wrong keys of a registered replacement gateway per SN and address (135 once locked). */
  throttle: SecretThrottle;
  configureTimeoutMs?: number;
  now?: () => number;
}) {
  const { repository, access, log, registry } = deps;
  const timeoutMs = deps.configureTimeoutMs ?? CONFIGURE_TIMEOUT_MS;
  const now = deps.now ?? Date.now;

  const target = (g: GatewayRecord): AccessTarget => ({ id: g.id, plantId: g.plantId, companyId: g.companyId });

  function toRow(g: GatewayRecord, level: PlantAccessLevel): GatewayRow {
    const masked = level === 'view';
    return {
      id: g.id,
      sn: masked ? maskSerial(g.sn) : g.sn,
      snMasked: masked,
      alias: g.alias,
      plantId: g.plantId,
      plantName: g.plantName,
      online: g.online,
      rssi: g.rssi,
      commType: g.commType,
      iccid: g.iccid,
      hwVersion: g.hwVersion,
      fwVersion: g.fwVersion,
      lastOnlineAt: g.lastOnlineAt?.toISOString() ?? null,
      lastIp: g.lastIp,
      locked: g.locked,
      serverAddress: g.serverAddress,
      digitalOutput: g.digitalOutput,
      connectionPasswordAt: g.connectionPasswordAt?.toISOString() ?? null,
      deviceCount: g.deviceCount,
      access: level,
    };
  }

  /** The gateway with the caller's level; 305 when it is not theirs, 2 when the level is short. */
  async function load(auth: AuthContext, by: { sn: string } | { id: number }, needed: PlantAccessLevel = 'view') {
    const gateway = await repository.find(by);
    const level = await access.require(auth, gateway ? target(gateway) : undefined, needed, Code.GATEWAY_NOT_FOUND);
    return { gateway: gateway as GatewayRecord, level };
  }

  const entry = (action: string, g: GatewayRecord, rest: Partial<OperationEntry>): OperationEntry => ({
    action,
    targetType: 'gateway',
    target: g.sn,
    plantId: g.plantId,
    result: 'ok',
    ...rest,
  });

  function settingsOf(g: GatewayRecord): GatewaySettings {
    return {
      serverAddress: g.serverAddress,
      locked: g.locked,
      digitalOutput: g.digitalOutput,
      connectionPasswordAt: g.connectionPasswordAt?.toISOString() ?? null,
    };
  }

  /** What to store after an `ok` reply: the gateway's own report of its settings when it sends one. */
  function confirmed(reply: ReplyPayload, config: GatewayConfig): GatewaySettingsUpdate {
    const state = reply.config;
    const update: GatewaySettingsUpdate = state
      ? { serverAddress: state.serverAddress, locked: state.locked, digitalOutput: state.digitalOutput }
      : {
          ...(config.serverAddress !== undefined ? { serverAddress: config.serverAddress } : {}),
          ...(config.locked !== undefined ? { locked: config.locked } : {}),
          ...(config.digitalOutput !== undefined ? { digitalOutput: config.digitalOutput } : {}),
        };
    if (config.connectionPassword !== undefined)
      update.connectionPasswordAt = new Date(state?.passwordSetAt !== undefined ? state.passwordSetAt : now());
    return update;
  }

  /**
   * applyGatewaySetting: sends `configure` over the command channel and stores what the gateway
   * confirmed. Offline → 306 without sending; no final reply in time → 307, nothing stored; a refusal by
   * the gateway (locked, bad value) → code 4 with the reason. Every attempt lands in the operation log.
   */
  async function applySetting(auth: AuthContext, id: number, change: SettingChange, language: Language): Promise<GatewaySettings> {
    const { gateway } = await load(auth, { id }, change.needed);
    const logged = (result: OperationEntry['result'], detail?: string) =>
      log.record(auth, entry(change.action, gateway, { request: change.logged, result, ...(detail ? { detail } : {}) }));
    const channel = deps.commands();
    if (!gateway.online || !channel) {
      await logged('refused', 'offline');
      throw new ApiError(Code.GATEWAY_OFFLINE);
    }
    let reply: ReplyPayload;
    try {
      reply = await channel.send(gateway.sn, { op: 'configure', config: change.config, expiresAt: now() + timeoutMs }, { timeoutMs });
    } catch (error) {
      await logged('failed', error instanceof CommandTimeoutError ? 'no reply' : 'not sent');
      throw new ApiError(error instanceof CommandTimeoutError ? Code.GATEWAY_NO_REPLY : Code.GATEWAY_OFFLINE);
    }
    if (reply.status !== 'ok') {
      await logged('refused', reply.error ?? reply.message ?? 'error');
      if (reply.error === 'locked') {
        await repository.saveSettings(gateway.id, { locked: true });
        throw validation('locked', translate(language, 'gateways.locked'));
      }
      if (reply.error === 'expired') throw new ApiError(Code.GATEWAY_NO_REPLY);
      throw validation('gateway', translate(language, 'gateways.refused', { reason: reply.message ?? reply.error ?? 'error' }));
    }
    await repository.saveSettings(gateway.id, confirmed(reply, change.config));
    await logged('ok');
    const after = await repository.find({ id: gateway.id });
    return settingsOf(after ?? gateway);
  }

  /**
   * Checks and registers gateways (SN, key, alias) unbound in the caller's company, with the import's
   * rules; each registration and each refusal lands in the operation log.
   */
  async function registerRows(auth: AuthContext, rows: readonly SheetRow[], options: { header: boolean; action: string }) {
    const registered = await repository.registeredAmong(snsOf(rows));
    const { valid, invalid } = checkImportRows(rows, registered, { header: options.header });
    const inserted = await repository.register(
      valid.map((v) => ({ sn: v.sn, keyHash: hashGatewayKey(v.key), alias: v.alias })),
      auth.companyId,
    );
    const ids = new Map(inserted.map((r) => [r.sn, r.id]));
    // A row another import registered between the check and the insert is reported like any taken SN.
    const lost = valid.filter((v) => !ids.has(v.sn)).map((v) => ({ row: v.row, sn: v.sn, problem: 'alreadyRegistered' as const }));
    const errors = [...invalid, ...lost].sort((a, b) => a.row - b.row);
    const added = valid.flatMap((v) => {
      const id = ids.get(v.sn);
      return id === undefined ? [] : [{ ...v, id }];
    });
    if (added.length > 0) await registry.changed();
    await log.record(auth, [
      ...added.map((v): OperationEntry => ({ action: options.action, targetType: 'gateway', target: v.sn, result: 'ok' })),
      ...errors.map(
        (e): OperationEntry => ({ action: options.action, targetType: 'gateway', target: e.sn, result: 'refused', detail: e.problem }),
      ),
    ]);
    return { added, errors };
  }

  return {
    /**
     * registerGateways (issue 25): one gateway or a list over JSON, with the import's rules. Keys not given
     * are generated and answered this once. A single gateway that cannot be registered is refused (301
     * taken, 4 with the field otherwise); a list answers every entry, registered or not.
     */
    async register(auth: AuthContext, body: GatewayRegisterBody, language: Language): Promise<GatewayRegisterResult> {
      if (auth.companyId === null && auth.roleKey !== 'platform_admin') throw validation('sn', translate(language, 'gateways.noCompany'));
      const single = !('gateways' in body);
      const entries = 'gateways' in body ? body.gateways : [body];
      const keys = entries.map((e) =>
        e.key === undefined || e.key === '' ? { key: generateGatewayKey(), generated: true } : { key: e.key, generated: false },
      );
      // Row numbers are positions + 1, so an error's index is its position in the list.
      const rows: SheetRow[] = entries.map((e, index) => ({ row: index + 1, cells: [e.sn, keys[index]?.key ?? '', e.alias ?? ''] }));
      const { added, errors } = await registerRows(auth, rows, { header: false, action: 'gateway.register' });
      const message = (problem: GatewayImportProblem) => translate(language, `gateways.problem.${problem}` as MessageKey);
      const first = errors[0];
      if (single && first) {
        if (first.problem === 'alreadyRegistered') throw new ApiError(Code.GATEWAY_USED);
        throw validation(
          first.problem.startsWith('key') ? 'key' : first.problem.startsWith('alias') ? 'alias' : 'sn',
          message(first.problem),
        );
      }
      return {
        registered: added.map((a) => ({ id: a.id, sn: a.sn, key: a.key, generated: keys[a.row - 1]?.generated ?? false })),
        errors: errors.map((e) => ({ index: e.row - 1, sn: e.sn, problem: e.problem, message: message(e.problem) })),
      };
    },

    /** The gateway's last refusals with their reasons, and how many in the last 24 hours (its communication log). */
    async refusals(auth: AuthContext, id: number): Promise<GatewayRefusals> {
      const { gateway } = await load(auth, { id });
      const [rows, last24h] = await Promise.all([
        repository.refusals(gateway.sn, REFUSALS_SHOWN),
        repository.refusalCount(gateway.sn, new Date(now() - 24 * 3600 * 1000)),
      ]);
      return { last24h, infos: rows.map((r) => ({ at: r.at.toISOString(), count: r.count, ...refusalOf(r.reason) })) };
    },

    async list(auth: AuthContext, query: GatewayListQuery): Promise<GatewayPage> {
      const { rows, total } = await repository.page(auth, query);
      const levels = await access.levelsFor(auth, rows.map(target));
      return { infos: rows.flatMap((g) => (levels.has(g.id) ? [toRow(g, levels.get(g.id) ?? 'view')] : [])), total };
    },

    counts(auth: AuthContext, query: Omit<GatewayListQuery, 'page' | 'size' | 'sort' | 'order'>): Promise<GatewayCounts> {
      return repository.counts(auth, query);
    },

    async detail(auth: AuthContext, sn: string): Promise<GatewayDetail> {
      const { gateway, level } = await load(auth, { sn });
      return { ...toRow(gateway, level), devices: await repository.devices(gateway.id) };
    },

    async setAlias(auth: AuthContext, id: number, alias: string, language: Language): Promise<void> {
      // Access first: a stranger learns nothing but 305, whatever the alias.
      const { gateway } = await load(auth, { id }, 'operate');
      const trimmed = alias.trim();
      const problem = aliasProblem(trimmed);
      if (problem)
        throw validation('alias', translate(language, problem === 'tooLong' ? 'gateways.aliasTooLong' : 'gateways.aliasSpecial'));
      await repository.setAlias(id, trimmed === '' ? null : trimmed);
      await log.record(auth, entry('gateway.alias', gateway, { request: { alias: trimmed } }));
    },

    /**
     * importGateways: checks every row of one .xls/.xlsx file and registers the good ones, unbound, in
     * the caller's company (spec 02 §6 "Unassigned collectors go to the current user's company").
     */
    async importFile(auth: AuthContext, bytes: Buffer, language: Language): Promise<GatewayImportResult> {
      if (auth.companyId === null && auth.roleKey !== 'platform_admin') throw validation('file', translate(language, 'gateways.noCompany'));
      const sheet = readFirstSheet(bytes, GATEWAY_LIMITS.importRowsMax + 1);
      const refuse = (problem: string) => new ApiError(Code.IMPORT_FILE_INVALID, { problem });
      if (!sheet.ok)
        throw refuse(
          sheet.problem === 'tooManyRows'
            ? translate(language, 'import.tooManyRows', { max: GATEWAY_LIMITS.importRowsMax })
            : sheet.problem === 'tooLarge'
              ? translate(language, 'import.tooLarge', spreadsheetLimitParams())
              : translate(language, 'import.unreadable'),
        );
      if (sheet.rows.length === 0) throw refuse(translate(language, 'import.empty'));
      const { added, errors } = await registerRows(auth, sheet.rows, { header: true, action: 'gateway.import' });
      return {
        imported: added.length,
        errors: errors.map((e) => ({
          row: e.row,
          sn: e.sn,
          problem: translate(language, `gateways.problem.${e.problem}` as MessageKey),
        })),
      };
    },

    /**
     * replaceGateway: the new gateway (unregistered, or registered, unbound and the caller's or the
     * factory's, proven by its key) takes the old one's plant, alias and devices; the devices' history
     * stays theirs; the old gateway is unbound and marked replaced.
     */
    async replace(auth: AuthContext, id: number, body: GatewayReplaceBody, language: Language) {
      const { gateway: old } = await load(auth, { id }, 'manage');
      const newSn = body.newSn;
      if (!GATEWAY_SN_PATTERN.test(newSn)) throw validation('newSn', translate(language, 'gateways.problem.snInvalid'));
      if (hasSpace(body.newKey) || !isPlainText(body.newKey))
        throw validation('newKey', translate(language, 'gateways.problem.keyInvalid'));
      if (newSn.toLowerCase() === old.sn.toLowerCase()) throw validation('newSn', translate(language, 'gateways.replaceSame'));
      const existing = await repository.find({ sn: newSn });
      let result: Awaited<ReturnType<GatewaysRepository['replace']>>;
      if (existing) {
        await requireSecret(
          deps.throttle,
          { kind: 'gateway-key', subject: newSn, ip: auth.ip },
          async () => {
            const hash = await repository.keyHash(existing.id);
            return !!hash && gatewayKeyMatches(body.newKey, hash);
          },
          Code.GATEWAY_REGISTRATION_WRONG,
        );
        const ours = existing.companyId === null || (await access.levelsFor(auth, [target(existing)])).get(existing.id) === 'manage';
        if (existing.plantId !== null || existing.replacedById !== null || !ours) throw new ApiError(Code.GATEWAY_USED);
        result = await repository.replace(old.id, { id: existing.id });
      } else {
        result = await repository.replace(old.id, { register: { sn: newSn, keyHash: hashGatewayKey(body.newKey) } });
      }
      if (result === 'taken') throw new ApiError(Code.GATEWAY_USED);
      await registry.changed();
      await log.record(auth, entry('gateway.replace', old, { request: { newSn }, detail: `${result.movedDevices} devices moved` }));
      return { id: result.id, sn: newSn, movedDevices: result.movedDevices };
    },

    /** Deletes a gateway the caller manages, only when no plant holds it (unbinding is the plant's business). */
    async remove(auth: AuthContext, id: number, language: Language): Promise<void> {
      const { gateway } = await load(auth, { id }, 'manage');
      if (gateway.plantId !== null) {
        await log.record(auth, entry('gateway.delete', gateway, { result: 'refused', detail: 'bound to a plant' }));
        throw validation('id', translate(language, 'gateways.boundToPlant', { plant: gateway.plantName ?? String(gateway.plantId) }));
      }
      await repository.remove(gateway.id);
      await registry.changed();
      await log.record(auth, entry('gateway.delete', gateway, {}));
    },

    async serverAddress(auth: AuthContext, id: number): Promise<ServerAddress> {
      const { gateway, level } = await load(auth, { id });
      if (rankOf(level) < rankOf('operate')) return { host: null, port: null };
      return splitServerAddress(gateway.serverAddress);
    },

    setServerAddress(auth: AuthContext, id: number, host: string, port: number, language: Language) {
      const serverAddress = `${host}:${port}`;
      return applySetting(
        auth,
        id,
        { action: 'gateway.serverAddress', config: { serverAddress }, needed: 'manage', logged: { serverAddress } },
        language,
      );
    },

    setLocked(auth: AuthContext, id: number, locked: boolean, language: Language) {
      return applySetting(
        auth,
        id,
        { action: locked ? 'gateway.lock' : 'gateway.unlock', config: { locked }, needed: 'manage', logged: { locked } },
        language,
      );
    },

    setDigitalOutput(auth: AuthContext, id: number, on: boolean, language: Language) {
      return applySetting(
        auth,
        id,
        { action: 'gateway.digitalOutput', config: { digitalOutput: on }, needed: 'operate', logged: { on } },
        language,
      );
    },

    async setConnectionPassword(auth: AuthContext, id: number, password: string, language: Language) {
      await load(auth, { id }, 'manage');
      if (!isWifiPassword(password)) throw validation('password', translate(language, 'gateways.connectionPassword'));
      return applySetting(
        auth,
        id,
        { action: 'gateway.connectionPassword', config: { connectionPassword: password }, needed: 'manage', logged: {} },
        language,
      );
    },
  };
}

export type GatewaysService = ReturnType<typeof createGatewaysService>;
