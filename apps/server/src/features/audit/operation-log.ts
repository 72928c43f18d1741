import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import type { AuthContext } from '../../plugins/auth.js';

export interface OperationEntry {
  action: string;
  targetType: 'gateway' | 'device' | 'plant' | 'firmware';
  target: string;
  plantId?: number | null;
  request?: unknown;
  result: 'ok' | 'refused' | 'failed';
  detail?: string;
}

/**
 * The operation log: every change a user makes to equipment, written in the same transaction-free
 * way as the change itself (after it), so a failed write of the log never undoes a done change.
 */
export function createOperationLog(db: Database) {
  return {
    async record(auth: AuthContext, entries: OperationEntry | readonly OperationEntry[]): Promise<void> {
      const list = Array.isArray(entries) ? (entries as readonly OperationEntry[]) : [entries as OperationEntry];
      if (list.length === 0) return;
      await db.execute(sql`insert into operation_log (user_id, account, company_id, action, target_type, target, plant_id, request, result, detail)
        select ${auth.userId}, ${auth.account}, ${auth.companyId}, e.action, e.target_type, e.target, e.plant_id, e.request, e.result, e.detail
        from jsonb_to_recordset(${JSON.stringify(
          list.map((e) => ({
            action: e.action,
            target_type: e.targetType,
            target: e.target,
            plant_id: e.plantId ?? null,
            request: e.request ?? null,
            result: e.result,
            detail: e.detail ?? null,
          })),
        )}::jsonb) as e(action text, target_type text, target text, plant_id int, request jsonb, result text, detail text)`);
    },
  };
}

export type OperationLog = ReturnType<typeof createOperationLog>;
