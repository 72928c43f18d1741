import { type ReplyPayload, ReplyPayloadSchema } from '@sunward/contracts/gateway-protocol';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import { companies, deviceCommands, users } from '../../db/schema.js';
import { inCompanySubtree } from '../../lib/company-tree.js';

export interface CommandRecord {
  id: number;
  status: string;
  result: StoredOutcome | null;
}

/** What a finished command answered, kept so a retried request gets the same answer. */
export interface StoredOutcome {
  code: number;
  hex: string | null;
  values: Record<string, number | string> | null;
  message: string | null;
}

/** Who sees which commands (their company's, or their own without one; all for the platform), and the page's filters. */
/** The JSON a command's outcome is stored as (device_commands.result). */
const storedOutcome = nullable(computed.json<StoredOutcome>());

export interface CommandLogFilter {
  companyId: number | null;
  all: boolean;
  userId: number;
  sn?: string;
  op?: string;
  status?: string;
  /** ISO times: at or after from, before to. */
  from?: string;
  to?: string;
}

/** SQL for the command audit (device_commands): record, finish, late replies, idempotency, the per-minute cap. */
export function createCommandsRepository(db: Database) {
  return {
    async byIdempotencyKey(userId: number, key: string): Promise<CommandRecord | undefined> {
      const [row] = await sqlRows(
        db,
        { id: deviceCommands.id, status: deviceCommands.status, result: storedOutcome },
        sql`select id, status, result from device_commands where user_id = ${userId} and idempotency_key = ${key}`,
      );
      return row ? { id: Number(row.id), status: row.status, result: row.result } : undefined;
    },

    async byId(id: number): Promise<(CommandRecord & { deviceSn: string; userId: number | null }) | undefined> {
      const [row] = await sqlRows(
        db,
        {
          id: deviceCommands.id,
          status: deviceCommands.status,
          result: storedOutcome,
          device_sn: deviceCommands.deviceSn,
          user_id: deviceCommands.userId,
        },
        sql`select id, status, result, device_sn, user_id from device_commands where id = ${id}`,
      );
      return row ? { id: Number(row.id), status: row.status, result: row.result, deviceSn: row.device_sn, userId: row.user_id } : undefined;
    },

    /**
     * Records a command before it is sent. Undefined when the caller's idempotency key is already taken
     * (a concurrent retry): the caller then reads that one.
     */
    async start(entry: {
      userId: number;
      account: string;
      companyId: number | null;
      /** Null for a gateway's own commands (its upgrade). */
      deviceId: number | null;
      deviceSn: string;
      gatewaySn: string | null;
      plantId: number | null;
      op: string;
      request: unknown;
      idempotencyKey: string | null;
      /** queued: a gateway upgrade waiting for its gateway to come online. */
      status?: 'pending' | 'refused' | 'queued';
    }): Promise<number | undefined> {
      const [row] = await sqlRows(
        db,
        { id: deviceCommands.id },
        sql`insert into device_commands (user_id, account, company_id, device_id, device_sn, gateway_sn, plant_id, op, request, idempotency_key, status)
            values (${entry.userId}, ${entry.account}, ${entry.companyId}, ${entry.deviceId}, ${entry.deviceSn}, ${entry.gatewaySn}, ${entry.plantId},
                    ${entry.op}, ${JSON.stringify(entry.request ?? null)}::jsonb, ${entry.idempotencyKey}, ${entry.status ?? 'pending'})
            on conflict (user_id, idempotency_key) do nothing returning id`,
      );
      return row ? Number(row.id) : undefined;
    },

    async finish(id: number, status: string, outcome: StoredOutcome): Promise<void> {
      await db.execute(
        sql`update device_commands set status = ${status}, result = ${JSON.stringify(outcome)}::jsonb, finished_at = now() where id = ${id}`,
      );
    },

    /** An upgrade's progress while it runs (kept on the command until its final reply). */
    async progress(id: number, percent: number): Promise<void> {
      await db.execute(
        sql`update device_commands set result = jsonb_build_object('progress', ${percent}::int, 'heardAt', now()) where id = ${id} and status = 'pending'`,
      );
    },

    /** The device's latest upgrade command, whoever sent it. */
    async latestUpgrade(deviceSn: string) {
      const [row] = await sqlRows(
        db,
        {
          id: deviceCommands.id,
          status: deviceCommands.status,
          result: nullable(computed.json<StoredOutcome & { progress?: number }>()),
          request: nullable(computed.json<{ version?: string }>()),
          at: deviceCommands.at,
        },
        sql`select id, status, result, request, at from device_commands where device_sn = ${deviceSn} and op = 'upgrade' order by id desc limit 1`,
      );
      return row;
    },

    /**
     * Gateway upgrades waiting for their gateway, now that it is online (oldest first). Kept in the
     * database, so a restarted server still sends them.
     */
    async queuedForOnlineGateways(limit: number) {
      const rows = await sqlRows(
        db,
        {
          id: deviceCommands.id,
          gateway_sn: computed.text,
          request: nullable(computed.json<{ firmId?: number }>()),
          user_id: deviceCommands.userId,
        },
        sql`select c.id, c.gateway_sn, c.request, c.user_id from device_commands c join gateways g on g.sn = c.gateway_sn
            where c.status = 'queued' and g.online
              -- Settled: a gateway subscribes to its commands just after connecting; a report since then (or a few
              -- seconds online) shows it listens, so the upgrade is not published into the gap.
              and (g.last_online_at < now() - interval '5 seconds'
                   or g.last_report_at > g.last_online_at)
            order by c.id limit ${limit}`,
      );
      return rows.map((r) => ({ id: Number(r.id), gatewaySn: r.gateway_sn, firmId: Number(r.request?.firmId ?? 0), userId: r.user_id }));
    },

    /** Takes a queued command for sending; false when another pass (or server) took it first. */
    async claimQueued(id: number): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { id: deviceCommands.id },
        sql`update device_commands set status = 'pending', at = now() where id = ${id} and status = 'queued' returning id`,
      );
      return rows.length > 0;
    },

    /**
     * Pending commands no process waits for (sent by a server that has since stopped) and that heard
     * nothing for `silentMs`: ended as timed out, so no item or upgrade stays "under way" for ever.
     */
    async expireOrphans(waitedFor: readonly number[], silentMs: number, message: string): Promise<void> {
      const outcome = JSON.stringify({ code: 1, hex: null, values: null, message });
      await db.execute(
        sql`update device_commands set status = 'timeout', finished_at = now(), result = coalesce(result, '{}'::jsonb) || ${outcome}::jsonb
            where status = 'pending' and not (id = any(${sql.param([...waitedFor])}::int[]))
              and greatest(at, late_reply_at, (result->>'heardAt')::timestamptz) < now() - make_interval(secs => ${silentMs / 1000})`,
      );
    },

    /** Whether an upgrade of this device or gateway is waiting or under way. */
    async openUpgrade(deviceSn: string): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { id: deviceCommands.id },
        sql`select id from device_commands where device_sn = ${deviceSn} and op = 'upgrade' and status in ('pending', 'queued') limit 1`,
      );
      return rows.length > 0;
    },

    /**
     * A reply heard by a process that did not send the command, kept for its sender while the command is
     * pending: a final reply in `result.relayed`, progress as the command's progress; false when not pending.
     */
    async holdForSender(id: number, reply: ReplyPayload): Promise<boolean> {
      const kept =
        reply.status === 'progress'
          ? sql`jsonb_build_object('progress', ${Math.round(reply.progress ?? 0)}::int, 'heardAt', now())`
          : sql`jsonb_build_object('relayed', ${JSON.stringify(reply)}::jsonb, 'heardAt', now())`;
      const rows = await sqlRows(
        db,
        { id: deviceCommands.id },
        sql`update device_commands set result = coalesce(result, '{}'::jsonb) || ${kept}
            where id = ${id} and status = 'pending' returning id`,
      );
      return rows.length > 0;
    },

    /** The final reply kept for the sender of a still-pending command. */
    async heldReply(id: number): Promise<ReplyPayload | undefined> {
      const [row] = await sqlRows(
        db,
        { relayed: nullable(computed.json<unknown>()) },
        sql`select result->'relayed' as relayed from device_commands where id = ${id} and status = 'pending'`,
      );
      const parsed = ReplyPayloadSchema.safeParse(row?.relayed);
      return parsed.success ? parsed.data : undefined;
    },

    /** A reply that came after the timeout: kept beside the timeout, not lost. */
    async recordLate(id: number, reply: { status: string; error?: string; message?: string; progress?: number }): Promise<void> {
      // A command still pending (its server restarted while it ran, e.g. an upgrade) is finished by it.
      const final = reply.status === 'ok' ? 'ok' : reply.status === 'error' ? 'error' : null;
      const outcome = {
        code: reply.status === 'ok' ? 0 : 1,
        hex: null,
        values: null,
        message: reply.status === 'ok' ? null : (reply.error ?? reply.message ?? null),
      };
      if (reply.status === 'progress' && reply.progress !== undefined)
        await db.execute(
          sql`update device_commands set result = coalesce(result, '{}'::jsonb) || jsonb_build_object('progress', ${Math.round(reply.progress)}::int, 'heardAt', now())
              where id = ${id} and status = 'pending'`,
        );
      if (final)
        await db.execute(
          sql`update device_commands set status = ${final}, result = ${JSON.stringify(outcome)}::jsonb, finished_at = now()
              where id = ${id} and status = 'pending'`,
        );
      await db.execute(
        sql`update device_commands set late_reply_at = now(), result = coalesce(result, '{}'::jsonb) || jsonb_build_object('lateReply', ${JSON.stringify(reply)}::jsonb)
            where id = ${id}`,
      );
    },

    /** Devices the company (or, without one, the user) commanded in the last minute. */
    async devicesCommandedLastMinute(companyId: number | null, userId: number): Promise<Set<string>> {
      const who = companyId === null ? sql`user_id = ${userId} and company_id is null` : sql`company_id = ${companyId}`;
      const rows = await sqlRows(
        db,
        { device_sn: deviceCommands.deviceSn },
        sql`select distinct device_sn from device_commands where ${who} and at > now() - interval '1 minute' and status <> 'refused'`,
      );
      return new Set(rows.map((r) => r.device_sn));
    },

    async capOf(companyId: number | null, fallback: number): Promise<number> {
      if (companyId === null) return fallback;
      const [row] = await sqlRows(
        db,
        { cap: companies.commandCapPerMinute },
        sql`select command_cap_per_minute as cap from companies where id = ${companyId}`,
      );
      return row ? Number(row.cap) : fallback;
    },

    async passwordHash(userId: number): Promise<string | undefined> {
      const [row] = await sqlRows(db, { password_hash: users.passwordHash }, sql`select password_hash from users where id = ${userId}`);
      return row?.password_hash;
    },

    async page(filter: CommandLogFilter, page: number, size: number) {
      const parts = [
        // A company sees the commands given in its subtree of the channel hierarchy (issue 24).
        filter.all
          ? sql`true`
          : filter.companyId === null
            ? sql`user_id = ${filter.userId}`
            : inCompanySubtree(sql`company_id`, filter.companyId),
        filter.sn ? sql`device_sn = ${filter.sn}` : sql`true`,
        filter.op ? sql`op = any(${sql.param(filter.op.split(','))}::text[])` : sql`true`,
        filter.status ? sql`status = any(${sql.param(filter.status.split(','))}::text[])` : sql`true`,
        filter.from ? sql`at >= ${filter.from}` : sql`true`,
        filter.to ? sql`at < ${filter.to}` : sql`true`,
      ];
      const where = sql.join(parts, sql` and `);
      const [rows, total] = await Promise.all([
        sqlRows(
          db,
          {
            id: deviceCommands.id,
            at: deviceCommands.at,
            account: deviceCommands.account,
            device_sn: deviceCommands.deviceSn,
            op: deviceCommands.op,
            request: deviceCommands.request,
            status: deviceCommands.status,
            result: deviceCommands.result,
            finished_at: deviceCommands.finishedAt,
            late_reply_at: deviceCommands.lateReplyAt,
          },
          sql`select id, at, account, device_sn, op, request, status, result, finished_at, late_reply_at from device_commands
              where ${where} order by at desc, id desc limit ${size} offset ${(page - 1) * size}`,
        ),
        sqlRows(db, { n: computed.number }, sql`select count(*)::int as n from device_commands where ${where}`),
      ]);
      return {
        infos: rows.map((r) => ({
          id: r.id,
          at: r.at.toISOString(),
          account: r.account,
          deviceSn: r.device_sn,
          op: r.op,
          request: r.request,
          status: r.status,
          result: r.result,
          finishedAt: r.finished_at?.toISOString() ?? null,
          lateReplyAt: r.late_reply_at?.toISOString() ?? null,
        })),
        total: total[0]?.n ?? 0,
      };
    },
  };
}

export type CommandsRepository = ReturnType<typeof createCommandsRepository>;
