import type { RuleAction, RuleConditions, RuleValues, SmartRuleRun } from '@sunward/contracts/smart-home';
import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, sqlRows } from '../../db/rows.js';
import { acSwitches, plants, smartRuleRuns, smartRules } from '../../db/schema.js';
import { accountNow, type CredentialCreator } from '../../lib/scoped-credentials.js';

export interface RuleRecord {
  id: number;
  plantId: number;
  plantName: string;
  timezone: string;
  name: string;
  enabled: boolean;
  conditions: RuleConditions;
  actions: RuleAction[];
  minIntervalMinutes: number;
  holdingSince: Date | null;
  active: boolean;
  lastFiredAt: Date | null;
  /** The account its AC switch actions act for (who saved it last); null once that account is deleted. */
  actsFor: number | null;
}

/** The account a rule acts for, as it is now (role, company, state). */
export type RuleActor = CredentialCreator;

const columns = {
  id: smartRules.id,
  plantId: smartRules.plantId,
  plantName: plants.name,
  timezone: plants.timezone,
  name: smartRules.name,
  enabled: smartRules.enabled,
  conditions: smartRules.conditions,
  actions: smartRules.actions,
  minIntervalSeconds: smartRules.minIntervalSeconds,
  holdingSince: smartRules.holdingSince,
  active: smartRules.active,
  lastFiredAt: smartRules.lastFiredAt,
  actsFor: smartRules.actsFor,
};

type Row = Omit<RuleRecord, 'conditions' | 'actions' | 'minIntervalMinutes'> & {
  conditions: unknown;
  actions: unknown;
  minIntervalSeconds: number;
};
const toRecord = ({ minIntervalSeconds, ...r }: Row): RuleRecord => ({
  ...r,
  conditions: r.conditions as RuleConditions,
  actions: r.actions as RuleAction[],
  minIntervalMinutes: Math.round(minIntervalSeconds / 60),
});

export interface RuleFields {
  plantId: number;
  name: string;
  enabled: boolean;
  conditions: RuleConditions;
  actions: RuleAction[];
  minIntervalMinutes: number;
}

/** All SQL of the smart rules. */
export function createSmartRulesRepository(db: Database) {
  const select = () => db.select(columns).from(smartRules).innerJoin(plants, eq(plants.id, smartRules.plantId));
  return {
    async list(plantIds: readonly number[] | undefined): Promise<RuleRecord[]> {
      const rows = await select()
        .where(plantIds === undefined ? undefined : sql`${smartRules.plantId} = any(${sql.param([...plantIds])}::int[])`)
        .orderBy(asc(plants.name), asc(smartRules.name));
      return rows.map(toRecord);
    },
    async byId(id: number): Promise<RuleRecord | undefined> {
      const [row] = await select().where(eq(smartRules.id, id));
      return row ? toRecord(row) : undefined;
    },
    /** Plants with at least one enabled rule. */
    async plantsWithEnabledRules(): Promise<Set<number>> {
      const rows = await db.selectDistinct({ plantId: smartRules.plantId }).from(smartRules).where(eq(smartRules.enabled, true));
      return new Set(rows.map((r) => r.plantId));
    },
    async enabledOfPlant(plantId: number): Promise<RuleRecord[]> {
      const rows = await select().where(and(eq(smartRules.plantId, plantId), eq(smartRules.enabled, true)));
      return rows.map(toRecord);
    },
    async nameTaken(plantId: number, name: string, exceptId?: number): Promise<boolean> {
      const [row] = await db
        .select({ n: count() })
        .from(smartRules)
        .where(and(eq(smartRules.plantId, plantId), eq(smartRules.name, name), exceptId ? ne(smartRules.id, exceptId) : undefined));
      return (row?.n ?? 0) > 0;
    },
    async create(fields: RuleFields, userId: number): Promise<number> {
      const [row] = await db
        .insert(smartRules)
        .values({ ...fieldsOf(fields), createdBy: userId, actsFor: userId })
        .returning({ id: smartRules.id });
      if (!row) throw new Error('rule not created');
      return row.id;
    },
    async update(id: number, fields: RuleFields, userId: number): Promise<void> {
      // A changed rule starts afresh: not holding, not active (its interval still counts from the last firing); it
      // acts for whoever saved it.
      await db
        .update(smartRules)
        .set({ ...fieldsOf(fields), actsFor: userId, holdingSince: null, active: false, updatedAt: new Date() })
        .where(eq(smartRules.id, id));
    },
    /** Switching a rule off or on starts it afresh, its minimum interval included (a deliberate act of the user). */
    async setEnabled(id: number, enabled: boolean): Promise<void> {
      await db
        .update(smartRules)
        .set({ enabled, holdingSince: null, active: false, lastFiredAt: null, updatedAt: new Date() })
        .where(eq(smartRules.id, id));
    },
    async remove(id: number): Promise<void> {
      await db.delete(smartRules).where(eq(smartRules.id, id));
    },
    async saveState(id: number, state: { holdingSince: Date | null; active: boolean; lastFiredAt: Date | null }): Promise<void> {
      await db.update(smartRules).set(state).where(eq(smartRules.id, id));
    },
    async addRun(ruleId: number, run: { outcome: SmartRuleRun['outcome']; values: RuleValues; results: SmartRuleRun['results'] }) {
      await db.insert(smartRuleRuns).values({ ruleId, ...run });
    },
    async runs(ruleId: number, limit: number): Promise<SmartRuleRun[]> {
      const rows = await db
        .select()
        .from(smartRuleRuns)
        .where(eq(smartRuleRuns.ruleId, ruleId))
        .orderBy(desc(smartRuleRuns.at))
        .limit(limit);
      return rows.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        outcome: r.outcome as SmartRuleRun['outcome'],
        values: r.values as RuleValues,
        results: r.results as SmartRuleRun['results'],
      }));
    },
    /** The AC switches bound to a plant (ids). */
    async plantSwitchIds(plantId: number): Promise<number[]> {
      const rows = await db
        .select({ id: acSwitches.id })
        .from(acSwitches)
        .where(eq(acSwitches.plantId, plantId))
        .orderBy(asc(acSwitches.id));
      return rows.map((r) => r.id);
    },
    /** The account a rule acts for, with its role, company and state now. */
    actor: (userId: number): Promise<RuleActor | undefined> => accountNow(db, userId),
    /** Plants with their bound bulbs and rules counted. */
    async plantCounts(plantIds: readonly number[] | undefined) {
      const where = plantIds === undefined ? sql`true` : sql`p.id = any(${sql.param([...plantIds])}::int[])`;
      const rows = await sqlRows(
        db,
        { id: plants.id, name: plants.name, lights: computed.number, rules: computed.number },
        sql`select p.id, p.name,
          (select count(*) from lights l where l.plant_id = p.id) as lights,
          (select count(*) from smart_rules r where r.plant_id = p.id) as rules
        from plants p where ${where} order by p.name`,
      );
      return rows.map((r) => ({ plantId: r.id, plantName: r.name, lights: r.lights, rules: r.rules }));
    },
  };
}

function fieldsOf(f: RuleFields) {
  return {
    plantId: f.plantId,
    name: f.name,
    enabled: f.enabled,
    conditions: f.conditions,
    actions: f.actions,
    minIntervalSeconds: f.minIntervalMinutes * 60,
  };
}

export type SmartRulesRepository = ReturnType<typeof createSmartRulesRepository>;
