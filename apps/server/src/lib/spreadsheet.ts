import { read, set_cptable, utils, type WorkBook } from '@e965/xlsx';
import * as codepages from '@e965/xlsx/dist/cpexcel.full.mjs';

/*
 * Reading the spreadsheets users upload (predicted generation, gateway lists): .xlsx and the legacy
 * .xls that older tools and portals still export. One reader for both so every import accepts the
 * same files. SheetJS CE 0.20.3 (the fixed release, republished on npm as @e965/xlsx) parses them;
 * files are sniffed by content first and the row count is bounded so a crafted file cannot blow up.
 */

// Legacy .xls stores text in the author's code page (GBK for Chinese, 1252 for Western Europe...).
set_cptable(codepages);

export type WorkbookKind = 'xlsx' | 'xls' | undefined;

/** .xlsx is a zip (PK\x03\x04); .xls is an OLE2 compound file (D0 CF 11 E0). */
export function sniffWorkbook(bytes: Uint8Array): WorkbookKind {
  if (bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'xlsx';
  if (bytes.length > 8 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) return 'xls';
  return undefined;
}

export type SheetCell = string | number | boolean | Date | null;

/** A non-empty row of the first sheet, numbered as the user sees it in the spreadsheet (1-based). */
export interface SheetRow {
  row: number;
  cells: SheetCell[];
}

export type SheetReadResult = { ok: true; rows: SheetRow[] } | { ok: false; problem: 'unreadable' | 'tooManyRows' };

/**
 * The first sheet's non-empty rows. Dates come back as Date (the workbook's date cells), numbers as
 * numbers, text trimmed. More than `maxRows` rows (counting blanks) is refused rather than read.
 */
export function readFirstSheet(bytes: Uint8Array, maxRows: number): SheetReadResult {
  if (!sniffWorkbook(bytes)) return { ok: false, problem: 'unreadable' };
  let workbook: WorkBook;
  try {
    workbook = read(bytes, { type: 'buffer', cellDates: true, sheetRows: maxRows + 2, cellFormula: false, cellHTML: false });
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
  const name = workbook.SheetNames[0];
  const sheet = name === undefined ? undefined : workbook.Sheets[name];
  if (!sheet?.['!ref']) return { ok: true, rows: [] };
  const range = utils.decode_range(sheet['!ref']);
  // With sheetRows the parser stops early and keeps the real extent in !fullref.
  if (utils.decode_range(sheet['!fullref'] ?? sheet['!ref']).e.r + 1 > maxRows + 1) return { ok: false, problem: 'tooManyRows' };
  const grid = utils.sheet_to_json<SheetCell[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true });
  const rows: SheetRow[] = [];
  grid.forEach((cells, i) => {
    const clean = cells.map((c) => (typeof c === 'string' ? c.trim() : c instanceof Date && Number.isNaN(c.getTime()) ? null : c));
    if (clean.some((c) => c !== null && c !== '')) rows.push({ row: range.s.r + i + 1, cells: clean });
  });
  return { ok: true, rows };
}
