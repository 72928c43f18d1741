import { inflateRawSync } from 'node:zlib';
import { read, set_cptable, utils, type WorkBook } from '@e965/xlsx';
import * as codepages from '@e965/xlsx/dist/cpexcel.full.mjs';

/*
 * Reading the spreadsheets users upload (predicted generation, gateway lists): .xlsx and the legacy
 * .xls that older tools and portals still export. One reader for both so every import accepts the
 * same files. SheetJS CE 0.20.3 (the fixed release, republished on npm as @e965/xlsx) parses them;
 * files are sniffed by content first, an .xlsx's zip is measured before the parser sees it (what it unpacks
 * to, entry by entry, and how many cells its sheets hold) and the row count is bounded, so a crafted file
 * (a zip bomb: 210 KB that unpacks to 200 MB) is refused instead of costing the server its memory.
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

/** What an uploaded workbook may cost: unpacked size, cells in its sheets, bytes of a legacy .xls. */
export const SPREADSHEET_LIMITS = {
  unpackedBytesMax: 32 * 1024 * 1024,
  cellsMax: 200_000,
  xlsBytesMax: 4 * 1024 * 1024,
  zipEntriesMax: 2000,
};

/** The limits as the `import.tooLarge` message names them. */
export function spreadsheetLimitParams(): { mb: number; cells: number } {
  return { mb: SPREADSHEET_LIMITS.unpackedBytesMax / (1024 * 1024), cells: SPREADSHEET_LIMITS.cellsMax };
}

export type SheetProblem = 'unreadable' | 'tooManyRows' | 'tooLarge';
export type SheetReadResult = { ok: true; rows: SheetRow[] } | { ok: false; problem: SheetProblem };

/**
 * Measures an .xlsx (a zip) without trusting it: the central directory's sizes must stay within the limits,
 * and each entry is inflated with its declared size as the cap (an entry that unpacks to more than it
 * declares is refused), so the check itself never unpacks more than the limit. The worksheets' cells are
 * counted in the unpacked XML. Undefined when the workbook is within the limits.
 */
export function xlsxProblem(bytes: Uint8Array): SheetProblem | undefined {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: 22 bytes plus a comment of at most 65,535, at the end of the file.
  let end = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 65_535); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end === -1) return 'unreadable';
  const entries = data.readUInt16LE(end + 10);
  const directoryOffset = data.readUInt32LE(end + 16);
  // Zip64 (more than 65,535 entries or 4 GB) is never needed by a sheet users upload.
  if (entries === 0xffff || directoryOffset === 0xffffffff) return 'tooLarge';
  if (entries > SPREADSHEET_LIMITS.zipEntriesMax) return 'tooLarge';
  let unpacked = 0;
  let cells = 0;
  let at = directoryOffset;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50) return 'unreadable';
    const method = data.readUInt16LE(at + 10);
    const compressedSize = data.readUInt32LE(at + 20);
    const size = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const headerOffset = data.readUInt32LE(at + 42);
    const name = data.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    if (size === 0xffffffff || compressedSize === 0xffffffff) return 'tooLarge';
    unpacked += size;
    if (unpacked > SPREADSHEET_LIMITS.unpackedBytesMax) return 'tooLarge';
    if (headerOffset + 30 > data.length || data.readUInt32LE(headerOffset) !== 0x04034b50) return 'unreadable';
    const start = headerOffset + 30 + data.readUInt16LE(headerOffset + 26) + data.readUInt16LE(headerOffset + 28);
    const stored = data.subarray(start, start + compressedSize);
    if (stored.length !== compressedSize) return 'unreadable';
    let content: Buffer;
    if (method === 0) content = stored;
    else if (method === 8) {
      try {
        // One byte of room: an entry that fills it unpacks to more than its directory entry says.
        content = inflateRawSync(stored, { maxOutputLength: size + 1 });
      } catch (error) {
        return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'tooLarge' : 'unreadable';
      }
    } else return 'unreadable';
    if (content.length > size) return 'tooLarge';
    if (/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) {
      cells += content.toString('latin1').match(/<(?:\w+:)?c[\s>/]/g)?.length ?? 0;
      if (cells > SPREADSHEET_LIMITS.cellsMax) return 'tooLarge';
    }
  }
  return undefined;
}

/**
 * The first sheet's non-empty rows. Dates come back as Date (the workbook's date cells), numbers as
 * numbers, text trimmed. More than `maxRows` rows (counting blanks) is refused rather than read.
 */
export function readFirstSheet(bytes: Uint8Array, maxRows: number): SheetReadResult {
  const kind = sniffWorkbook(bytes);
  if (!kind) return { ok: false, problem: 'unreadable' };
  // A legacy .xls is not compressed: its size bounds what the parser builds.
  const problem = kind === 'xlsx' ? xlsxProblem(bytes) : bytes.length > SPREADSHEET_LIMITS.xlsBytesMax ? 'tooLarge' : undefined;
  if (problem) return { ok: false, problem };
  let workbook: WorkBook;
  try {
    // Only the first sheet is parsed.
    workbook = read(bytes, { type: 'buffer', cellDates: true, sheetRows: maxRows + 2, cellFormula: false, cellHTML: false, sheets: 0 });
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
  const name = workbook.SheetNames[0];
  const sheet = name === undefined ? undefined : workbook.Sheets[name];
  if (!sheet?.['!ref']) return { ok: true, rows: [] };
  const range = utils.decode_range(sheet['!ref']);
  // With sheetRows the parser stops early and keeps the real extent in !fullref.
  if (utils.decode_range(sheet['!fullref'] ?? sheet['!ref']).e.r + 1 > maxRows + 1) return { ok: false, problem: 'tooManyRows' };
  // Rows within the limit but thousands of columns wide: the grid below would hold every one of them.
  if ((range.e.r - range.s.r + 1) * (range.e.c - range.s.c + 1) > SPREADSHEET_LIMITS.cellsMax) return { ok: false, problem: 'tooLarge' };
  const grid = utils.sheet_to_json<SheetCell[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true });
  const rows: SheetRow[] = [];
  grid.forEach((cells, i) => {
    const clean = cells.map((c) => (typeof c === 'string' ? c.trim() : c instanceof Date && Number.isNaN(c.getTime()) ? null : c));
    if (clean.some((c) => c !== null && c !== '')) rows.push({ row: range.s.r + i + 1, cells: clean });
  });
  return { ok: true, rows };
}
