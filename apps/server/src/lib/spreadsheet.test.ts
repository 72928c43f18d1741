import { utils, write } from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readFirstSheet, sniffWorkbook } from './spreadsheet.js';

function legacyXls(rows: unknown[][]): Buffer {
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows, { cellDates: true }), '预测');
  return write(book, { bookType: 'biff8', type: 'buffer' }) as Buffer;
}

describe('readFirstSheet', () => {
  it('reads a legacy .xls with Chinese text, dates and numbers, numbering rows as the user sees them', () => {
    const bytes = legacyXls([['日期', '发电量'], [], [new Date(Date.UTC(2026, 5, 1)), 410.5], ['2026-06-02', ' 398 ']]);
    expect(sniffWorkbook(bytes)).toBe('xls');
    const sheet = readFirstSheet(bytes, 100);
    expect(sheet.ok).toBe(true);
    if (!sheet.ok) return;
    expect(sheet.rows.map((r) => r.row)).toEqual([1, 3, 4]);
    expect(sheet.rows[0]?.cells).toEqual(['日期', '发电量']);
    expect(sheet.rows[1]?.cells[0]).toBeInstanceOf(Date);
    expect(sheet.rows[1]?.cells[1]).toBe(410.5);
    expect(sheet.rows[2]?.cells).toEqual(['2026-06-02', '398']);
  });

  it('reads .xlsx written by another library', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('A').addRows([
      ['SN', 'Key'],
      ['GW1', 'abc'],
    ]);
    const sheet = readFirstSheet(Buffer.from(await book.xlsx.writeBuffer()), 10);
    expect(sheet).toEqual({
      ok: true,
      rows: [
        { row: 1, cells: ['SN', 'Key'] },
        { row: 2, cells: ['GW1', 'abc'] },
      ],
    });
  });

  it('refuses what is not a workbook, a corrupt one, and one with too many rows', () => {
    expect(readFirstSheet(Buffer.from('date,kWh\n2026-06-01,4'), 10)).toEqual({ ok: false, problem: 'unreadable' });
    const corrupt = legacyXls([['a']]).subarray(0, 600);
    expect(readFirstSheet(corrupt, 10)).toEqual({ ok: false, problem: 'unreadable' });
    const long = legacyXls(Array.from({ length: 30 }, (_, i) => [i]));
    expect(readFirstSheet(long, 20)).toEqual({ ok: false, problem: 'tooManyRows' });
    expect(readFirstSheet(long, 30).ok).toBe(true);
  });
});
