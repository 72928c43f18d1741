import { Code } from '@sunward/contracts/codes';
import {
  EVENT_DESCRIPTION_COLUMNS,
  EVENT_DESCRIPTION_LIMITS,
  type EventDescriptionEdit,
  type EventDescriptionImportResult,
  type EventDescriptionPage,
  type EventDescriptionQuery,
  type EventDescriptionRow,
} from '@sunward/contracts/event-descriptions';
import { isLanguage, LANGUAGES, type Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { BUILT_IN_PROTOCOLS, protocolById } from '@sunward/protocol/maps/index';
import type { ProtocolDefinition } from '@sunward/protocol/types';
import ExcelJS from 'exceljs';
import { ApiError } from '../../lib/envelope.js';
import { readFirstSheet, type SheetCell, spreadsheetLimitParams } from '../../lib/spreadsheet.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { EventDescriptionsRepository } from './event-descriptions.repository.js';
import { importedEventText, localised, localisedEventText, setImportedEventTexts } from './event-text.js';

const cellText = (cell: SheetCell | undefined) => (cell === null || cell === undefined ? '' : String(cell).trim());

interface ImportRow {
  protocolId: string;
  code: number;
  language: Language;
  description: string;
  solution: string;
}

/**
 * Checks an import's rows: header first (exactly the template's columns), then every row. The first bad row
 * refuses the whole file (1025, 1026, 1027) so nothing is stored from a file the user must fix.
 */
export function checkImport(rows: readonly { row: number; cells: readonly SheetCell[] }[], language: Language): ImportRow[] {
  const [head, ...data] = rows;
  const header = (head?.cells ?? []).map((c) => cellText(c).toLowerCase());
  while (header.length > 0 && header.at(-1) === '') header.pop();
  if (header.length !== EVENT_DESCRIPTION_COLUMNS.length || header.some((h, i) => h !== EVENT_DESCRIPTION_COLUMNS[i]))
    throw new ApiError(Code.EVENT_IMPORT_COLUMNS, { columns: EVENT_DESCRIPTION_COLUMNS.join(', ') });
  if (data.length === 0) throw new ApiError(Code.EVENT_IMPORT_EMPTY);
  const seen = new Map<string, number>();
  return data.map(({ row, cells }) => {
    const refuse = (problem: string) => new ApiError(Code.EVENT_IMPORT_ROW, { row, problem });
    const [protocolCell, codeCell, languageCell, descriptionCell, solutionCell] = cells;
    const protocolId = cellText(protocolCell);
    const protocol = protocolById(protocolId);
    if (!protocol) throw refuse(translate(language, 'eventImport.unknownProtocol', { value: protocolId || '—' }));
    const codeText = cellText(codeCell);
    const code = /^\d{1,9}$/.test(codeText) ? Number(codeText) : Number.NaN;
    if (!protocol.events.some((e) => e.code === code))
      throw refuse(translate(language, 'eventImport.unknownCode', { value: codeText || '—', protocol: protocolId }));
    const lang = cellText(languageCell).toLowerCase();
    if (!isLanguage(lang))
      throw refuse(translate(language, 'eventImport.badLanguage', { value: lang || '—', allowed: LANGUAGES.join(', ') }));
    const description = cellText(descriptionCell);
    const solution = cellText(solutionCell);
    if (description === '') throw refuse(translate(language, 'eventImport.noDescription'));
    if (description.length > EVENT_DESCRIPTION_LIMITS.descriptionMax)
      throw refuse(
        translate(language, 'eventImport.tooLong', { field: EVENT_DESCRIPTION_COLUMNS[3], max: EVENT_DESCRIPTION_LIMITS.descriptionMax }),
      );
    if (solution.length > EVENT_DESCRIPTION_LIMITS.solutionMax)
      throw refuse(
        translate(language, 'eventImport.tooLong', { field: EVENT_DESCRIPTION_COLUMNS[4], max: EVENT_DESCRIPTION_LIMITS.solutionMax }),
      );
    const key = `${protocolId}|${code}|${lang}`;
    const other = seen.get(key);
    if (other !== undefined) throw refuse(translate(language, 'eventImport.duplicate', { other }));
    seen.set(key, row);
    return { protocolId, code, language: lang, description, solution };
  });
}

/** The protocol asked for (default the first with events); an unknown one refused on its field (code 4). */
function protocolOf(id: string | undefined, language: Language): ProtocolDefinition {
  const protocol = id ? protocolById(id) : BUILT_IN_PROTOCOLS.find((p) => p.events.length > 0);
  if (!protocol || protocol.events.length === 0)
    throw new ApiError(
      Code.VALIDATION,
      {},
      {
        errors: [
          {
            field: 'protocol',
            message: translate(language, id ? 'eventImport.unknownProtocol' : 'validation.invalidValue', { value: id ?? '—' }),
          },
        ],
      },
    );
  return protocol;
}

/** Every code of a protocol once, with the text it has now in `language`: its own (imported or edited) first, else the built-in one. */
function currentTexts(protocol: ProtocolDefinition, language: Language): EventDescriptionRow[] {
  const seen = new Set<number>();
  return protocol.events
    .filter((e) => !seen.has(e.code) && seen.add(e.code))
    .map((e) => {
      const own = importedEventText(protocol.id, e.code, language);
      return {
        code: e.code,
        level: e.level,
        description: own?.description ?? localisedEventText(e.description, language),
        solution: own ? own.solution : localisedEventText(e.solution, language),
        source: own ? ('imported' as const) : ('map' as const),
        updatedAt: null,
      };
    });
}

/** Event descriptions (issue 21): the screen's list per protocol and language, and the .xlsx import. */
export function createEventDescriptionsService(deps: { repository: EventDescriptionsRepository }) {
  const { repository } = deps;
  const refresh = async () => setImportedEventTexts(await repository.all());

  return {
    /** Loads the imported texts the event list and alarm messages use (at start, and every minute for other processes' imports). */
    refresh,

    list(q: EventDescriptionQuery, requestLanguage: Language): EventDescriptionPage {
      const language = q.language ?? requestLanguage;
      const protocol = protocolOf(q.protocol, requestLanguage);
      const needle = q.keyword?.toLowerCase();
      const rows = currentTexts(protocol, language)
        .filter(
          (r) =>
            !needle ||
            String(r.code).includes(needle) ||
            r.description.toLowerCase().includes(needle) ||
            r.solution.toLowerCase().includes(needle),
        )
        .sort((a, b) => a.code - b.code);
      return {
        protocol: protocol.id,
        language,
        protocols: BUILT_IN_PROTOCOLS.filter((p) => p.events.length > 0).map((p) => ({
          id: p.id,
          name: localised(p.name, language),
          events: new Set(p.events.map((e) => e.code)).size,
        })),
        infos: rows.slice((q.page - 1) * q.size, q.page * q.size),
        total: rows.length,
      };
    },

    /**
     * The import template of one protocol in one language: the template's columns, then every code with the
     * text it has now, so a translator edits the texts and imports the file back.
     */
    async template(q: { protocol?: string; language?: Language }, requestLanguage: Language): Promise<{ fileName: string; bytes: Buffer }> {
      const language = q.language ?? requestLanguage;
      const protocol = protocolOf(q.protocol, requestLanguage);
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Events');
      sheet.columns = EVENT_DESCRIPTION_COLUMNS.map((key) => ({
        header: key,
        key,
        width: key === 'solution' ? 80 : key === 'description' ? 48 : key === 'protocol' ? 28 : 10,
      }));
      sheet.getRow(1).font = { bold: true };
      sheet.views = [{ state: 'frozen', ySplit: 1 }];
      for (const row of currentTexts(protocol, language))
        sheet.addRow({ protocol: protocol.id, code: row.code, language, description: row.description, solution: row.solution });
      return {
        fileName: `event-descriptions-${protocol.id}-${language}.xlsx`,
        bytes: Buffer.from(await book.xlsx.writeBuffer()),
      };
    },

    /** One code's description and solution in one language, edited in the console; answers the row as the list shows it. */
    async edit(auth: AuthContext, body: EventDescriptionEdit, requestLanguage: Language): Promise<EventDescriptionRow> {
      const protocol = protocolOf(body.protocol, requestLanguage);
      if (!protocol.events.some((e) => e.code === body.code))
        throw new ApiError(
          Code.VALIDATION,
          {},
          {
            errors: [
              {
                field: 'code',
                message: translate(requestLanguage, 'eventImport.unknownCode', { value: body.code, protocol: protocol.id }),
              },
            ],
          },
        );
      await repository.upsert(
        [{ protocolId: protocol.id, code: body.code, language: body.language, description: body.description, solution: body.solution }],
        auth.userId,
      );
      await refresh();
      const row = currentTexts(protocol, body.language).find((r) => r.code === body.code);
      if (!row) throw new Error('edited event text not found');
      return row;
    },

    async importFile(auth: AuthContext, bytes: Buffer, language: Language): Promise<EventDescriptionImportResult> {
      const sheet = readFirstSheet(bytes, EVENT_DESCRIPTION_LIMITS.importRowsMax + 1);
      if (!sheet.ok)
        throw new ApiError(Code.IMPORT_FILE_INVALID, {
          problem:
            sheet.problem === 'tooManyRows'
              ? translate(language, 'import.tooManyRows', { max: EVENT_DESCRIPTION_LIMITS.importRowsMax })
              : sheet.problem === 'tooLarge'
                ? translate(language, 'import.tooLarge', spreadsheetLimitParams())
                : translate(language, 'import.unreadable'),
        });
      if (sheet.rows.length === 0) throw new ApiError(Code.EVENT_IMPORT_EMPTY);
      const rows = checkImport(sheet.rows, language);
      await repository.upsert(rows, auth.userId);
      await refresh();
      return {
        imported: rows.length,
        protocols: [...new Set(rows.map((r) => r.protocolId))],
        languages: [...new Set(rows.map((r) => r.language))],
      };
    },
  };
}

export type EventDescriptionsService = ReturnType<typeof createEventDescriptionsService>;
