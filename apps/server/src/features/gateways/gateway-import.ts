import { GATEWAY_SN_PATTERN } from '@sunward/contracts/gateway-protocol';
import { GATEWAY_LIMITS, type GatewayImportProblem } from '@sunward/contracts/gateways';
import { aliasProblem, hasSpace, isPlainText } from '@sunward/contracts/validators';
import type { SheetCell, SheetRow } from '../../lib/spreadsheet.js';

export interface ImportCandidate {
  row: number;
  sn: string;
  key: string;
  alias: string | null;
}

export interface ImportRefusal {
  row: number;
  sn: string;
  problem: GatewayImportProblem;
}

function text(cell: SheetCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell).trim();
}

/**
 * The first row is the header when it names the columns instead of holding a gateway: its first cell
 * reads SN, S/N, serial… (or the word in a few languages), or its second cell names the key column.
 */
const SN_HEADER = /^(sn|s\/n|serial.*|seriennummer|n[úu]mero de s[ée]rie|序列号|设备sn|网关sn)$/i;
const KEY_HEADER =
  /^(((registration|reg\.?)\s+)?(key|code)|(registrierungs)?schl[üu]ssel|clave( de registro)?|chave( de registo)?|(registra[čc]n[íi] )?kl[íi][čc]|klucz( rejestracyjny)?|kay[ıi]t anahtar[ıi]|κλειδί( εγγραφής)?|注册码|密钥|m[ãa] [đd][ăa]ng k[ýy])$/i;

function isHeader(cells: readonly SheetCell[]): boolean {
  return SN_HEADER.test(text(cells[0])) || KEY_HEADER.test(text(cells[1]));
}

/**
 * Checks the rows of a gateway list (columns: SN, registration key, alias optional) without touching the
 * database: `registered` are the SNs of the file already in the registry. Every bad row is named with
 * its spreadsheet row number and why; the good rows are returned for registration.
 */
export function checkImportRows(
  rows: readonly SheetRow[],
  registered: ReadonlySet<string>,
  /** A spreadsheet may start with a header row; a JSON list never does. */
  options: { header: boolean } = { header: true },
): { valid: ImportCandidate[]; invalid: ImportRefusal[] } {
  const valid: ImportCandidate[] = [];
  const invalid: ImportRefusal[] = [];
  const seen = new Set<string>();
  /** Why a row cannot be imported, or undefined when it can. */
  const problemOf = (sn: string, key: string, alias: string): GatewayImportProblem | undefined => {
    if (sn === '') return 'snMissing';
    if (!GATEWAY_SN_PATTERN.test(sn)) return 'snInvalid';
    const folded = sn.toUpperCase();
    if (seen.has(folded)) return 'duplicateInFile';
    seen.add(folded);
    if (key === '') return 'keyMissing';
    if (hasSpace(key) || !isPlainText(key) || key.length > GATEWAY_LIMITS.keyMaxLength) return 'keyInvalid';
    if (alias !== '' && aliasProblem(alias) !== null) return 'aliasInvalid';
    if (registered.has(sn)) return 'alreadyRegistered';
    return undefined;
  };
  rows.forEach(({ row, cells }, index) => {
    if (options.header && index === 0 && isHeader(cells)) return;
    const sn = text(cells[0]);
    const key = text(cells[1]);
    const alias = text(cells[2]);
    const problem = problemOf(sn, key, alias);
    if (problem) invalid.push({ row, sn, problem });
    else valid.push({ row, sn, key, alias: alias === '' ? null : alias });
  });
  return { valid, invalid };
}

/** The SNs a file names (well-formed ones), to look up in the registry before checking. */
export function snsOf(rows: readonly SheetRow[]): string[] {
  return rows.map((r) => text(r.cells[0])).filter((sn) => GATEWAY_SN_PATTERN.test(sn));
}
