import type { EventRow } from '@sunward/contracts/events';
import type { Language } from '@sunward/contracts/languages';
import { isMessageKey, type MessageKey, translate } from '@sunward/contracts/messages';
import ExcelJS from 'exceljs';

/*
 * The event list as a file: the columns the list shows, headers, levels, families and statuses in the
 * caller's language, times in UTC (the file is read in many zones). CSV starts with a UTF-8 byte order
 * mark so Excel reads Chinese descriptions correctly.
 */

const COLUMNS = [
  { key: 'level', header: 'events.col.level', width: 10 },
  { key: 'code', header: 'events.col.code', width: 10 },
  { key: 'deviceSn', header: 'events.col.deviceSn', width: 20 },
  { key: 'alias', header: 'events.col.alias', width: 18 },
  { key: 'family', header: 'events.col.family', width: 18 },
  { key: 'plant', header: 'events.col.plant', width: 24 },
  { key: 'opened', header: 'events.col.opened', width: 20 },
  { key: 'cleared', header: 'events.col.cleared', width: 20 },
  { key: 'duration', header: 'events.col.duration', width: 14 },
  { key: 'status', header: 'events.col.status', width: 12 },
  { key: 'description', header: 'events.col.description', width: 36 },
  { key: 'solution', header: 'events.col.solution', width: 60 },
] as const satisfies readonly { key: string; header: MessageKey; width: number }[];

type Cells = Record<(typeof COLUMNS)[number]['key'], string | number | null>;

const utc = (iso: string | null) => (iso === null ? null : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`);

/** Whole minutes from opening to clearing (or to `now` while still open). */
export function durationMinutes(openedAt: string, clearedAt: string | null, now: number): number {
  return Math.max(0, Math.floor(((clearedAt === null ? now : Date.parse(clearedAt)) - Date.parse(openedAt)) / 60_000));
}

function cellsOf(r: EventRow, language: Language, now: number): Cells {
  const t = (key: string, fallback: string) => (isMessageKey(key) ? translate(language, key) : fallback);
  return {
    level: t(`status.${r.level}`, r.level),
    code: r.code,
    deviceSn: r.deviceSn,
    alias: r.deviceAlias,
    family: t(`events.family.${r.family}`, r.family),
    plant: r.plantName,
    opened: utc(r.openedAt),
    cleared: utc(r.clearedAt),
    duration: durationMinutes(r.openedAt, r.clearedAt, now),
    status: translate(language, r.status === 'active' ? 'events.status.active' : 'events.status.cleared'),
    description: r.description,
    solution: r.solution,
  };
}

/** One CSV field (RFC 4180): quoted when it holds a separator, quote or line break. */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  // A leading = + - @ would be run as a formula by spreadsheet programs.
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function eventsCsv(rows: readonly EventRow[], language: Language, now = Date.now()): Buffer {
  const lines = [COLUMNS.map((c) => csvField(translate(language, c.header))).join(',')];
  for (const r of rows) {
    const cells = cellsOf(r, language, now);
    lines.push(COLUMNS.map((c) => csvField(cells[c.key])).join(','));
  }
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

export async function eventsWorkbook(rows: readonly EventRow[], language: Language, now = Date.now()): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sunward';
  const sheet = workbook.addWorksheet('Events');
  sheet.columns = COLUMNS.map((c) => ({ header: translate(language, c.header), key: c.key, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  for (const r of rows) sheet.addRow(cellsOf(r, language, now));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The export's header row in the caller's language, for files written row by row (lib/table-file.ts). */
export function eventColumns(language: Language): { header: string; width: number }[] {
  return COLUMNS.map((c) => ({ header: translate(language, c.header), width: c.width }));
}

/** One event as the export's cells, in the columns' order. */
export function eventCells(r: EventRow, language: Language, now: number): (string | number | null)[] {
  const cells = cellsOf(r, language, now);
  return COLUMNS.map((c) => cells[c.key]);
}
