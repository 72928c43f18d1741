import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code } from '@sunward/contracts/codes';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { DownloadRow, FilesRepository } from './files.repository.js';
import { createDownloadCentre, safeFileName } from './files.service.js';

/** The repository in memory: enough of its contract for the centre's own logic. */
function memoryRepository(): FilesRepository & { rows: DownloadRow[] } {
  const rows: DownloadRow[] = [];
  let nextId = 1;
  const find = (id: number) => rows.find((r) => r.id === id);
  const repository = {
    rows,
    async insert(row: { userId: number; companyId: number | null; kind: string; fileName: string; format: string; job?: unknown }) {
      const created: DownloadRow = {
        id: nextId++,
        ...row,
        status: 'queued',
        progress: 0,
        rows: null,
        sizeBytes: null,
        path: null,
        error: null,
        job: row.job ?? null,
        createdAt: new Date(),
        finishedAt: null,
        expiresAt: null,
      };
      rows.push(created);
      return created;
    },
    byId: async (id: number) => find(id),
    async start(id: number, path: string) {
      Object.assign(find(id) ?? {}, { status: 'running', path });
    },
    async progress(id: number, progress: number, done: number) {
      Object.assign(find(id) ?? {}, { progress, rows: done });
    },
    async finish(id: number, done: { rows: number | null; sizeBytes: number; finishedAt: Date; expiresAt: Date }) {
      const row = find(id);
      if (row) Object.assign(row, done, { status: 'done', progress: 100 });
      return row;
    },
    async fail(id: number, failed: { error: string; finishedAt: Date; expiresAt: Date }) {
      Object.assign(find(id) ?? {}, failed, { status: 'failed' });
    },
    unfinished: async () => rows.filter((r) => r.status === 'queued' || r.status === 'running'),
    async requeue(id: number) {
      const row = find(id);
      if (row && (row.status === 'queued' || row.status === 'running'))
        Object.assign(row, { status: 'queued', progress: 0, rows: null, path: null });
      return row;
    },
    activeCount: async (userId: number) =>
      rows.filter((r) => r.userId === userId && (r.status === 'queued' || r.status === 'running')).length,
    async page(userId: number) {
      const mine = rows.filter((r) => r.userId === userId);
      return { rows: mine, total: mine.length, active: mine.filter((r) => r.status === 'running').length };
    },
    async deleteOwn(userId: number, ids: readonly number[]) {
      const gone = rows.filter((r) => r.userId === userId && ids.includes(r.id));
      for (const r of gone) rows.splice(rows.indexOf(r), 1);
      return gone;
    },
    async expire(now: Date) {
      const due = rows.filter((r) => (r.status === 'done' || r.status === 'failed') && r.expiresAt !== null && r.expiresAt < now);
      for (const r of due) r.status = 'expired';
      return due;
    },
    async purge(before: Date) {
      const old = rows.filter((r) => r.status === 'expired' && r.expiresAt !== null && r.expiresAt < before);
      for (const r of old) rows.splice(rows.indexOf(r), 1);
      return old.length;
    },
  };
  return repository as unknown as FilesRepository & { rows: DownloadRow[] };
}

const owner = { userId: 7, companyId: 3, language: 'en' as const };
const log = pino({ level: 'silent' });

function centre(now = () => new Date()) {
  const repository = memoryRepository();
  const dataDir = mkdtempSync(join(tmpdir(), 'sunward-files-'));
  const messages: { userId: number; title: string; content: string }[] = [];
  const downloads = createDownloadCentre({
    repository,
    dataDir,
    retentionDays: 7,
    notify: async (m) => {
      messages.push(m);
    },
    log,
    maxRunning: 1,
    now,
  });
  return { repository, dataDir, messages, downloads };
}

async function settled(repository: { rows: DownloadRow[] }, id: number) {
  for (let i = 0; i < 200; i++) {
    const row = repository.rows.find((r) => r.id === id);
    if (row && (row.status === 'done' || row.status === 'failed')) return row;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('job did not settle');
}

describe('download centre', () => {
  it('runs a job, keeps its file for the retention days and tells the owner', async () => {
    const { repository, messages, downloads } = centre();
    const record = await downloads.runExportJob(owner, { kind: 'events', fileName: 'events.csv', format: 'csv' }, async (job) => {
      writeFileSync(job.file, 'a,b\r\n1,2\r\n');
      return { rows: 1 };
    });
    const done = await settled(repository, record.id);
    expect(done).toMatchObject({ status: 'done', rows: 1, sizeBytes: 10 });
    expect((done.expiresAt?.getTime() ?? 0) - (done.finishedAt?.getTime() ?? 0)).toBe(7 * 86_400_000);
    const file = await downloads.open(owner.userId, record.id);
    expect(readFileSync(file.path, 'utf8')).toContain('1,2');
    expect(messages).toEqual([{ userId: 7, title: 'Your file is ready', content: expect.stringContaining('events.csv') }]);
    await expect(downloads.open(8, record.id)).rejects.toMatchObject({ responseCode: Code.DOWNLOAD_NOT_FOUND });
  });

  it('records a failing job as failed, removes its partial file and says so', async () => {
    const { repository, messages, downloads } = centre();
    const record = await downloads.runExportJob(owner, { kind: 'events', fileName: 'broken.csv', format: 'csv' }, async (job) => {
      writeFileSync(job.file, 'partial');
      throw new Error('database gone');
    });
    const failed = await settled(repository, record.id);
    expect(failed).toMatchObject({ status: 'failed', error: 'database gone' });
    expect(existsSync(join(failed.path ?? '', ''))).toBe(false);
    expect(messages[0]?.title).toBe('Your export failed');
    await expect(downloads.open(owner.userId, record.id)).rejects.toMatchObject({ responseCode: Code.DOWNLOAD_FAILED });
  });

  it('refuses a fourth export under way and runs queued jobs in order', async () => {
    const { repository, downloads } = centre();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = async (job: { file: string }) => {
      await gate;
      writeFileSync(job.file, 'x');
      return { rows: 0 };
    };
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await downloads.runExportJob(owner, { kind: 'events', fileName: `e${i}.csv`, format: 'csv' }, slow)).id);
    // One at a time (maxRunning 1): the first starts, the others wait in order.
    await expect.poll(() => repository.rows.map((r) => r.status)).toEqual(['running', 'queued', 'queued']);
    await expect(downloads.runExportJob(owner, { kind: 'events', fileName: 'e4.csv', format: 'csv' }, slow)).rejects.toMatchObject({
      responseCode: Code.EXPORT_JOBS_BUSY,
    });
    await expect(downloads.open(owner.userId, ids[1] ?? 0)).rejects.toMatchObject({ responseCode: Code.DOWNLOAD_NOT_READY });
    release();
    for (const id of ids) expect((await settled(repository, id)).status).toBe('done');
  });

  it('removes files past their days, marks them expired and refuses their download with the date', async () => {
    let clock = new Date('2026-11-01T10:00:00Z');
    const { repository, downloads } = centre(() => clock);
    const stored = await downloads.storeFile(owner, { kind: 'report', fileName: 'report.pdf', format: 'pdf' }, Buffer.from('%PDF-1.7'));
    const { path } = await downloads.open(owner.userId, stored.id);
    clock = new Date('2026-11-09T10:00:00Z');
    expect(await downloads.sweep()).toEqual({ expired: 1, purged: 0 });
    expect(existsSync(path)).toBe(false);
    await expect(downloads.open(owner.userId, stored.id)).rejects.toMatchObject({ responseCode: Code.DOWNLOAD_EXPIRED });
    clock = new Date('2026-12-20T10:00:00Z');
    expect(await downloads.sweep()).toEqual({ expired: 0, purged: 1 });
    expect(repository.rows).toHaveLength(0);
  });

  it('fails what a previous process left under way when its kind cannot be made again', async () => {
    const { repository, dataDir, downloads } = centre();
    const row = await repository.insert({ userId: 7, companyId: 3, kind: 'events', fileName: 'x.csv', format: 'csv' });
    await repository.start(row.id, '7/1.csv');
    await mkdir(join(dataDir, 'downloads', '7'), { recursive: true });
    writeFileSync(join(dataDir, 'downloads', '7', `${row.id}.csv`), 'half');
    expect(await downloads.recover()).toEqual({ resumed: 0, failed: 1, parked: 0 });
    expect(repository.rows[0]).toMatchObject({ status: 'failed', error: 'interrupted by a server restart' });
    expect(existsSync(join(dataDir, 'downloads', '7', `${row.id}.csv`))).toBe(false);
  });

  it('runs a registered kind again from the start after a restart, in order, publishing only the finished file', async () => {
    const parse = (raw: unknown) => ({ lines: Number((raw as { lines: number }).lines) });
    const write = (params: { lines: number }) => async (job: { file: string }) => {
      expect(job.file.endsWith('.part')).toBe(true);
      writeFileSync(job.file, 'x\n'.repeat(params.lines));
      return { rows: params.lines };
    };
    // The first process: both jobs are stored, then it stops before they ran (queued and running rows remain).
    const first = centre();
    first.downloads.registerJob('lines', parse, write);
    const a = await first.repository.insert({
      userId: 7,
      companyId: 3,
      kind: 'lines',
      fileName: 'a.csv',
      format: 'csv',
      job: { language: 'de', params: { lines: 2 } },
    });
    const b = await first.repository.insert({
      userId: 7,
      companyId: 3,
      kind: 'lines',
      fileName: 'b.csv',
      format: 'csv',
      job: { language: 'de', params: { lines: 3 } },
    });
    await first.repository.start(a.id, '7/1.csv');
    // The next process, on the same records and files.
    const { repository, messages } = first;
    const downloads = createDownloadCentre({
      repository,
      dataDir: first.dataDir,
      retentionDays: 7,
      notify: async (m) => {
        messages.push(m);
      },
      log,
      maxRunning: 1,
    });
    downloads.registerJob('lines', parse, write);
    expect(await downloads.recover()).toEqual({ resumed: 2, failed: 0, parked: 0 });
    expect((await settled(repository, a.id)).rows).toBe(2);
    expect((await settled(repository, b.id)).rows).toBe(3);
    expect(readFileSync((await downloads.open(7, b.id)).path, 'utf8')).toBe('x\nx\nx\n');
    expect(messages.map((m) => m.title)).toEqual(['Ihre Datei ist fertig', 'Ihre Datei ist fertig']);
  });

  it('resumes an unfinished record whose kind registers only after the start', async () => {
    const { repository, downloads } = centre();
    const row = await repository.insert({
      userId: 7,
      companyId: 3,
      kind: 'late',
      fileName: 'l.csv',
      format: 'csv',
      job: { language: 'en', params: { n: 1 } },
    });
    expect(await downloads.recover()).toEqual({ resumed: 0, failed: 0, parked: 1 });
    downloads.registerJob(
      'late',
      (raw) => raw as { n: number },
      () => async (job) => {
        writeFileSync(job.file, 'late');
        return { rows: 1 };
      },
    );
    expect(await settled(repository, row.id)).toMatchObject({ status: 'done', rows: 1 });
    await downloads.close();
  });

  it('puts a resumable job stopped by a shutdown back in the queue with its parameters', async () => {
    const { repository, downloads } = centre();
    const slow = async (job: { file: string; progress(done: number, total: number): void }) => {
      for (;;) {
        writeFileSync(job.file, 'x');
        job.progress(1, 2);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const start = downloads.registerJob(
      'slow',
      (raw) => raw as { n: number },
      () => slow,
    );
    const resumable = await start(owner, { fileName: 'r.csv', format: 'csv' }, { n: 1 });
    await expect.poll(() => repository.rows[0]?.status).toBe('running');
    await downloads.close();
    expect(repository.rows.find((r) => r.id === resumable.id)).toMatchObject({
      status: 'queued',
      progress: 0,
      job: { language: 'en', params: { n: 1 } },
    });
  });

  it('makes file names safe for disks and headers', () => {
    expect(safeFileName('a/b:c*?"<>|\r\n.csv')).toBe('a_b_c_.csv');
    expect(safeFileName('')).toBe('export');
  });
});
