import ExcelJS from 'exceljs';
import { readFirstSheet, type SheetCell } from '../../lib/spreadsheet.js';

/** Ten years of days and then some: a prediction file is one row per day. */
export const MAX_PREDICTION_ROWS = 20_000;

/**
 * Pure file handling for plants: picture type by content (not by the name a client claims),
 * predicted-generation workbooks in, generation workbooks out.
 */

export type PictureType = 'jpg' | 'png';

/** JPEG starts FF D8 FF, PNG with its 8-byte signature; anything else is refused. */
export function sniffPicture(bytes: Uint8Array): PictureType | undefined {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  return undefined;
}

export type ImportProblem =
  | { kind: 'unreadable' }
  | { kind: 'tooManyRows' }
  | { kind: 'tooLarge' }
  | { kind: 'empty' }
  | { kind: 'row'; row: number; problem: 'badDate' | 'badEnergy' };

export interface PredictionRow {
  day: string;
  energyWh: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function cellDay(value: SheetCell): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString().slice(0, 10);
  if (typeof value === 'string') {
    const text = value.trim().replaceAll('/', '-');
    if (!DAY.test(text)) return undefined;
    const date = new Date(`${text}T00:00:00Z`);
    return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text ? undefined : text;
  }
  return undefined;
}

function cellNumber(value: SheetCell): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/**
 * Reads the first sheet: column A the date (a date cell or YYYY-MM-DD), column B the predicted energy
 * in kWh. A first row that is not data is taken as the header. Any bad row refuses the whole file,
 * naming the row as the user sees it in the spreadsheet.
 */
export function parsePredictionWorkbook(bytes: Buffer): { ok: true; rows: PredictionRow[] } | { ok: false; problem: ImportProblem } {
  const sheet = readFirstSheet(bytes, MAX_PREDICTION_ROWS);
  if (!sheet.ok) return { ok: false, problem: { kind: sheet.problem } };
  const rows: PredictionRow[] = [];
  for (const { row, cells } of sheet.rows) {
    const day = cellDay(cells[0] ?? null);
    const energy = cellNumber(cells[1] ?? null);
    if (rows.length === 0 && row === sheet.rows[0]?.row && day === undefined) continue; // header
    if (day === undefined) return { ok: false, problem: { kind: 'row', row, problem: 'badDate' } };
    if (energy === undefined || !Number.isFinite(energy) || energy < 0)
      return { ok: false, problem: { kind: 'row', row, problem: 'badEnergy' } };
    rows.push({ day, energyWh: energy * 1000 });
  }
  if (rows.length === 0) return { ok: false, problem: { kind: 'empty' } };
  return { ok: true, rows };
}

/** Daily generation (and prediction, where imported) as a workbook. */
export async function generationWorkbook(
  plantName: string,
  rows: readonly { day: string; energyWh: number; predictedWh: number | null }[],
  headers: { day: string; energy: string; predicted: string },
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sunward';
  const sheet = workbook.addWorksheet(plantName.slice(0, 31).replace(/[*?:\\/[\]]/g, '-'));
  sheet.columns = [
    { header: headers.day, key: 'day', width: 14 },
    { header: headers.energy, key: 'energy', width: 22 },
    { header: headers.predicted, key: 'predicted', width: 22 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const r of rows)
    sheet.addRow({
      day: r.day,
      energy: Math.round(r.energyWh) / 1000,
      predicted: r.predictedWh === null ? null : Math.round(r.predictedWh) / 1000,
    });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
