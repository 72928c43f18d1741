import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Code } from '@sunward/contracts/codes';
import {
  type DownloadFormat,
  type DownloadRecord,
  type DownloadRecordListQuery,
  type DownloadRecordPage,
  FILE_LIMITS,
} from '@sunward/contracts/files';
import { isLanguage, type Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../lib/envelope.js';
import type { JobParams } from '../../lib/job-params.js';
import type { DownloadRow, FilesRepository } from './files.repository.js';

/*
 * The download centre (issue 21): files prepared in the background and kept for a set number of days.
 * Any feature hands it a job (`runExportJob`) or a finished file (`storeFile`) and answers the record;
 * the job writes its file to the path it is given, reports progress, and the user is told in the
 * notification centre when it is done. Jobs run in this process, at most `maxRunning` at once (the
 * rest wait in order). A job of a registered kind (`registerJob`) keeps its parameters in its record, so
 * one queued or running when the server stops is run again from the start when it is back; any other
 * is failed with a note. A file is written beside its final name and published only when complete.
 */

/** Who a file is for: only this user lists, downloads or deletes it. */
export interface ExportOwner {
  userId: number;
  companyId: number | null;
  /** The language of the notification (and of the file's texts, for the job itself). */
  language: Language;
}

export interface ExportJobMeta {
  /** What made it: events, operation-log, connection-log, report… */
  kind: string;
  /** The name the browser saves under (its extension is the format's). */
  fileName: string;
  format: DownloadFormat;
}

export interface ExportJobContext {
  /** Absolute path the job writes its file to (the directory exists). */
  file: string;
  /** Rows done of total; saved at most twice a second. Throws once the server is closing (the job stops). */
  progress(done: number, total: number): void;
  signal: AbortSignal;
}

/** The work of a job: write `ctx.file`, answer how many rows it holds (null when rows mean nothing, e.g. a PDF). */
export type ExportJobWork = (ctx: ExportJobContext) => Promise<{ rows: number | null }>;

/** Starts a job of a registered kind with its parameters; answers the record at once. */
export type StartJob<P> = (owner: ExportOwner, file: { fileName: string; format: DownloadFormat }, params: P) => Promise<DownloadRecord>;

/** What a resumable job's record keeps: the owner's language and the parameters its kind is made from. */
interface StoredJob {
  language: Language;
  params: unknown;
}

const storedJob = (value: unknown): StoredJob | undefined => {
  if (!value || typeof value !== 'object' || !('language' in value) || !('params' in value)) return undefined;
  const { language, params } = value;
  return typeof language === 'string' && isLanguage(language) ? { language, params } : undefined;
};

export interface DownloadCentreDeps {
  repository: FilesRepository;
  dataDir: string;
  retentionDays: number;
  /** A message in the owner's notification centre. */
  notify: (message: { userId: number; title: string; content: string }) => Promise<void>;
  log: FastifyBaseLogger;
  maxRunning?: number;
  now?: () => Date;
}

const DAY_MS = 86_400_000;
const PARKED_GRACE_MS = 60_000;
/** Expired records stay listed (marked expired) this long after their file is removed. */
const EXPIRED_KEPT_DAYS = 30;

export function presentRecord(r: DownloadRow): DownloadRecord {
  return {
    id: r.id,
    kind: r.kind,
    fileName: r.fileName,
    format: r.format,
    status: r.status as DownloadRecord['status'],
    progress: r.progress,
    rows: r.rows,
    sizeBytes: r.sizeBytes,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
  };
}

const utcMinute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** A file name with nothing a file system or a header refuses. */
export function safeFileName(name: string): string {
  return name.replace(/[\\/:*?"<>|\r\n\t]+/g, '_').slice(0, 120) || 'export';
}

export function createDownloadCentre(deps: DownloadCentreDeps) {
  const { repository, log } = deps;
  const root = join(deps.dataDir, 'downloads');
  const now = deps.now ?? (() => new Date());
  const maxRunning = deps.maxRunning ?? 2;
  const waiting: { row: DownloadRow; owner: ExportOwner; work: ExportJobWork }[] = [];
  /** Job kinds that can be made again from their stored parameters: kind -> the work for (params, owner). */
  const kinds = new Map<string, (params: unknown, owner: ExportOwner) => ExportJobWork>();
  /**
   * Unfinished records found at start whose kind registers later (a feature made after the centre, whose
   * own ready hook runs after recover()); failed if still unclaimed after PARKED_GRACE_MS.
   */
  const parked = new Map<number, DownloadRow>();
  let parkedTimer: NodeJS.Timeout | undefined;
  const running = new Map<number, { abort: AbortController; done: Promise<void> }>();
  let closing = false;

  const expiry = (from: Date) => new Date(from.getTime() + deps.retentionDays * DAY_MS);
  const pathOf = (row: DownloadRow) => join(root, String(row.userId), `${row.id}.${row.format}`);
  /** Where a job writes until it is done: a download never sees a half-written file under the final name. */
  const partOf = (row: DownloadRow) => `${pathOf(row)}.part`;

  async function notify(owner: ExportOwner, key: 'ready' | 'failed', vars: Record<string, string | number>) {
    try {
      await deps.notify({
        userId: owner.userId,
        title: translate(owner.language, `download.${key}.title`),
        content: translate(owner.language, `download.${key}.content`, vars),
      });
    } catch (error) {
      log.warn({ err: error }, 'download centre message not sent');
    }
  }

  async function run(row: DownloadRow, owner: ExportOwner, work: ExportJobWork, abort: AbortController): Promise<void> {
    const file = partOf(row);
    let lastSaved = 0;
    let lastPercent = -1;
    let saving: Promise<void> = Promise.resolve();
    const ctx: ExportJobContext = {
      file,
      signal: abort.signal,
      progress(done, total) {
        if (abort.signal.aborted) throw new Error('the server is closing');
        const percent = total > 0 ? Math.min(99, Math.floor((done / total) * 100)) : 0;
        const at = Date.now();
        if (percent === lastPercent || at - lastSaved < 500) return;
        lastSaved = at;
        lastPercent = percent;
        saving = saving.then(() => repository.progress(row.id, percent, done)).catch(() => undefined);
      },
    };
    try {
      await mkdir(join(root, String(row.userId)), { recursive: true });
      await repository.start(row.id, `${row.userId}/${row.id}.${row.format}`);
      const { rows } = await work(ctx);
      await saving;
      if (abort.signal.aborted) throw new Error('the server is closing');
      await rename(file, pathOf(row));
      const size = (await stat(pathOf(row))).size;
      const finishedAt = now();
      const expiresAt = expiry(finishedAt);
      await repository.finish(row.id, { rows, sizeBytes: size, finishedAt, expiresAt });
      await notify(owner, 'ready', { fileName: row.fileName, rows: rows ?? '—', expires: utcMinute(expiresAt) });
    } catch (error) {
      await saving;
      await rm(file, { force: true }).catch(() => undefined);
      // Stopped by the server closing: a resumable job waits (queued) for the next start instead of failing.
      if (closing && row.job !== null && kinds.has(row.kind)) {
        await repository.requeue(row.id).catch(() => undefined);
        log.info({ record: row.id, kind: row.kind }, 'background export stopped by shutdown; it runs again at the next start');
        return;
      }
      log.error({ err: error, record: row.id, kind: row.kind }, 'background export failed');
      const finishedAt = now();
      await repository
        .fail(row.id, { error: error instanceof Error ? error.message.slice(0, 300) : 'failed', finishedAt, expiresAt: expiry(finishedAt) })
        .catch(() => undefined);
      if (!abort.signal.aborted) await notify(owner, 'failed', { fileName: row.fileName });
    }
  }

  const insert = (owner: ExportOwner, meta: ExportJobMeta, job: StoredJob | null = null) =>
    repository.insert({
      userId: owner.userId,
      companyId: owner.companyId,
      kind: meta.kind,
      fileName: safeFileName(meta.fileName),
      format: meta.format,
      job,
    });

  async function start(owner: ExportOwner, meta: ExportJobMeta, work: ExportJobWork, job: StoredJob | null): Promise<DownloadRecord> {
    if ((await repository.activeCount(owner.userId)) >= FILE_LIMITS.activePerUserMax)
      throw new ApiError(Code.EXPORT_JOBS_BUSY, { max: FILE_LIMITS.activePerUserMax });
    const row = await insert(owner, meta, job);
    waiting.push({ row, owner, work });
    pump();
    return presentRecord(row);
  }

  /** Makes an unfinished record's work from its stored job and queues it again; false when it cannot be. */
  async function resume(row: DownloadRow): Promise<boolean> {
    const job = storedJob(row.job);
    const make = kinds.get(row.kind);
    if (!job || !make) return false;
    const owner = { userId: row.userId, companyId: row.companyId, language: job.language };
    let work: ExportJobWork;
    try {
      work = make(job.params, owner);
    } catch (error) {
      log.warn({ err: error, record: row.id, kind: row.kind }, 'stored export parameters no longer valid');
      return false;
    }
    const queued = await repository.requeue(row.id);
    if (queued) waiting.push({ row: queued, owner, work });
    return true;
  }

  async function failInterrupted(row: DownloadRow): Promise<void> {
    const at = now();
    await repository.fail(row.id, { error: 'interrupted by a server restart', finishedAt: at, expiresAt: expiry(at) });
  }

  function pump() {
    while (!closing && running.size < maxRunning && waiting.length > 0) {
      const next = waiting.shift();
      if (!next) break;
      const abort = new AbortController();
      const done = run(next.row, next.owner, next.work, abort).finally(() => {
        running.delete(next.row.id);
        pump();
      });
      running.set(next.row.id, { abort, done });
    }
  }

  return {
    /**
     * Starts a background job for `owner` and answers its record at once (queued or running); refused with
     * 1024 when the owner already has FILE_LIMITS.activePerUserMax under way.
     */
    runExportJob(owner: ExportOwner, meta: ExportJobMeta, work: ExportJobWork): Promise<DownloadRecord> {
      return start(owner, meta, work, null);
    },

    /**
     * A job kind that survives a restart: its parameters (plain JSON) are kept in the record and `build`
     * makes the work from them, now and again at the next start if the server stopped before it was done.
     * `parse` checks stored parameters (a record from an older version whose shape changed is failed).
     * Register every kind before the server is ready (recover() runs then).
     */
    registerJob<P extends JobParams>(
      kind: string,
      parse: (raw: unknown) => P,
      build: (params: P, owner: ExportOwner) => ExportJobWork,
    ): StartJob<P> {
      if (kinds.has(kind)) throw new Error(`job kind ${kind} registered twice`);
      kinds.set(kind, (raw, owner) => build(parse(raw), owner));
      // Records of this kind found unfinished at start, waiting for it.
      const claimed = [...parked.values()].filter((row) => row.kind === kind);
      if (claimed.length > 0)
        void (async () => {
          for (const row of claimed) {
            parked.delete(row.id);
            if (!(await resume(row))) await failInterrupted(row);
          }
          pump();
        })().catch((error: unknown) => log.error({ err: error, kind }, 'resuming background exports failed'));
      return (owner, file, params) => start(owner, { kind, ...file }, build(params, owner), { language: owner.language, params });
    },

    /** A file made elsewhere (a finished report) kept in the download centre; answers the done record. */
    async storeFile(
      owner: ExportOwner,
      meta: ExportJobMeta,
      bytes: Buffer | Uint8Array,
      rows: number | null = null,
    ): Promise<DownloadRecord> {
      const row = await insert(owner, meta);
      await mkdir(join(root, String(row.userId)), { recursive: true });
      await repository.start(row.id, `${row.userId}/${row.id}.${row.format}`);
      await writeFile(pathOf(row), bytes);
      const finishedAt = now();
      const done = await repository.finish(row.id, { rows, sizeBytes: bytes.byteLength, finishedAt, expiresAt: expiry(finishedAt) });
      return presentRecord(done ?? row);
    },

    async list(userId: number, query: DownloadRecordListQuery): Promise<DownloadRecordPage> {
      const { rows, total, active } = await repository.page(userId, query, query.page, query.size);
      return { infos: rows.map(presentRecord), total, active };
    },

    /** The caller's own records among `ids` (others' ids change nothing), with their files. */
    async remove(userId: number, ids: readonly number[]): Promise<{ deleted: number }> {
      const deleted = await repository.deleteOwn(userId, ids);
      for (const row of deleted) {
        running.get(row.id)?.abort.abort();
        const queued = waiting.findIndex((w) => w.row.id === row.id);
        if (queued >= 0) waiting.splice(queued, 1);
        await rm(pathOf(row), { force: true });
      }
      return { deleted: deleted.length };
    },

    /** The file of one of the caller's records, or the refusal that says why not. */
    async open(userId: number, id: number): Promise<{ path: string; fileName: string; format: string; sizeBytes: number }> {
      const row = await repository.byId(id);
      if (!row || row.userId !== userId) throw new ApiError(Code.DOWNLOAD_NOT_FOUND);
      if (row.status === 'expired' || (row.expiresAt && row.expiresAt <= now()))
        throw new ApiError(Code.DOWNLOAD_EXPIRED, { date: utcMinute(row.expiresAt ?? now()) });
      if (row.status === 'queued' || row.status === 'running') throw new ApiError(Code.DOWNLOAD_NOT_READY, { progress: row.progress });
      if (row.status !== 'done') throw new ApiError(Code.DOWNLOAD_FAILED);
      const path = pathOf(row);
      const size = await stat(path).then(
        (s) => s.size,
        () => undefined,
      );
      if (size === undefined) throw new ApiError(Code.DOWNLOAD_FAILED);
      return { path, fileName: row.fileName, format: row.format, sizeBytes: size };
    },

    /** Housekeeping: files past their days removed (records marked expired), long-expired records forgotten. */
    async sweep(): Promise<{ expired: number; purged: number }> {
      const at = now();
      const expired = await repository.expire(at);
      for (const row of expired) await rm(pathOf(row), { force: true });
      const purged = await repository.purge(new Date(at.getTime() - EXPIRED_KEPT_DAYS * DAY_MS));
      return { expired: expired.length, purged };
    },

    /**
     * At start: jobs a previous process left queued or running. Those of a registered kind run again from
     * the start, in the order they were asked for; the others cannot be made again and are failed. Partial
     * files go either way.
     */
    async recover(): Promise<{ resumed: number; failed: number; parked: number }> {
      let resumed = 0;
      let failed = 0;
      for (const row of await repository.unfinished()) {
        await rm(partOf(row), { force: true });
        await rm(pathOf(row), { force: true });
        if (await resume(row)) resumed++;
        else if (storedJob(row.job) && !kinds.has(row.kind)) parked.set(row.id, row);
        else {
          await failInterrupted(row);
          failed++;
        }
      }
      if (resumed > 0) log.info({ resumed }, 'background exports resumed after a restart');
      if (parked.size > 0) {
        parkedTimer = setTimeout(() => {
          for (const row of parked.values()) void failInterrupted(row).catch(() => undefined);
          parked.clear();
        }, PARKED_GRACE_MS);
        parkedTimer.unref();
      }
      pump();
      return { resumed, failed, parked: parked.size };
    },

    /**
     * Stops taking jobs; running ones are stopped at their next progress: a resumable one goes back to
     * queued (it runs again at the next start), any other is recorded as failed.
     */
    async close(): Promise<void> {
      closing = true;
      clearTimeout(parkedTimer);
      waiting.length = 0;
      for (const job of running.values()) job.abort.abort();
      await Promise.all([...running.values()].map((j) => j.done));
    },
  };
}

export type DownloadCentre = ReturnType<typeof createDownloadCentre>;
