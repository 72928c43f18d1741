import { AC_SWITCH_LIMITS, AC_SWITCH_SN_PATTERN, type AcSwitchImportProblem } from '@sunward/contracts/ac-switches';
import { hasSpace, isPlainText } from '@sunward/contracts/validators';
import type { SheetCell, SheetRow } from '../../lib/spreadsheet.js';

export interface SwitchCandidate {
  row: number;
  sn: string;
  key: string;
  masterSn: string | null;
}

export interface SwitchRefusal {
  row: number;
  sn: string;
  problem: AcSwitchImportProblem;
}

/** What the registry already holds for the SNs a file names. */
export interface KnownSwitches {
  /** Lower-cased SNs registered anywhere (an SN is unique platform-wide). */
  registered: ReadonlySet<string>;
  /** Lower-cased SNs of masters the importer may attach sub switches to. */
  masters: ReadonlySet<string>;
  /** Lower-cased SNs of sub switches within reach (naming one as a master is refused). */
  subs: ReadonlySet<string>;
}

function text(cell: SheetCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell).trim();
}

const SN_HEADER = /^(sn|s\/n|serial.*|序列号|开关sn)$/i;

/**
 * Checks the rows of a switch list (columns: SN, key, master SN — empty for a master switch) without
 * touching the database. Masters of the same file count, wherever their row is; every bad row is named with
 * its spreadsheet row number and why.
 */
export function checkSwitchRows(rows: readonly SheetRow[], known: KnownSwitches): { valid: SwitchCandidate[]; invalid: SwitchRefusal[] } {
  const parsed = rows
    .filter((r, index) => !(index === 0 && SN_HEADER.test(text(r.cells[0]))))
    .map((r) => ({ row: r.row, sn: text(r.cells[0]), key: text(r.cells[1]), masterSn: text(r.cells[2]) }));
  const fileMasters = new Set(parsed.filter((r) => r.masterSn === '' && AC_SWITCH_SN_PATTERN.test(r.sn)).map((r) => r.sn.toLowerCase()));
  const fileSubs = new Set(parsed.filter((r) => r.masterSn !== '').map((r) => r.sn.toLowerCase()));
  const seen = new Set<string>();
  const valid: SwitchCandidate[] = [];
  const invalid: SwitchRefusal[] = [];
  for (const r of parsed) {
    const problem = ((): AcSwitchImportProblem | undefined => {
      if (r.sn === '') return 'snMissing';
      if (!AC_SWITCH_SN_PATTERN.test(r.sn)) return 'snInvalid';
      const folded = r.sn.toLowerCase();
      if (seen.has(folded)) return 'duplicateInFile';
      seen.add(folded);
      if (r.key === '') return 'keyMissing';
      if (hasSpace(r.key) || !isPlainText(r.key) || r.key.length > AC_SWITCH_LIMITS.keyMaxLength) return 'keyInvalid';
      if (known.registered.has(folded)) return 'alreadyRegistered';
      if (r.masterSn !== '') {
        const master = r.masterSn.toLowerCase();
        if (known.subs.has(master) || fileSubs.has(master)) return 'masterIsSub';
        if (!known.masters.has(master) && !fileMasters.has(master)) return 'masterMissing';
      }
      return undefined;
    })();
    if (problem) invalid.push({ row: r.row, sn: r.sn, problem });
    else valid.push({ row: r.row, sn: r.sn, key: r.key, masterSn: r.masterSn === '' ? null : r.masterSn });
  }
  // A sub switch whose master row of the same file was refused has no master either.
  const validMasters = new Set(valid.filter((v) => v.masterSn === null).map((v) => v.sn.toLowerCase()));
  const kept = valid.filter((v) => {
    if (v.masterSn === null) return true;
    const master = v.masterSn.toLowerCase();
    if (known.masters.has(master) || validMasters.has(master)) return true;
    invalid.push({ row: v.row, sn: v.sn, problem: 'masterMissing' });
    return false;
  });
  return { valid: kept, invalid: invalid.sort((a, b) => a.row - b.row) };
}

/** The SNs a file names (SN and master columns), to look up in the registry before checking. */
export function switchSnsOf(rows: readonly SheetRow[]): string[] {
  return rows.flatMap((r) => [text(r.cells[0]), text(r.cells[2])]).filter((sn) => AC_SWITCH_SN_PATTERN.test(sn));
}
