import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition, generationFileName, isSpreadsheetName } from './download';

describe('downloads and uploads', () => {
  it('reads the file name the server gives', () => {
    expect(fileNameFromDisposition('attachment; filename="gen.xlsx"')).toBe('gen.xlsx');
    expect(fileNameFromDisposition("attachment; filename=x.xlsx; filename*=UTF-8''Anlage%20S%C3%BCd.xlsx")).toBe('Anlage Süd.xlsx');
    expect(fileNameFromDisposition('attachment')).toBeUndefined();
    expect(fileNameFromDisposition(null)).toBeUndefined();
  });

  it('names a download after the plant and dates when the server gives no name', () => {
    expect(generationFileName('Roof / East', '2025-01-01', '2025-01-31')).toBe('Roof_East_generation_2025-01-01_2025-01-31.xlsx');
  });

  it('accepts only Excel files for the prediction import', () => {
    expect(isSpreadsheetName('forecast.XLSX')).toBe(true);
    expect(isSpreadsheetName('forecast.xls')).toBe(true);
    expect(isSpreadsheetName('forecast.csv')).toBe(false);
  });
});
