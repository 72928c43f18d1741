import {
  AC_SWITCH_LIMITS,
  AC_SWITCH_SN_PATTERN,
  type AcSwitchAddBody,
  type AcSwitchBindBody,
  type AcSwitchCheckResult,
  type AcSwitchCustomer,
  type AcSwitchImportCheck,
  type AcSwitchImportProblem,
  type AcSwitchImportResult,
  type AcSwitchPage,
  type AcSwitchRow,
  type AcSwitchState,
  type AcSwitchSwitchBody,
  type AcSwitchSwitchResult,
} from '@sunward/contracts/ac-switches';
import { Code } from '@sunward/contracts/codes';
import { maskSerial } from '@sunward/contracts/gateways';
import type { Language } from '@sunward/contracts/languages';
import { type MessageKey, translate } from '@sunward/contracts/messages';
import type { PlantAccessLevel } from '@sunward/contracts/plants';
import { hasSpace, isPlainText } from '@sunward/contracts/validators';
import { numericPointIds } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { gatewayKeyMatches, hashGatewayKey } from '../../ingest/gateway-auth.js';
import { ApiError } from '../../lib/envelope.js';
import { readFirstSheet, type SheetRow, spreadsheetLimitParams } from '../../lib/spreadsheet.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationEntry, OperationLog } from '../audit/operation-log.js';
import { requireSecret, type SecretThrottle } from '../auth/secret-throttle.js';
import type { DeviceAccess } from '../devices/device-access.js';
import type { PlantAccess } from '../plants/plant-access.js';
import { checkSwitchRows, type SwitchRefusal, switchSnsOf } from './ac-switch-import.js';
import type { AcSwitchesRepository, AcSwitchRecord } from './ac-switches.repository.js';

const STATES: Record<number, AcSwitchState> = { 0: 'off', 1: 'on', 2: 'tripped', 3: 'fault' };
/** Bit 8 of the switch's trip and alarm flags (vendor-ac-switch Evt): switched off with its own button. */
const OFF_BY_HAND_BIT = 8;

/** The switch's own figures from its newest reading (by the map's point ids). */
export function switchFigures(record: Pick<AcSwitchRecord, 'protocolId' | 'values'>) {
  const protocol = record.protocolId ? protocolById(record.protocolId) : undefined;
  if (!protocol || !record.values) return { state: null, offLocally: false, powerW: null, leakageMa: null };
  const ids = numericPointIds(protocol);
  const at = (id: string) => {
    const index = ids.indexOf(id);
    const value = index < 0 ? undefined : record.values?.[index];
    return value === undefined || Number.isNaN(value) ? null : value;
  };
  const st = at('St');
  const state = st === null ? null : (STATES[st] ?? null);
  const evt = at('Evt') ?? 0;
  return {
    state,
    offLocally: state === 'off' && (Math.trunc(evt) & (1 << OFF_BY_HAND_BIT)) !== 0,
    powerW: at('W'),
    leakageMa: at('LeakA'),
  };
}

/** What the console's on/off needs from the remote-command path (commands.service switchAcSwitch). */
export interface SwitchCommands {
  switchAcSwitch(
    auth: AuthContext,
    language: Language,
    sn: string,
    on: boolean,
    options: { password?: string; idempotencyKey?: string; confirmed?: boolean },
  ): Promise<{ commandId: number; values: Record<string, number | string> | null; message?: string | null }>;
  selfCheckAcSwitch(
    auth: AuthContext,
    language: Language,
    sn: string,
    options: { password?: string; confirmed?: boolean },
  ): Promise<{ commandId: number; message?: string | null }>;
  reportIntervalAcSwitch(auth: AuthContext, language: Language, sn: string, minutes: number): Promise<{ message?: string | null }>;
}

/** LeakTestRes of vendor-ac-switch: 1 passed, 2 failed (0 none yet, 3 under way). */
const SELF_CHECK_VERDICTS: Record<number, boolean> = { 1: true, 2: false };

/** The switch's last self-check from its newest reading: how many it has done, and the last verdict. */
export function selfCheckFigures(record: Pick<AcSwitchRecord, 'protocolId' | 'values'>): {
  count: number | null;
  passed: boolean | null;
  leakageMa: number | null;
} {
  const protocol = record.protocolId ? protocolById(record.protocolId) : undefined;
  if (!protocol || !record.values) return { count: null, passed: null, leakageMa: null };
  const ids = numericPointIds(protocol);
  const at = (id: string) => {
    const value = record.values?.[ids.indexOf(id)];
    return value === undefined || Number.isNaN(value) ? null : value;
  };
  const verdict = at('LeakTestRes');
  return {
    count: at('LeakTestCnt'),
    passed: verdict === null ? null : (SELF_CHECK_VERDICTS[verdict] ?? null),
    leakageMa: at('LeakTestMa'),
  };
}

/**
 * Smart AC switches (issue 22 part 1): the registry (add, import by a company for a customer and by the
 * platform into stock, checks, bind by SN and key, unbind, frequency, associated user, delete) and switching
 * on or off through the remote-command path. Tenant boundary: switchVisibleCondition and device-access levels;
 * a switch the caller may not see answers 4420. Every change lands in the operation log.
 */
export function createAcSwitchesService(deps: {
  repository: AcSwitchesRepository;
  access: DeviceAccess;
  plants: PlantAccess;
  log: OperationLog;
  commands: SwitchCommands;
  /** Counts wrong switch keys per SN and address (135 once locked), like gateway keys. */
  throttle: SecretThrottle;
}) {
  const { repository, access, log } = deps;
  const validation = (field: string, message: string) => new ApiError(Code.VALIDATION, {}, { errors: [{ field, message }] });

  const target = (s: AcSwitchRecord) => ({ id: s.id, plantId: s.plantId, companyId: s.companyId });

  /** The switch with the caller's level; 4420 when it is not theirs, 2 when the level is short. */
  async function load(auth: AuthContext, id: number, needed: PlantAccessLevel) {
    const found = await repository.find({ id });
    // The platform stock (no company, no plant) is the platform administrator's alone.
    const visible = found && (found.companyId !== null || found.plantId !== null || auth.roleKey === 'platform_admin');
    const level = await access.require(auth, visible ? target(found) : undefined, needed, Code.AC_SWITCH_NOT_FOUND);
    return { found: found as AcSwitchRecord, level };
  }

  const entry = (action: string, s: { sn: string; plantId?: number | null }, rest: Partial<OperationEntry> = {}): OperationEntry => ({
    action,
    targetType: 'device',
    target: s.sn,
    plantId: s.plantId ?? null,
    result: 'ok',
    ...rest,
  });

  function toRow(s: AcSwitchRecord, level: PlantAccessLevel): AcSwitchRow {
    const masked = level === 'view';
    const figures = switchFigures(s);
    return {
      id: s.id,
      sn: masked ? maskSerial(s.sn) : s.sn,
      masterSn: s.masterSn && masked ? maskSerial(s.masterSn) : s.masterSn,
      subCount: s.subCount,
      alias: s.alias,
      companyId: s.companyId,
      customerId: s.customerId,
      customerAccount: s.customerAccount,
      plantId: s.plantId,
      plantName: s.plantName,
      frequency: s.frequency,
      associateUserId: s.associateUserId,
      associateAccount: s.associateAccount,
      gatewaySn: masked || !s.gatewaySn ? null : s.gatewaySn,
      online: s.deviceStatus !== null && s.deviceStatus !== 2 && s.gatewaySn !== null,
      ...figures,
      lastReportAt: s.lastReportAt?.toISOString() ?? null,
      createdAt: s.createdAt.toISOString(),
      access: level,
    };
  }

  async function rows(auth: AuthContext, records: readonly AcSwitchRecord[]): Promise<AcSwitchRow[]> {
    const levels = await access.levelsFor(auth, records.map(target));
    return records.map((s) => toRow(s, levels.get(s.id) ?? (auth.roleKey === 'platform_admin' ? 'manage' : 'view')));
  }

  /** The key is well-formed (like a gateway key): 4 naming the field otherwise. */
  function checkKey(key: string, language: Language) {
    if (hasSpace(key) || !isPlainText(key)) throw validation('key', translate(language, 'gateways.problem.keyInvalid'));
  }

  /** The caller's company, where a company import lands; the platform administrator may have none. */
  function companyOf(auth: AuthContext): number | null {
    return auth.companyId;
  }

  /** A customer the switch is imported for: an account linked to the caller's company as its customer. */
  async function requireCustomer(auth: AuthContext, customerId: number | undefined): Promise<number | null> {
    if (customerId === undefined) return null;
    if (auth.companyId === null || !(await repository.isCustomer(auth.companyId, customerId)))
      throw new ApiError(Code.AC_SWITCH_USER_INVALID);
    return customerId;
  }

  /** Registers one switch (add, importOne, importOneBySys) with the import's rules; refusals with their codes. */
  async function registerOne(
    auth: AuthContext,
    input: { sn: string; key: string; masterSn?: string; alias?: string; plantId?: number; customerId?: number },
    companyId: number | null,
    action: string,
    language: Language,
  ): Promise<AcSwitchRow> {
    if (!AC_SWITCH_SN_PATTERN.test(input.sn)) throw validation('sn', translate(language, 'gateways.problem.snInvalid'));
    checkKey(input.key, language);
    const customerId = await requireCustomer(auth, input.customerId);
    if (input.plantId !== undefined) await deps.plants.require(auth, input.plantId, 'manage');
    const known = await repository.known(auth, [input.sn, ...(input.masterSn ? [input.masterSn] : [])]);
    if (known.registered.has(input.sn.toLowerCase())) throw new ApiError(Code.AC_SWITCH_REGISTERED);
    if (input.masterSn) {
      const master = input.masterSn.toLowerCase();
      if (!known.masters.has(master)) throw new ApiError(Code.AC_SWITCH_MASTER_INVALID);
    }
    const plantCompany = input.plantId !== undefined ? await repository.plantCompany(input.plantId) : null;
    const ids = await repository.register([
      {
        sn: input.sn,
        keyHash: hashGatewayKey(input.key),
        companyId: plantCompany ?? companyId,
        customerId,
        plantId: input.plantId ?? null,
        masterSn: input.masterSn ?? null,
        alias: input.alias ? input.alias : null,
      },
    ]);
    const id = ids.get(input.sn);
    if (id === undefined) throw new ApiError(Code.AC_SWITCH_REGISTERED);
    await log.record(auth, entry(action, { sn: input.sn, plantId: input.plantId ?? null }));
    const created = await repository.find({ id });
    if (!created) throw new ApiError(Code.SERVER_ERROR);
    return (await rows(auth, [created]))[0] as AcSwitchRow;
  }

  function sheetRows(bytes: Buffer, language: Language): SheetRow[] {
    const sheet = readFirstSheet(bytes, AC_SWITCH_LIMITS.importRowsMax + 1);
    const refuse = (problem: string) => new ApiError(Code.IMPORT_FILE_INVALID, { problem });
    if (!sheet.ok)
      throw refuse(
        sheet.problem === 'tooManyRows'
          ? translate(language, 'import.tooManyRows', { max: AC_SWITCH_LIMITS.importRowsMax })
          : sheet.problem === 'tooLarge'
            ? translate(language, 'import.tooLarge', spreadsheetLimitParams())
            : translate(language, 'import.unreadable'),
      );
    if (sheet.rows.length === 0) throw refuse(translate(language, 'import.empty'));
    return sheet.rows;
  }

  const problemText = (language: Language, problem: AcSwitchImportProblem) =>
    translate(
      language,
      (problem === 'masterMissing' || problem === 'masterIsSub'
        ? `acSwitch.problem.${problem}`
        : `gateways.problem.${problem}`) as MessageKey,
    );
  const described = (language: Language, list: readonly SwitchRefusal[]) =>
    list.map((e) => ({ row: e.row, sn: e.sn, problem: e.problem, message: problemText(language, e.problem) }));

  async function checkFile(auth: AuthContext, bytes: Buffer, language: Language) {
    const list = sheetRows(bytes, language);
    return { list, ...checkSwitchRows(list, await repository.known(auth, switchSnsOf(list))) };
  }

  /** importSwitches: the good rows of a file registered (masters first), the bad ones listed with why. */
  async function importFile(
    auth: AuthContext,
    bytes: Buffer,
    language: Language,
    into: { companyId: number | null; customerId: number | null; action: string },
  ): Promise<AcSwitchImportResult> {
    const { valid, invalid } = await checkFile(auth, bytes, language);
    const ids = await repository.register(
      valid.map((v) => ({
        sn: v.sn,
        keyHash: hashGatewayKey(v.key),
        companyId: into.companyId,
        customerId: into.customerId,
        plantId: null,
        masterSn: v.masterSn,
        alias: null,
      })),
    );
    // A row another import registered between the check and the insert is reported like any taken SN.
    const lost = valid.filter((v) => !ids.has(v.sn)).map((v) => ({ row: v.row, sn: v.sn, problem: 'alreadyRegistered' as const }));
    const errors = [...invalid, ...lost].sort((a, b) => a.row - b.row);
    await log.record(auth, [
      ...valid.filter((v) => ids.has(v.sn)).map((v) => entry(into.action, { sn: v.sn })),
      ...errors.map((e) => entry(into.action, { sn: e.sn }, { result: 'refused', detail: e.problem })),
    ]);
    return { imported: ids.size, errors: described(language, errors) };
  }

  function requirePlatform(auth: AuthContext) {
    if (auth.roleKey !== 'platform_admin') throw new ApiError(Code.NO_PERMISSION);
  }

  function requireCompanyOrPlatform(auth: AuthContext, language: Language) {
    if (auth.companyId === null && auth.roleKey !== 'platform_admin') throw validation('sn', translate(language, 'gateways.noCompany'));
  }

  /** The SN and key match: counted like gateway keys, 135 once too many were wrong. */
  async function requireKey(auth: AuthContext, found: AcSwitchRecord, key: string) {
    await requireSecret(
      deps.throttle,
      { kind: 'gateway-key', subject: found.sn.toLowerCase(), ip: auth.ip },
      async () => gatewayKeyMatches(key, found.keyHash),
      Code.AC_SWITCH_KEY_WRONG,
    );
  }

  return {
    async pageBySys(
      auth: AuthContext,
      query: { page: number; size: number; keyword?: string; scope: 'all' | 'bound' | 'unbound' | 'stock' },
    ) {
      const { rows: found, total } = await repository.page(auth, query, query.page, query.size);
      return { infos: await rows(auth, found), total } satisfies AcSwitchPage;
    },

    async pageByStation(auth: AuthContext, query: { page: number; size: number; keyword?: string; plantId: number }) {
      await deps.plants.require(auth, query.plantId, 'view');
      const { rows: found, total } = await repository.page(auth, query, query.page, query.size);
      return { infos: await rows(auth, found), total } satisfies AcSwitchPage;
    },

    async customers(auth: AuthContext): Promise<AcSwitchCustomer[]> {
      return auth.companyId === null ? [] : repository.customers(auth.companyId);
    },

    async add(auth: AuthContext, body: AcSwitchAddBody, language: Language) {
      requireCompanyOrPlatform(auth, language);
      return registerOne(auth, body, companyOf(auth), 'acSwitch.add', language);
    },

    async importOne(auth: AuthContext, body: { sn: string; key: string; masterSn?: string; customerId?: number }, language: Language) {
      requireCompanyOrPlatform(auth, language);
      return registerOne(auth, body, companyOf(auth), 'acSwitch.import', language);
    },

    async importOneBySys(auth: AuthContext, body: { sn: string; key: string; masterSn?: string }, language: Language) {
      requirePlatform(auth);
      return registerOne(auth, body, null, 'acSwitch.importSys', language);
    },

    async importBatch(auth: AuthContext, bytes: Buffer, customerId: number | undefined, language: Language) {
      requireCompanyOrPlatform(auth, language);
      const customer = await requireCustomer(auth, customerId);
      return importFile(auth, bytes, language, { companyId: companyOf(auth), customerId: customer, action: 'acSwitch.import' });
    },

    async importBatchBySys(auth: AuthContext, bytes: Buffer, language: Language) {
      requirePlatform(auth);
      return importFile(auth, bytes, language, { companyId: null, customerId: null, action: 'acSwitch.importSys' });
    },

    /** checkImportEquip / checkMultipleEquipBySys: what importing the file would do; nothing stored. */
    async checkImport(auth: AuthContext, bytes: Buffer, language: Language, bySys: boolean): Promise<AcSwitchImportCheck> {
      if (bySys) requirePlatform(auth);
      else requireCompanyOrPlatform(auth, language);
      const { valid, invalid } = await checkFile(auth, bytes, language);
      return { valid: valid.map((v) => ({ row: v.row, sn: v.sn, masterSn: v.masterSn })), errors: described(language, invalid) };
    },

    /**
     * check: whether an SN and key would bind. Unknown SNs and SNs of other tenants read alike (not
     * registered), except the platform stock, which anyone holding the key may claim.
     */
    async check(auth: AuthContext, body: { sn: string; key: string }): Promise<AcSwitchCheckResult> {
      const found = await repository.find({ sn: body.sn });
      const claimable = found && found.companyId === null && found.plantId === null;
      const level = found && !claimable ? (await access.levelsFor(auth, [target(found)])).get(found.id) : undefined;
      if (!found || (!claimable && !level)) return { sn: body.sn, registered: false, keyMatches: false, bound: false };
      let keyMatches = true;
      try {
        await requireKey(auth, found, body.key);
      } catch (error) {
        if (!(error instanceof ApiError) || error.responseCode !== Code.AC_SWITCH_KEY_WRONG) throw error;
        keyMatches = false;
      }
      return { sn: found.sn, registered: true, keyMatches, bound: found.plantId !== null };
    },

    /**
     * bindSwitch: a switch proven by SN and key joins a plant the caller manages (and the plant's company);
     * its sub switches follow. Stock or the caller's unbound switches only: one in a plant is refused (4423).
     */
    async bindBySn(auth: AuthContext, body: AcSwitchBindBody): Promise<AcSwitchRow> {
      await deps.plants.require(auth, body.plantId, 'manage');
      const found = await repository.find({ sn: body.sn });
      const claimable = found && found.companyId === null && found.plantId === null;
      const level = found && !claimable ? (await access.levelsFor(auth, [target(found)])).get(found.id) : undefined;
      if (!found || (!claimable && !level)) throw new ApiError(Code.AC_SWITCH_NOT_FOUND);
      await requireKey(auth, found, body.key);
      if (found.plantId !== null) throw new ApiError(Code.AC_SWITCH_BOUND);
      if (found.masterId !== null) {
        const master = await repository.find({ id: found.masterId });
        if (master?.plantId !== body.plantId) throw new ApiError(Code.AC_SWITCH_MASTER_INVALID);
      }
      const companyId = (await repository.plantCompany(body.plantId)) ?? found.companyId ?? auth.companyId;
      await repository.update(found.id, { plantId: body.plantId, companyId });
      await log.record(auth, entry('acSwitch.bind', { sn: found.sn, plantId: body.plantId }));
      const after = await repository.find({ id: found.id });
      return (await rows(auth, [after ?? found]))[0] as AcSwitchRow;
    },

    /** unbind: the switch leaves its plant, customer and associated user; it stays registered in its company. */
    async unbind(auth: AuthContext, id: number): Promise<void> {
      const { found } = await load(auth, id, 'manage');
      await repository.update(found.id, { plantId: null, customerId: null, associateUserId: null });
      await repository.unbindPlant([found.id]);
      await log.record(auth, entry('acSwitch.unbind', found));
    },

    /** unbindStation: switches leave their plants (sub switches with their master); all or none. */
    async unbindStation(auth: AuthContext, ids: readonly number[]): Promise<void> {
      const loaded = [];
      for (const id of ids) loaded.push((await load(auth, id, 'manage')).found);
      await repository.unbindPlant(ids);
      await log.record(
        auth,
        loaded.map((s) => entry('acSwitch.unbindStation', s)),
      );
    },

    /**
     * Stores the upload frequency and writes it to the switch (its RptIntv register) when a gateway reports it;
     * `written` says whether the switch confirmed it. A switch that does not report now keeps the stored value
     * until the frequency is saved again while it reports (the dialog says so).
     */
    async updateFrequency(auth: AuthContext, id: number, frequency: number, language: Language = 'en'): Promise<{ written: boolean }> {
      const { found } = await load(auth, id, 'manage');
      await repository.update(found.id, { frequency });
      let written = false;
      if (found.deviceId !== null && found.gatewaySn !== null) {
        try {
          written = !(await deps.commands.reportIntervalAcSwitch(auth, language, found.sn, frequency)).message;
        } catch {
          // Offline, refused or silent: stored, recorded in the command history, not written.
        }
      }
      await log.record(auth, entry('acSwitch.frequency', found, { request: { frequency, written } }));
      return { written };
    },

    /** The associated user: a customer or member of the switch's company, or none. */
    async updateAssociateUser(auth: AuthContext, id: number, userId: number | null): Promise<void> {
      const { found } = await load(auth, id, 'manage');
      if (userId !== null && (found.companyId === null || !(await repository.isCompanyPerson(found.companyId, userId))))
        throw new ApiError(Code.AC_SWITCH_USER_INVALID);
      await repository.update(found.id, { associateUserId: userId });
      await log.record(auth, entry('acSwitch.associateUser', found, { request: { userId } }));
    },

    /** Deletes a switch: refused while in a plant (4424) or while a master has sub switches (4425). */
    async remove(auth: AuthContext, id: number): Promise<void> {
      const { found } = await load(auth, id, 'manage');
      if (found.plantId !== null) throw new ApiError(Code.AC_SWITCH_IN_PLANT);
      if (found.subCount > 0) throw new ApiError(Code.AC_SWITCH_HAS_SUBS);
      await repository.remove(found.id);
      await log.record(auth, entry('acSwitch.delete', found));
    },

    /**
     * On or off from the console, confirmed by the switch over the gateway protocol. A switch turned off with
     * its own button is only turned on there (spec 02 §4): 4427 before anything is sent, and the switch itself
     * refuses too.
     */
    /** The switch with the caller's level (4420 when not theirs, 2 when the level is short): for the timed tasks. */
    async reach(auth: AuthContext, id: number, needed: PlantAccessLevel): Promise<AcSwitchRecord> {
      return (await load(auth, id, needed)).found;
    },

    /**
     * A timed task's on or off: as the console's, without the password (it was given when the task was made), and
     * whether the switch confirmed the new state.
     */
    async switchForTask(
      auth: AuthContext,
      id: number,
      on: boolean,
      language: Language,
    ): Promise<{ commandId: number; confirmed: boolean }> {
      const { found } = await load(auth, id, 'operate');
      if (found.deviceId === null || found.gatewaySn === null) throw new ApiError(Code.AC_SWITCH_NOT_REPORTING);
      if (on && switchFigures(found).offLocally) throw new ApiError(Code.AC_SWITCH_OFF_LOCALLY);
      const result = await deps.commands.switchAcSwitch(auth, language, found.sn, on, { confirmed: true });
      return { commandId: result.commandId, confirmed: !result.message };
    },

    /**
     * Starts the switch's leakage self-check (issue 22): it must report (4428) and be on (4427 off locally, 4438
     * otherwise), the switch refusing too. Answers once the switch confirmed the start, with its self-check count
     * before it, so the caller can tell its next verdict from the last one (`selfCheckResult`).
     */
    async startSelfCheck(
      auth: AuthContext,
      id: number,
      language: Language,
      options: { password?: string; confirmed?: boolean },
    ): Promise<{ commandId: number; countBefore: number | null }> {
      const { found } = await load(auth, id, 'operate');
      if (found.deviceId === null || found.gatewaySn === null) throw new ApiError(Code.AC_SWITCH_NOT_REPORTING);
      const figures = switchFigures(found);
      if (figures.offLocally) throw new ApiError(Code.AC_SWITCH_OFF_LOCALLY);
      if (figures.state !== 'on') throw new ApiError(Code.AC_SWITCH_SELFCHECK_OFF);
      const countBefore = selfCheckFigures(found).count;
      const result = await deps.commands.selfCheckAcSwitch(auth, language, found.sn, options);
      if (result.message) throw new ApiError(Code.AC_SWITCH_TASK_UNCONFIRMED, {}, { commandId: result.commandId });
      return { commandId: result.commandId, countBefore };
    },

    /** The verdict the switch reported after the self-check counted `countBefore`, or null while none is in yet. */
    async selfCheckResult(id: number, countBefore: number | null): Promise<{ passed: boolean; leakageMa: number | null } | null> {
      const found = await repository.find({ id });
      if (!found) return null;
      const figures = selfCheckFigures(found);
      if (figures.count === null || figures.count === countBefore || figures.passed === null) return null;
      return { passed: figures.passed, leakageMa: figures.leakageMa };
    },

    async switchPower(auth: AuthContext, id: number, body: AcSwitchSwitchBody, language: Language): Promise<AcSwitchSwitchResult> {
      const { found } = await load(auth, id, 'operate');
      if (found.deviceId === null || found.gatewaySn === null) throw new ApiError(Code.AC_SWITCH_NOT_REPORTING);
      if (body.on && switchFigures(found).offLocally) throw new ApiError(Code.AC_SWITCH_OFF_LOCALLY);
      const result = await deps.commands.switchAcSwitch(auth, language, found.sn, body.on, {
        ...(body.password !== undefined ? { password: body.password } : {}),
        ...(body.idempotencyKey !== undefined ? { idempotencyKey: body.idempotencyKey } : {}),
      });
      const conn = result.values?.Conn;
      const state: AcSwitchState = conn === undefined ? (body.on ? 'on' : 'off') : Number(conn) === 1 ? 'on' : 'off';
      return { commandId: result.commandId, state };
    },
  };
}

export type AcSwitchesService = ReturnType<typeof createAcSwitchesService>;
