import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import ExcelJS from 'exceljs';

/*
 * A table written to a file row by row (background exports, logs, reports): CSV through a file stream
 * that waits on the disk, .xlsx through exceljs's streaming WorkbookWriter (each row committed and
 * flushed, never a whole workbook in memory). Memory stays flat whatever the row count.
 */

export type Cell = string | number | null;

export interface TableColumn {
  header: string;
  width?: number;
}

export interface TableFileWriter {
  addRow(cells: readonly Cell[]): Promise<void>;
  /** Finishes the file; the caller stats it for the size. */
  close(): Promise<void>;
}

/** One CSV field (RFC 4180), quoted when needed; a leading = + - @ in text is defused for spreadsheet programs. */
export function csvField(value: Cell): string {
  if (value === null) return '';
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

async function csvWriter(path: string, columns: readonly TableColumn[]): Promise<TableFileWriter> {
  const out = createWriteStream(path);
  await once(out, 'open');
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  // The byte order mark makes Excel read UTF-8 (Chinese texts) correctly.
  await write(`\uFEFF${columns.map((c) => csvField(c.header)).join(',')}\r\n`);
  return {
    addRow: (cells) => write(`${cells.map(csvField).join(',')}\r\n`),
    close: async () => {
      out.end();
      await once(out, 'finish');
    },
  };
}

async function xlsxWriter(path: string, columns: readonly TableColumn[], sheetName: string): Promise<TableFileWriter> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Sunward';
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
  sheet.columns = columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width ?? 16 }));
  const head = sheet.getRow(1);
  head.font = { bold: true };
  head.commit();
  let pending = 0;
  return {
    async addRow(cells) {
      sheet.addRow([...cells]).commit();
      // Let the zip stream drain now and then so rows do not pile up in memory.
      if (++pending >= 1000) {
        pending = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
    async close() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

export function openTableFile(
  path: string,
  format: 'csv' | 'xlsx',
  columns: readonly TableColumn[],
  sheetName = 'Sheet1',
): Promise<TableFileWriter> {
  return format === 'csv' ? csvWriter(path, columns) : xlsxWriter(path, columns, sheetName);
}

/** A keyset position in a list read newest first: the row's time (full precision, as text) and id. */
export type KeysetCursor<C> = C | null;

/**
 * A whole list written to a file in batches (background exports): `next` reads the batch after a cursor
 * (keyset, so each batch costs the same however deep), `cells` turns a row into the columns' cells, and
 * `progress` hears rows done of `total` after each batch. Memory holds one batch at a time.
 */
export async function writeTableInBatches<R, C>(options: {
  file: string;
  format: 'csv' | 'xlsx';
  columns: readonly TableColumn[];
  sheetName: string;
  total: number;
  batchSize: number;
  next: (cursor: KeysetCursor<C>) => Promise<{ records: readonly R[]; cursor: KeysetCursor<C> }>;
  cells: (row: R) => readonly Cell[];
  progress: (done: number, total: number) => void;
}): Promise<{ rows: number }> {
  const out = await openTableFile(options.file, options.format, options.columns, options.sheetName);
  let done = 0;
  let cursor: KeysetCursor<C> = null;
  try {
    do {
      const batch = await options.next(cursor);
      for (const row of batch.records) await out.addRow(options.cells(row));
      done += batch.records.length;
      cursor = batch.records.length < options.batchSize ? null : batch.cursor;
      options.progress(done, Math.max(options.total, done));
    } while (cursor);
  } finally {
    await out.close();
  }
  return { rows: done };
}
