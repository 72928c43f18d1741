import { Code } from '@sunward/contracts/codes';
import {
  DICT_CODE_PATTERNS,
  type DictEntryFields,
  type DictEntryRow,
  type DictEntryUpdate,
  type DictListQuery,
  type DictPage,
  type DictTexts,
  type DictType,
  dictText,
  missingDictTexts,
} from '@sunward/contracts/dictionary';
import { LANGUAGE_TAGS, LANGUAGES, type Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { CURRENCIES, type DictEntry, PLANT_TYPES } from '@sunward/contracts/plants';
import { ApiError } from '../../lib/envelope.js';
import type { DictionaryRepository, DictRecord, DictSeed } from './dictionary.repository.js';

/** Minutes east of UTC of a zone at an instant. */
export function utcOffsetMinutes(zone: string, at: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** "(UTC+05:30) Asia/Kolkata" */
export function zoneLabel(text: string, offset: number): string {
  const abs = Math.abs(offset);
  return `(UTC${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}) ${text}`;
}

const everyLanguage = (text: (language: Language) => string): DictTexts =>
  Object.fromEntries(LANGUAGES.map((language) => [language, text(language)]));

/** The built-in entries: what the console offered before the dictionary existed, in the same order. */
function builtIn(type: DictType, timeZoneNames: () => Promise<readonly string[]>): () => Promise<DictSeed[]> {
  return async () => {
    if (type === 'currency')
      return CURRENCIES.map((code, i) => ({
        code,
        sort: (i + 1) * 10,
        internationalised: true,
        texts: everyLanguage((l) => new Intl.DisplayNames([LANGUAGE_TAGS[l]], { type: 'currency' }).of(code) ?? code),
      }));
    if (type === 'plantType')
      return PLANT_TYPES.map((plantType, i) => ({
        code: String(plantType),
        sort: (i + 1) * 10,
        internationalised: true,
        texts: everyLanguage((l) => translate(l, `plantType.${plantType}`)),
      }));
    return (await timeZoneNames()).map((zone) => ({ code: zone, sort: 0, internationalised: false, texts: { en: zone } }));
  };
}

const validation = (field: string, message: string) => new ApiError(Code.VALIDATION, {}, { errors: [{ field, message }] });

/** Only the texts the entry uses: every language when internationalised, else the one (kept in `en`). */
function cleanTexts(fields: { internationalised: boolean; texts: DictTexts }): DictTexts {
  if (!fields.internationalised) return { en: fields.texts.en?.trim() ?? '' };
  return everyLanguage((l) => fields.texts[l]?.trim() ?? '');
}

/**
 * Dictionary management (spec 02 §3, issue 24): platform administrators keep the currencies, time zones and
 * plant types the console offers; the dict/* calls answer from here. Each type is filled with its built-in
 * entries the first time it is used.
 */
export function createDictionaryService(deps: {
  repository: DictionaryRepository;
  /** The IANA names the database and this runtime both know (plants' time zone catalogue). */
  timeZoneNames(): Promise<readonly string[]>;
  isTimeZone(zone: string): Promise<boolean>;
}) {
  const { repository } = deps;
  const seeded = new Map<DictType, Promise<void>>();
  const ready = (type: DictType) => {
    let done = seeded.get(type);
    if (!done) {
      done = repository.seedIfEmpty(type, builtIn(type, deps.timeZoneNames)).catch((error: unknown) => {
        seeded.delete(type);
        throw error;
      });
      seeded.set(type, done);
    }
    return done;
  };

  const toRow = (r: DictRecord, language: Language): DictEntryRow => ({
    id: r.id,
    type: r.type,
    code: r.code,
    sort: r.sort,
    internationalised: r.internationalised,
    texts: r.texts,
    enabled: r.enabled,
    label: dictText(r, language),
    updatedAt: r.updatedAt.toISOString(),
  });

  function checkTexts(language: Language, fields: { internationalised: boolean; texts: DictTexts }): void {
    const missing = missingDictTexts(fields);
    if (missing.length > 0)
      throw new ApiError(
        Code.VALIDATION,
        {},
        { errors: missing.map((l) => ({ field: `texts.${l}`, message: translate(language, 'validation.dictText') })) },
      );
  }

  async function requireEntry(id: number): Promise<DictRecord> {
    const row = await repository.byId(id);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return row;
  }

  return {
    async page(language: Language, query: DictListQuery): Promise<DictPage> {
      await ready(query.type);
      const { rows, total } = await repository.page(query.type, query.keyword, query.page, query.size);
      return { infos: rows.map((r) => toRow(r, language)), total };
    },

    async create(language: Language, fields: DictEntryFields): Promise<DictEntryRow> {
      if (fields.type === 'plantType') throw new ApiError(Code.DICT_TYPE_FIXED);
      const code = fields.code.trim();
      if (!DICT_CODE_PATTERNS[fields.type].test(code)) throw validation('code', translate(language, 'validation.dictCode'));
      if (fields.type === 'timezone' && !(await deps.isTimeZone(code)))
        throw validation('code', translate(language, 'validation.dictTimezone'));
      checkTexts(language, fields);
      await ready(fields.type);
      const id = await repository.insert(fields.type, {
        code,
        sort: fields.sort,
        internationalised: fields.internationalised,
        texts: cleanTexts(fields),
      });
      if (id === undefined) throw new ApiError(Code.DICTIONARY_CODE_EXISTS);
      return toRow(await requireEntry(id), language);
    },

    async update(language: Language, id: number, fields: DictEntryUpdate): Promise<DictEntryRow> {
      await requireEntry(id);
      checkTexts(language, fields);
      await repository.update(id, { sort: fields.sort, internationalised: fields.internationalised, texts: cleanTexts(fields) });
      return toRow(await requireEntry(id), language);
    },

    async setEnabled(language: Language, id: number, enabled: boolean): Promise<DictEntryRow> {
      await requireEntry(id);
      await repository.setEnabled(id, enabled);
      return toRow(await requireEntry(id), language);
    },

    /** Whether a code is an enabled entry of its type (a plant's currency is checked against it). */
    async has(type: DictType, code: string): Promise<boolean> {
      await ready(type);
      return repository.has(type, code);
    },

    /** dict/currencies: "EUR · Euro" in the caller's language. */
    async currencies(language: Language): Promise<DictEntry[]> {
      await ready('currency');
      return (await repository.enabled('currency')).map((e) => ({ value: e.code, label: `${e.code} · ${dictText(e, language)}` }));
    },

    /** dict/plantTypes: the type number and its name. */
    async plantTypes(language: Language): Promise<DictEntry[]> {
      await ready('plantType');
      return (await repository.enabled('plantType')).map((e) => ({ value: Number(e.code), label: dictText(e, language) }));
    },

    /** dict/timezones: by their UTC offset now, "(UTC+05:30) Asia/Kolkata". */
    async timeZones(language: Language, now = new Date()): Promise<DictEntry[]> {
      await ready('timezone');
      const zones = (await repository.enabled('timezone')).map((e) => ({ e, offset: utcOffsetMinutes(e.code, now) }));
      zones.sort((a, b) => a.offset - b.offset || a.e.sort - b.e.sort || a.e.code.localeCompare(b.e.code));
      return zones.map(({ e, offset }) => ({ value: e.code, label: zoneLabel(dictText(e, language), offset) }));
    },
  };
}

export type DictionaryService = ReturnType<typeof createDictionaryService>;
