import { z } from 'zod';
import { LANGUAGES, type Language } from './languages.js';

/**
 * Dictionary management (spec 02 §3 "dictionary entry: code, sort, internationalised flag"; issue 24):
 * the entries behind dict/currencies, dict/timezones and dict/plantTypes. An internationalised entry has a
 * text per language; one that is not has one text for every language.
 */
export const DICT_TYPES = ['currency', 'timezone', 'plantType'] as const;
export type DictType = (typeof DICT_TYPES)[number];

export const DICT_LIMITS = { codeMax: 64, textMax: 64, sortMax: 99_999 } as const;

/** Code rules per type: ISO 4217-like currency codes, IANA zone names, plant type numbers. */
export const DICT_CODE_PATTERNS: Record<DictType, RegExp> = {
  currency: /^[A-Z]{3}$/,
  timezone: /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/,
  plantType: /^[1-9]\d{0,2}$/,
};

export const DictTextsSchema = z.partialRecord(z.enum(LANGUAGES), z.string().trim().max(DICT_LIMITS.textMax));
export type DictTexts = Partial<Record<Language, string>>;

export const DictEntryRowSchema = z.object({
  id: z.number().int(),
  type: z.enum(DICT_TYPES),
  code: z.string(),
  sort: z.number().int(),
  internationalised: z.boolean(),
  texts: DictTextsSchema,
  enabled: z.boolean(),
  /** The text in the caller's language (or the one text), as the pickers show it. */
  label: z.string(),
  updatedAt: z.string(),
});
export type DictEntryRow = z.infer<typeof DictEntryRowSchema>;

export const DictEntryFieldsSchema = z.object({
  type: z.enum(DICT_TYPES),
  code: z.string().trim().min(1).max(DICT_LIMITS.codeMax),
  sort: z.number().int().min(0).max(DICT_LIMITS.sortMax),
  internationalised: z.boolean(),
  texts: DictTextsSchema,
});
export type DictEntryFields = z.infer<typeof DictEntryFieldsSchema>;

/** An edit: the type and code stay as created (plants refer to the code). */
export const DictEntryUpdateSchema = DictEntryFieldsSchema.omit({ type: true, code: true });
export type DictEntryUpdate = z.infer<typeof DictEntryUpdateSchema>;

export const DictListQuerySchema = z.object({
  type: z.enum(DICT_TYPES),
  keyword: z.string().trim().max(64).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type DictListQuery = z.infer<typeof DictListQuerySchema>;

export const DictPageSchema = z.object({ infos: z.array(DictEntryRowSchema), total: z.number().int() });
export type DictPage = z.infer<typeof DictPageSchema>;

export const DictEnabledSchema = z.object({ enabled: z.boolean() });

/** The text an entry shows in a language: its own text there, else English, else any text, else the code. */
export function dictText(entry: { code: string; internationalised: boolean; texts: DictTexts }, language: Language): string {
  const texts = entry.texts;
  if (!entry.internationalised) return texts.en || Object.values(texts).find(Boolean) || entry.code;
  return texts[language] || texts.en || Object.values(texts).find(Boolean) || entry.code;
}

/** Which texts an entry must have: every language when internationalised, else the one (English slot). */
export function missingDictTexts(fields: { internationalised: boolean; texts: DictTexts }): Language[] {
  const need: readonly Language[] = fields.internationalised ? LANGUAGES : ['en'];
  return need.filter((language) => !fields.texts[language]?.trim());
}
