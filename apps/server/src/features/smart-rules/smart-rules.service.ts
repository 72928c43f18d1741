import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { isMessageKey, translate } from '@sunward/contracts/messages';
import type { PermissionKey } from '@sunward/contracts/permissions';
import type { EnergyFlow } from '@sunward/contracts/plants';
import type {
  RuleAction,
  RulePlant,
  RulePlantCheck,
  RulePreview,
  RuleValues,
  SmartRule,
  SmartRuleInput,
  SmartRuleRun,
} from '@sunward/contracts/smart-home';
import { SmartRuleInputSchema } from '@sunward/contracts/smart-home';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationLog } from '../audit/operation-log.js';
import type { PlantAccess } from '../plants/plant-access.js';
import type { SmartAppsService } from '../smart-apps/smart-apps.service.js';
import { conditionsMet, evaluateRule } from './rule-evaluator.js';
import type { RuleRecord, SmartRulesRepository } from './smart-rules.repository.js';

/** What a rule can act on: bulbs and AC switches (rule-devices.ts). */
export interface RuleDevices {
  /** The plant's devices of a kind (ids), to check a rule's actions. */
  ofPlant(kind: RuleAction['kind'], plantId: number): Promise<number[]>;
  /**
   * Carries out one action; throws ApiError when the device refuses or cannot be reached. `actor` is the account
   * an AC switch action acts for, checked when asked (it throws the refusal when that account may no longer).
   */
  apply(action: RuleAction, plantId: number, actor: () => Promise<AuthContext>): Promise<void>;
}

/** The right a rule's AC switch action needs of the account it acts for (the console's on/off key). */
const SWITCH_CONTROL: PermissionKey = 'smart.acSwitch.control';

export interface SmartRulesDeps {
  repository: SmartRulesRepository;
  apps: SmartAppsService;
  access: PlantAccess;
  devices: RuleDevices;
  /** The plant's energy flow now (plant-energy service). */
  flow: (plantId: number) => Promise<EnergyFlow>;
  log: OperationLog;
  /** A role's effective rights now (the account a rule acts for is re-checked at each firing). */
  permissionsOf: (roleId: number, inCompany: boolean) => Promise<ReadonlySet<PermissionKey>>;
  /** The password asked again (commands.service): 708 wrong or missing, 135 once wrong too often. */
  confirmPassword: (auth: AuthContext, password: string | undefined) => Promise<void>;
  now?: () => Date;
}

const RUNS_SHOWN = 50;

const present = (r: RuleRecord): SmartRule => ({
  id: r.id,
  plantId: r.plantId,
  plantName: r.plantName,
  name: r.name,
  enabled: r.enabled,
  conditions: r.conditions,
  actions: r.actions,
  minIntervalMinutes: r.minIntervalMinutes,
  active: r.active,
  lastFiredAt: r.lastFiredAt?.toISOString() ?? null,
});

/** The plant's local time as HH:MM (rules' time windows are in the plant's zone). */
export function localClock(now: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(now);
}

/** PV surplus: PV power less the plant's load where it is measured, else the PV power itself. */
export function surplusOf(flow: EnergyFlow): number | null {
  if (flow.pvW === null) return null;
  return flow.loadW === null ? flow.pvW : Math.round(flow.pvW - flow.loadW);
}

const codeOf = (error: unknown): number => (error instanceof ApiError ? error.responseCode : Code.SERVER_ERROR);
const messageOf = (error: unknown, language: Language): string => {
  const key = `code.${codeOf(error)}`;
  return isMessageKey(key) ? translate(language, key) : translate(language, 'code.500');
};

/** What the operation log keeps of a saved rule: its fields, never the password. */
const logged = ({ password: _, ...fields }: ReturnType<typeof SmartRuleInputSchema.parse>) => fields;

/**
 * Smart rules (issue 22 part 3): per plant, conditions on its live data and actions on its devices, evaluated after
 * each plant update (evaluatePlant, called by the engine in smart-rules.engine.ts) with hysteresis and a minimum
 * interval; each firing is a run in the history; a dry run shows what the rule sees now.
 */
export function createSmartRulesService(deps: SmartRulesDeps) {
  const { repository } = deps;
  const now = deps.now ?? (() => new Date());

  async function visibleRule(auth: AuthContext, id: number, level: 'view' | 'operate'): Promise<RuleRecord> {
    const rule = await repository.byId(id);
    if (!rule) throw new ApiError(Code.SMART_RULE_NOT_FOUND);
    try {
      await deps.access.require(auth, rule.plantId, level);
    } catch (error) {
      if (error instanceof ApiError && error.responseCode === Code.PLANT_NOT_FOUND) throw new ApiError(Code.SMART_RULE_NOT_FOUND);
      throw error;
    }
    return rule;
  }

  /**
   * Spec 02 §5: brightness 0–100 (the schema) and for bulbs only, the same device at most once; every device bound
   * to the plant. AC switch actions also need the smart switch app, the saver's right to switch (2 otherwise) and
   * their password again (708): the rule will switch those circuits for them, unattended, without asking.
   */
  async function checkActions(
    auth: AuthContext,
    plantId: number,
    actions: readonly RuleAction[],
    password: string | undefined,
    language: Language,
  ): Promise<void> {
    const seen = new Set<string>();
    for (const [index, a] of actions.entries()) {
      if (a.kind === 'switch' && a.brightness !== undefined)
        throw new ApiError(
          Code.VALIDATION,
          {},
          { errors: [{ field: `actions.${index}.brightness`, message: translate(language, 'validation.unknownField') }] },
        );
      const key = `${a.kind}:${a.deviceId}`;
      if (seen.has(key)) throw new ApiError(Code.SMART_RULE_DEVICE_TWICE);
      seen.add(key);
    }
    const switching = actions.some((a) => a.kind === 'switch');
    if (switching) {
      await deps.apps.require(auth, 'smart_switch');
      if (auth.readOnly || !auth.permissions.has(SWITCH_CONTROL)) throw new ApiError(Code.NO_PERMISSION);
    }
    for (const kind of new Set(actions.map((a) => a.kind))) {
      const ids = new Set(await deps.devices.ofPlant(kind, plantId));
      if (actions.some((a) => a.kind === kind && !ids.has(a.deviceId))) throw new ApiError(Code.SMART_RULE_DEVICE_INVALID);
    }
    if (switching) await deps.confirmPassword(auth, password);
  }

  /**
   * The account a rule's AC switch actions act for, as it is at this firing: still there, enabled, not read-only,
   * holding the switch right, its company still with the smart switch app (4400), still operating the rule's plant.
   * Otherwise 4414: nothing is sent, the run says why.
   */
  async function actorOf(rule: RuleRecord): Promise<AuthContext> {
    const lost = () => new ApiError(Code.SMART_RULE_ACTOR_INVALID);
    const person = rule.actsFor === null ? undefined : await repository.actor(rule.actsFor);
    if (!person || person.disabled || person.readOnly) throw lost();
    const permissions = await deps.permissionsOf(person.roleId, person.companyId !== null);
    if (!permissions.has(SWITCH_CONTROL)) throw lost();
    const auth: AuthContext = {
      userId: person.userId,
      sessionId: `rule-${rule.id}`,
      // The command audit names the rule beside its account.
      account: `${person.account} (rule #${rule.id})`,
      roleId: person.roleId,
      roleKey: person.roleKey,
      companyId: person.companyId,
      readOnly: false,
      permissions,
      ip: '',
    };
    await deps.apps.require(auth, 'smart_switch');
    try {
      await deps.access.require(auth, rule.plantId, 'operate');
    } catch (error) {
      if (error instanceof ApiError) throw lost();
      throw error;
    }
    return auth;
  }

  async function values(plantId: number, timezone: string, at: Date): Promise<RuleValues> {
    const flow = await deps.flow(plantId);
    return { pvSurplusW: surplusOf(flow), soc: flow.soc, localTime: localClock(at, timezone) };
  }

  async function fire(rule: RuleRecord, seen: RuleValues): Promise<void> {
    const results: SmartRuleRun['results'] = [];
    // Checked once per firing, at the first switch action.
    let actor: Promise<AuthContext> | undefined;
    const actorOnce = () => {
      actor ??= actorOf(rule);
      return actor;
    };
    for (const action of rule.actions) {
      try {
        await deps.devices.apply(action, rule.plantId, actorOnce);
        results.push({ kind: action.kind, deviceId: action.deviceId, ok: true, message: null, code: null });
      } catch (error) {
        results.push({ kind: action.kind, deviceId: action.deviceId, ok: false, message: messageOf(error, 'en'), code: codeOf(error) });
      }
    }
    const okCount = results.filter((r) => r.ok).length;
    const outcome = okCount === results.length ? 'ok' : okCount === 0 ? 'failed' : 'partial';
    await repository.addRun(rule.id, { outcome, values: seen, results });
  }

  // Bumped by every rule write of this process: the engine's cache of which plants have rules is then stale.
  let rulesVersion = 0;

  return {
    /** Changes with each rule written through this process (the engine reloads plantsWithRules when it does). */
    rulesVersion: () => rulesVersion,

    /** Plants with at least one enabled rule (the engine evaluates only these). */
    plantsWithRules: () => repository.plantsWithEnabledRules(),

    async list(auth: AuthContext, plantId: number | undefined): Promise<SmartRule[]> {
      await deps.apps.require(auth, 'smart_rule');
      if (plantId !== undefined) {
        await deps.access.require(auth, plantId, 'view');
        return (await repository.list([plantId])).map(present);
      }
      const visible = await deps.access.visiblePlantIds(auth);
      return (await repository.list(visible === undefined ? undefined : [...visible])).map(present);
    },

    async plants(auth: AuthContext): Promise<RulePlant[]> {
      await deps.apps.require(auth, 'smart_rule');
      const visible = await deps.access.visiblePlantIds(auth);
      return repository.plantCounts(visible === undefined ? undefined : [...visible]);
    },

    async check(auth: AuthContext, plantId: number, name: string | undefined, ruleId: number | undefined): Promise<RulePlantCheck> {
      await deps.apps.require(auth, 'smart_rule');
      await deps.access.require(auth, plantId, 'view');
      const lights = (await deps.devices.ofPlant('light', plantId)).length;
      const switches = (await deps.devices.ofPlant('switch', plantId)).length;
      const nameFree = name === undefined || !(await repository.nameTaken(plantId, name.trim(), ruleId));
      return { lights, switches, nameFree };
    },

    async create(auth: AuthContext, input: SmartRuleInput, language: Language = 'en'): Promise<SmartRule> {
      await deps.apps.require(auth, 'smart_rule');
      const fields = SmartRuleInputSchema.parse(input);
      await deps.access.require(auth, fields.plantId, 'operate');
      if (await repository.nameTaken(fields.plantId, fields.name)) throw new ApiError(Code.SMART_RULE_NAME_EXISTS);
      await checkActions(auth, fields.plantId, fields.actions, fields.password, language);
      const id = await repository.create(fields, auth.userId);
      rulesVersion++;
      await deps.log.record(auth, {
        action: 'rule.create',
        targetType: 'plant',
        target: `rule:${id}`,
        plantId: fields.plantId,
        request: logged(fields),
        result: 'ok',
      });
      return present((await repository.byId(id)) as RuleRecord);
    },

    async update(auth: AuthContext, id: number, input: SmartRuleInput, language: Language = 'en'): Promise<SmartRule> {
      await deps.apps.require(auth, 'smart_rule');
      const rule = await visibleRule(auth, id, 'operate');
      const fields = SmartRuleInputSchema.parse(input);
      // A rule stays with its plant.
      if (fields.plantId !== rule.plantId) throw new ApiError(Code.VALIDATION);
      if (await repository.nameTaken(rule.plantId, fields.name, id)) throw new ApiError(Code.SMART_RULE_NAME_EXISTS);
      await checkActions(auth, rule.plantId, fields.actions, fields.password, language);
      await repository.update(id, fields, auth.userId);
      rulesVersion++;
      await deps.log.record(auth, {
        action: 'rule.update',
        targetType: 'plant',
        target: `rule:${id}`,
        plantId: rule.plantId,
        request: logged(fields),
        result: 'ok',
      });
      return present((await repository.byId(id)) as RuleRecord);
    },

    async setEnabled(auth: AuthContext, id: number, enabled: boolean): Promise<SmartRule> {
      await deps.apps.require(auth, 'smart_rule');
      const rule = await visibleRule(auth, id, 'operate');
      await repository.setEnabled(id, enabled);
      rulesVersion++;
      await deps.log.record(auth, {
        action: enabled ? 'rule.enable' : 'rule.disable',
        targetType: 'plant',
        target: `rule:${id}`,
        plantId: rule.plantId,
        result: 'ok',
      });
      return present((await repository.byId(id)) as RuleRecord);
    },

    async remove(auth: AuthContext, id: number): Promise<void> {
      await deps.apps.require(auth, 'smart_rule');
      const rule = await visibleRule(auth, id, 'operate');
      await repository.remove(id);
      rulesVersion++;
      await deps.log.record(auth, {
        action: 'rule.delete',
        targetType: 'plant',
        target: `rule:${id}`,
        plantId: rule.plantId,
        result: 'ok',
      });
    },

    async runs(auth: AuthContext, id: number): Promise<SmartRuleRun[]> {
      await deps.apps.require(auth, 'smart_rule');
      await visibleRule(auth, id, 'view');
      return repository.runs(id, RUNS_SHOWN);
    },

    /** The dry run: the plant's values now against the rule's conditions; nothing is sent, nothing stored. */
    async preview(auth: AuthContext, id: number): Promise<RulePreview> {
      await deps.apps.require(auth, 'smart_rule');
      const rule = await visibleRule(auth, id, 'view');
      const at = now();
      const seen = await values(rule.plantId, rule.timezone, at);
      const step = evaluateRule(rule, { holdingSince: rule.holdingSince, active: rule.active, lastFiredAt: rule.lastFiredAt }, seen, at);
      return { values: seen, conditions: conditionsMet(rule.conditions, seen), wouldFire: step.fire };
    },

    /** One evaluation of a plant's enabled rules (after a plant update); fires those that are due. */
    async evaluatePlant(plantId: number): Promise<number> {
      const rules = await repository.enabledOfPlant(plantId);
      if (rules.length === 0) return 0;
      const at = now();
      const first = rules[0] as RuleRecord;
      const seen = await values(plantId, first.timezone, at);
      let fired = 0;
      for (const rule of rules) {
        const state = { holdingSince: rule.holdingSince, active: rule.active, lastFiredAt: rule.lastFiredAt };
        const step = evaluateRule(rule, state, seen, at);
        if (step.state !== state) await repository.saveState(rule.id, step.state);
        if (step.fire) {
          fired++;
          await fire(rule, seen);
        }
      }
      return fired;
    },
  };
}

export type SmartRulesService = ReturnType<typeof createSmartRulesService>;
