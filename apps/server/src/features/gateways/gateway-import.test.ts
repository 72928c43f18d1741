import { describe, expect, it } from 'vitest';
import type { SheetRow } from '../../lib/spreadsheet.js';
import { checkImportRows, snsOf } from './gateway-import.js';

const rows = (...cells: (string | number | null)[][]): SheetRow[] => cells.map((c, i) => ({ row: i + 1, cells: c }));

describe('checkImportRows', () => {
  it('skips a header row and keeps good rows with their alias', () => {
    const { valid, invalid } = checkImportRows(
      rows(['SN', 'Registration key', 'Alias'], ['GW0001', 'k3y-0001', 'Barn'], ['GW0002', 'k3y0002']),
      new Set(),
    );
    expect(invalid).toEqual([]);
    expect(valid).toEqual([
      { row: 2, sn: 'GW0001', key: 'k3y-0001', alias: 'Barn' },
      { row: 3, sn: 'GW0002', key: 'k3y0002', alias: null },
    ]);
  });

  it('reads a first row of data as data when it has no header words', () => {
    expect(checkImportRows(rows(['GW0001', 'abc def']), new Set()).invalid).toEqual([{ row: 1, sn: 'GW0001', problem: 'keyInvalid' }]);
  });

  it('names every bad row with its spreadsheet row and problem', () => {
    const { valid, invalid } = checkImportRows(
      rows(
        ['', 'key1'],
        ['G W', 'key2'],
        ['GW0003', ''],
        ['GW0004', 'bad key'],
        ['GW0005', 'key#5'],
        ['GW0006', 'key6', 'a'.repeat(33)],
        ['GW0007', 'key7'],
        ['gw0007', 'key8'],
        ['GWTAKEN', 'key9'],
      ),
      new Set(['GWTAKEN']),
    );
    expect(valid.map((v) => v.sn)).toEqual(['GW0007']);
    expect(invalid.map((i) => [i.row, i.problem])).toEqual([
      [1, 'snMissing'],
      [2, 'snInvalid'],
      [3, 'keyMissing'],
      [4, 'keyInvalid'],
      [5, 'keyInvalid'],
      [6, 'aliasInvalid'],
      [8, 'duplicateInFile'],
      [9, 'alreadyRegistered'],
    ]);
  });

  it('takes numbers in cells as their text', () => {
    expect(checkImportRows(rows([123456, 987654]), new Set()).valid).toEqual([{ row: 1, sn: '123456', key: '987654', alias: null }]);
    expect(snsOf(rows([123456, 1], ['bad sn', 2]))).toEqual(['123456']);
  });
});
