import { Code } from '@sunward/contracts/codes';
import { DEVICE_KIND_INFO, DEVICE_KINDS, kindOfFamily } from '@sunward/contracts/devices';
import {
  boundInstant,
  EVENT_LIMITS,
  type EventCounts,
  EventExportQuerySchema,
  type EventFilter,
  type EventPage,
  type EventRow,
} from '@sunward/contracts/events';
import type { DownloadRecord } from '@sunward/contracts/files';
import type { Language } from '@sunward/contracts/languages';
import { ApiError } from '../../lib/envelope.js';
import { authFromSnapshot, callerJob, parseCallerJob } from '../../lib/job-params.js';
import { writeTableInBatches } from '../../lib/table-file.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { DownloadCentre } from '../files/files.service.js';
import { eventsDescribedBy, eventText } from './event-text.js';
import type { EventQueryFilter, EventRecord, EventsRepository } from './events.repository.js';
import { eventCells, eventColumns } from './events-export.js';

const DAY_MS = 86_400_000;

/** A family filter names device kinds (inverter: string, hybrid and micro) or stored families. */
export function familiesOf(names: readonly string[]): string[] {
  return [
    ...new Set(
      names.flatMap((name) => {
        const kind = DEVICE_KINDS.find((k) => k === name);
        return kind ? DEVICE_KIND_INFO[kind].families : [name];
      }),
    ),
  ];
}

/** The filters as SQL takes them: a closed period (by default the last 7 days up to now). */
export function resolveFilter(q: EventFilter, now = Date.now()): EventQueryFilter {
  const to = q.to ? boundInstant(q.to, 'to') : now;
  const from = q.from ? boundInstant(q.from, 'from') : to - EVENT_LIMITS.defaultDays * DAY_MS;
  return {
    from: new Date(from),
    to: new Date(to),
    levels: q.level,
    status: q.status,
    deviceSn: q.deviceSn || undefined,
    plantId: q.plantId,
    families: q.family ? familiesOf(q.family) : undefined,
    keyword: q.keyword || undefined,
    describedBy: q.keyword ? eventsDescribedBy(q.keyword) : undefined,
  };
}

/** A stored event as the console shows it, with the map's texts in the caller's language. */
export function presentEvent(r: EventRecord, language: Language): EventRow {
  return {
    id: r.id,
    code: r.code,
    level: r.level,
    type: kindOfFamily(r.family) ?? r.family,
    deviceId: r.deviceId,
    deviceSn: r.deviceSn,
    deviceAlias: r.deviceAlias,
    family: r.family,
    plantId: r.plantId,
    plantName: r.plantName,
    openedAt: r.openedAt.toISOString(),
    clearedAt: r.clearedAt?.toISOString() ?? null,
    status: r.clearedAt === null ? 'active' : 'cleared',
    ...eventText(r.protocolId, r.code, language),
  };
}

/** Rows an export job reads per query. */
const EXPORT_BATCH = 5000;

export function createEventsService(deps: { repository: EventsRepository; downloads?: DownloadCentre }) {
  const { repository, downloads } = deps;

  /**
   * The export as a download-centre job kind: no row cap, read in keyset batches and written row by row, so
   * memory stays flat however many events match; one under way when the server stops runs again after.
   * The period is resolved at the moment it was asked for, so a resumed export holds the same events.
   */
  const startExport = downloads?.registerJob('events', parseCallerJob, ({ auth: snapshot, at, query }, owner) => {
    const q = EventExportQuerySchema.parse(query);
    const auth = authFromSnapshot(snapshot, 'events');
    const filter = resolveFilter(q, at);
    const language = owner.language;
    return async (job) => {
      const now = Date.now();
      return writeTableInBatches({
        file: job.file,
        format: q.format,
        columns: eventColumns(language),
        sheetName: 'Events',
        total: await repository.count(auth, filter),
        batchSize: EXPORT_BATCH,
        next: (cursor: { openedAt: string; id: number } | null) => repository.batch(auth, filter, cursor, EXPORT_BATCH),
        cells: (r) => eventCells(presentEvent(r, language), language, now),
        progress: job.progress,
      });
    };
  });

  return {
    async list(auth: AuthContext, q: EventFilter & { page: number; size: number }, language: Language): Promise<EventPage> {
      const { records, total } = await repository.page(auth, resolveFilter(q), q.page, q.size);
      return { infos: records.map((r) => presentEvent(r, language)), total };
    },

    async counts(auth: AuthContext, q: EventFilter): Promise<EventCounts> {
      const rows = await repository.counts(auth, resolveFilter(q));
      const activeOf = (level: string) => rows.find((r) => r.level === level)?.active ?? 0;
      return {
        active: { fault: activeOf('fault'), warning: activeOf('warning'), protect: activeOf('protect') },
        activeTotal: rows.reduce((n, r) => n + r.active, 0),
        total: rows.reduce((n, r) => n + r.total, 0),
      };
    },

    /** Rows of an export; refused with 706 beyond 20,000 so the user narrows the filters. */
    async exportRows(auth: AuthContext, q: EventFilter, language: Language): Promise<EventRow[]> {
      const filter = resolveFilter(q);
      const rows = await repository.all(auth, filter, EVENT_LIMITS.exportRowsMax);
      if (rows === 'tooMany')
        throw new ApiError(Code.TOO_MANY_RECORDS, { count: await repository.count(auth, filter), max: EVENT_LIMITS.exportRowsMax });
      return rows.map((r) => presentEvent(r, language));
    },

    /** The export as a background job in the caller's download centre (issue 21); answers its record at once. */
    async exportInBackground(auth: AuthContext, q: EventFilter & { format: 'csv' | 'xlsx' }, language: Language): Promise<DownloadRecord> {
      if (!startExport) throw new Error('the download centre is not configured');
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
      // Stored as the route received it (lists joined again), so the schema reads it back the same way.
      const query = { ...q, level: q.level?.join(','), family: q.family?.join(',') };
      return startExport(
        { userId: auth.userId, companyId: auth.companyId, language },
        { fileName: `events-${stamp}.${q.format}`, format: q.format },
        callerJob(auth, query),
      );
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
