import type { CommandLogRowSchema } from '@sunward/contracts/commands';
import type { DownloadRecord } from '@sunward/contracts/files';
import type { Language } from '@sunward/contracts/languages';
import {
  type CommandLogExport,
  CommandLogExportSchema,
  type ConnectionLogExport,
  ConnectionLogExportSchema,
  type ConnectionLogPage,
  type ConnectionLogQuery,
  type ConnectionLogRow,
  type MaintenanceLogExport,
  MaintenanceLogExportSchema,
  type MaintenanceLogPage,
  type MaintenanceLogQuery,
  type MaintenanceLogRow,
} from '@sunward/contracts/logs';
import { isMessageKey, type MessageKey, translate } from '@sunward/contracts/messages';
import type { z } from 'zod';
import { authFromSnapshot, callerJob, parseCallerJob } from '../../lib/job-params.js';
import { type Cell, type KeysetCursor, writeTableInBatches } from '../../lib/table-file.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { DownloadCentre, ExportJobWork } from '../files/files.service.js';
import type { ConnectionFilter, ConnectionRecord, LogsRepository, MaintenanceFilter, MaintenanceRecord } from './logs.repository.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const EXPORT_BATCH = 5000;

/** A bound as an instant: a day is a UTC day (`from` its start, `to` its end). */
export function boundDate(value: string | undefined, side: 'from' | 'to'): Date | undefined {
  if (!value) return undefined;
  if (!DAY.test(value)) return new Date(value);
  const start = Date.parse(`${value}T00:00:00Z`);
  return new Date(side === 'from' ? start : start + 86_400_000);
}

const connectionFilter = (q: { sn?: string; kind?: string; from?: string; to?: string }): ConnectionFilter => ({
  sn: q.sn || undefined,
  kind: q.kind,
  from: boundDate(q.from, 'from'),
  to: boundDate(q.to, 'to'),
});
const maintenanceFilter = (q: MaintenanceLogExport | MaintenanceLogQuery): MaintenanceFilter => ({
  account: q.account || undefined,
  target: q.target || undefined,
  action: q.action || undefined,
  result: q.result,
  from: boundDate(q.from, 'from'),
  to: boundDate(q.to, 'to'),
});

export const presentConnection = (r: ConnectionRecord): ConnectionLogRow => ({
  ...r,
  at: r.at.toISOString(),
  kind: r.kind as ConnectionLogRow['kind'],
});
export const presentMaintenance = (r: MaintenanceRecord): MaintenanceLogRow => ({ ...r, at: r.at.toISOString() });

const utc = (d: Date) => `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}`;
const header = (language: Language, key: MessageKey, width: number) => ({ header: translate(language, key), width });
const word = (language: Language, key: string, fallback: string) => (isMessageKey(key) ? translate(language, key) : fallback);

/** The logger family (issue 21): communication history and maintenance log, pages and background exports. */
type CommandLogRow = z.infer<typeof CommandLogRowSchema>;

/** One page of the command audit as the caller sees it (commands.service.ts commandLogScope), passed in by app.ts. */
export type CommandLogReader = (
  auth: AuthContext,
  filters: Omit<CommandLogExport, 'format'>,
  page: number,
  size: number,
) => Promise<{ infos: CommandLogRow[]; total: number }>;

/** What a command asked or answered, in a cell. */
const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value).slice(0, 2000));

export function createLogsService(deps: { repository: LogsRepository; downloads: DownloadCentre; commandLog?: CommandLogReader }) {
  const { repository, downloads } = deps;
  const stamp = () => new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');

  interface LogTable<R, C> {
    sheetName: string;
    columns: readonly (readonly [MessageKey, number])[];
    total: () => Promise<number>;
    next: (cursor: KeysetCursor<C>) => Promise<{ records: readonly R[]; cursor: KeysetCursor<C> }>;
    cells: (row: R) => readonly Cell[];
  }

  /** A log as a file: translated headers, read and written EXPORT_BATCH rows at a time. */
  function logWork<R, C>(language: Language, format: 'csv' | 'xlsx', table: LogTable<R, C>): ExportJobWork {
    return async (job) =>
      writeTableInBatches({
        file: job.file,
        format,
        progress: job.progress,
        batchSize: EXPORT_BATCH,
        columns: table.columns.map(([key, width]) => header(language, key, width)),
        sheetName: table.sheetName,
        total: await table.total(),
        next: table.next,
        cells: table.cells,
      });
  }

  /** The command audit under the page's filters, in pages of EXPORT_BATCH (a cursor is the next page). */
  function commandTable(auth: AuthContext, q: CommandLogExport): LogTable<CommandLogRow, number> {
    const read = deps.commandLog;
    if (!read) throw new Error('the command log is not configured');
    const { format: _, ...filters } = q;
    return {
      sheetName: 'Commands',
      columns: [
        ['logs.col.at', 20],
        ['logs.col.account', 24],
        ['logs.col.target', 20],
        ['logs.col.action', 18],
        ['logs.col.result', 10],
        ['logs.col.detail', 60],
      ],
      total: async () => (await read(auth, filters, 1, 1)).total,
      next: async (page: number | null) => {
        const at = page ?? 1;
        const { infos } = await read(auth, filters, at, EXPORT_BATCH);
        return { records: infos, cursor: at + 1 };
      },
      cells: (r) => [utc(new Date(r.at)), r.account, r.deviceSn, r.op, r.status, json({ request: r.request, result: r.result })],
    };
  }

  function connectionTable(
    auth: AuthContext,
    q: ConnectionLogExport,
    language: Language,
  ): LogTable<ConnectionRecord, { at: string; id: number }> {
    const filter = connectionFilter(q);
    return {
      sheetName: 'Communication',
      columns: [
        ['logs.col.at', 20],
        ['logs.col.gatewaySn', 18],
        ['logs.col.kind', 16],
        ['logs.col.address', 18],
        ['logs.col.reason', 40],
        ['logs.col.session', 12],
        ['logs.col.count', 10],
      ],
      total: () => repository.connectionCount(auth, filter),
      next: (cursor) => repository.connectionBatch(auth, filter, cursor, EXPORT_BATCH),
      cells: (r) => [utc(r.at), r.gatewaySn, word(language, `logs.kind.${r.kind}`, r.kind), r.address, r.reason, r.sessionSeconds, r.count],
    };
  }

  function maintenanceTable(auth: AuthContext, q: MaintenanceLogExport): LogTable<MaintenanceRecord, { at: string; id: number }> {
    const filter = maintenanceFilter(q);
    return {
      sheetName: 'Maintenance',
      columns: [
        ['logs.col.at', 20],
        ['logs.col.account', 24],
        ['logs.col.action', 20],
        ['logs.col.targetType', 10],
        ['logs.col.target', 20],
        ['logs.col.result', 10],
        ['logs.col.detail', 40],
      ],
      total: () => repository.maintenanceCount(auth, filter),
      next: (cursor) => repository.maintenanceBatch(auth, filter, cursor, EXPORT_BATCH),
      cells: (r) => [utc(r.at), r.account, r.action, r.targetType, r.target, r.result, r.detail],
    };
  }

  // Each log's export is a job kind of the download centre: one under way when the server stops runs again after.
  const startCommands = downloads.registerJob('command-log', parseCallerJob, ({ auth, query }, owner) => {
    const q = CommandLogExportSchema.parse(query);
    return logWork(owner.language, q.format, commandTable(authFromSnapshot(auth, 'command-log'), q));
  });
  const startConnections = downloads.registerJob('connection-log', parseCallerJob, ({ auth, query }, owner) => {
    const q = ConnectionLogExportSchema.parse(query);
    return logWork(owner.language, q.format, connectionTable(authFromSnapshot(auth, 'connection-log'), q, owner.language));
  });
  const startMaintenance = downloads.registerJob('operation-log', parseCallerJob, ({ auth, query }, owner) => {
    const q = MaintenanceLogExportSchema.parse(query);
    return logWork(owner.language, q.format, maintenanceTable(authFromSnapshot(auth, 'operation-log'), q));
  });
  const ownerOf = (auth: AuthContext, language: Language) => ({ userId: auth.userId, companyId: auth.companyId, language });

  return {
    /** The command audit under the page's filters, prepared in the caller's download centre. */
    exportCommands(auth: AuthContext, q: CommandLogExport, language: Language): Promise<DownloadRecord> {
      if (!deps.commandLog) throw new Error('the command log is not configured');
      return startCommands(
        ownerOf(auth, language),
        { fileName: `command-log-${stamp()}.${q.format}`, format: q.format },
        callerJob(auth, q),
      );
    },

    async connections(auth: AuthContext, q: ConnectionLogQuery): Promise<ConnectionLogPage> {
      const { records, total } = await repository.connections(auth, connectionFilter(q), q.page, q.size);
      return { infos: records.map(presentConnection), total };
    },

    async maintenance(auth: AuthContext, q: MaintenanceLogQuery): Promise<MaintenanceLogPage> {
      const { records, total } = await repository.maintenance(auth, maintenanceFilter(q), q.page, q.size);
      return { infos: records.map(presentMaintenance), total };
    },

    exportConnections(auth: AuthContext, q: ConnectionLogExport, language: Language): Promise<DownloadRecord> {
      return startConnections(
        ownerOf(auth, language),
        { fileName: `communication-log-${stamp()}.${q.format}`, format: q.format },
        callerJob(auth, q),
      );
    },

    exportMaintenance(auth: AuthContext, q: MaintenanceLogExport, language: Language): Promise<DownloadRecord> {
      return startMaintenance(
        ownerOf(auth, language),
        { fileName: `maintenance-log-${stamp()}.${q.format}`, format: q.format },
        callerJob(auth, q),
      );
    },
  };
}

export type LogsService = ReturnType<typeof createLogsService>;
