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
