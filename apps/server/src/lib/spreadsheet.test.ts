import { utils, write } from '@e965/xlsx';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { readFirstSheet, SPREADSHEET_LIMITS, sniffWorkbook, xlsxProblem } from './spreadsheet.js';

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

describe('spreadsheet limits (a crafted upload cannot cost the server its memory)', () => {
  const SHEET = 'xl/worksheets/sheet1.xml';
  const head =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
  const tail = '</sheetData></worksheet>';

  async function xlsxWithSheet(sheetXml: string): Promise<Buffer> {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('A').addRows([['SN', 'Key']]);
    const zip = await JSZip.loadAsync(Buffer.from(await book.xlsx.writeBuffer()));
    zip.file(SHEET, sheetXml);
    return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
  }

  /** Rewrites every size field of one entry (central directory and local header) to `size`, as a forger would. */
  function lieAboutSize(zip: Buffer, name: string, size: number): Buffer {
    const out = Buffer.from(zip);
    for (let i = 0; i < out.length - 46; i++) {
      if (out.readUInt32LE(i) === 0x02014b50 && out.toString('utf8', i + 46, i + 46 + out.readUInt16LE(i + 28)) === name) {
        out.writeUInt32LE(size, i + 24);
        out.writeUInt32LE(size, out.readUInt32LE(i + 42) + 22);
      }
    }
    return out;
  }

  it('refuses an .xlsx that unpacks to more than the limit (zip bomb) before parsing it', async () => {
    const bomb = await xlsxWithSheet(
      `${head}<row r="1"><c r="A1"><v>1</v></c></row>${' '.repeat(SPREADSHEET_LIMITS.unpackedBytesMax + 1024)}${tail}`,
    );
    expect(bomb.length).toBeLessThan(SPREADSHEET_LIMITS.unpackedBytesMax / 100);
    expect(xlsxProblem(bomb)).toBe('tooLarge');
    expect(readFirstSheet(bomb, 1000)).toEqual({ ok: false, problem: 'tooLarge' });
  });

  it('refuses a zip whose directory understates what an entry unpacks to, unpacking no more than it declared', async () => {
    const bomb = await xlsxWithSheet(`${head}<row r="1"><c r="A1"><v>1</v></c></row>${' '.repeat(4 * 1024 * 1024)}${tail}`);
    const forged = lieAboutSize(bomb, SHEET, 1000);
    expect(xlsxProblem(forged)).toBe('tooLarge');
    expect(readFirstSheet(forged, 1000)).toEqual({ ok: false, problem: 'tooLarge' });
  });

  it('refuses a sheet with more cells than the limit, even in few rows', async () => {
    const wide = `${head}<row r="1">${'<c><v>1</v></c>'.repeat(SPREADSHEET_LIMITS.cellsMax + 1)}</row>${tail}`;
    expect(readFirstSheet(await xlsxWithSheet(wide), 1000)).toEqual({ ok: false, problem: 'tooLarge' });
    const fine = `${head}<row r="1"><c r="A1" t="inlineStr"><is><t>GW1</t></is></c><c r="B1" t="inlineStr"><is><t>k</t></is></c></row>${tail}`;
    expect(readFirstSheet(await xlsxWithSheet(fine), 1000)).toEqual({ ok: true, rows: [{ row: 1, cells: ['GW1', 'k'] }] });
  });

  it('refuses a legacy .xls larger than its limit', () => {
    const big = Buffer.concat([legacyXls([['a']]), Buffer.alloc(SPREADSHEET_LIMITS.xlsBytesMax)]);
    expect(readFirstSheet(big, 10)).toEqual({ ok: false, problem: 'tooLarge' });
  });
});
