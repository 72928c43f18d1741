import { z } from 'zod';
import { LANGUAGES } from './languages.js';

/*
 * Event descriptions (issue 21; spec 02 §3 "Event: code, type, description, solution… protocol"): what each
 * protocol's event codes mean, in every language. The register maps carry Chinese and English; an .xlsx
 * import (POST event/description/import) adds or replaces texts per protocol, code and language, and the
 * event list, its exports and the alarm messages use them.
 */

/** The import template's header row, in this order (the first sheet's first row). */
export const EVENT_DESCRIPTION_COLUMNS = ['protocol', 'code', 'language', 'description', 'solution'] as const;

export const EVENT_DESCRIPTION_LIMITS = {
  pageSizeMax: 200,
  importRowsMax: 5000,
  descriptionMax: 200,
  solutionMax: 1000,
} as const;

export const EventDescriptionQuerySchema = z.object({
  /** The protocol (register map) id; default the first. */
  protocol: z.string().trim().max(64).optional(),
  language: z.enum(LANGUAGES).optional(),
  /** Code or text, substring. */
  keyword: z.string().trim().max(64).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(EVENT_DESCRIPTION_LIMITS.pageSizeMax).default(50),
});
export type EventDescriptionQuery = z.infer<typeof EventDescriptionQuerySchema>;

export const EventDescriptionRowSchema = z.object({
  code: z.number(),
  level: z.string(),
  description: z.string(),
  solution: z.string(),
  /** imported: a text imported from .xlsx or edited in the console, in this language; map: the built-in text. */
  source: z.enum(['imported', 'map']),
  updatedAt: z.string().nullable(),
});
export type EventDescriptionRow = z.infer<typeof EventDescriptionRowSchema>;

export const EventDescriptionPageSchema = z.object({
  protocol: z.string(),
  language: z.enum(LANGUAGES),
  protocols: z.array(z.object({ id: z.string(), name: z.string(), events: z.number() })),
  infos: z.array(EventDescriptionRowSchema),
  total: z.number(),
});
export type EventDescriptionPage = z.infer<typeof EventDescriptionPageSchema>;

export const EventDescriptionImportResultSchema = z.object({
  /** Texts added or replaced. */
  imported: z.number(),
  protocols: z.array(z.string()),
  languages: z.array(z.enum(LANGUAGES)),
});
export type EventDescriptionImportResult = z.infer<typeof EventDescriptionImportResultSchema>;

/** GET event/description/template: the import template of one protocol, pre-filled with its codes and current texts. */
export const EventDescriptionTemplateQuerySchema = z.object({
  protocol: z.string().trim().max(64).optional(),
  language: z.enum(LANGUAGES).optional(),
});
export type EventDescriptionTemplateQuery = z.infer<typeof EventDescriptionTemplateQuerySchema>;

/** PUT event/description: one code's description and solution in one language, edited in the console. */
export const EventDescriptionEditSchema = z.object({
  protocol: z.string().trim().min(1).max(64),
  code: z.number().int().min(1),
  language: z.enum(LANGUAGES),
  description: z.string().trim().min(1).max(EVENT_DESCRIPTION_LIMITS.descriptionMax),
  solution: z.string().trim().max(EVENT_DESCRIPTION_LIMITS.solutionMax).default(''),
});
export type EventDescriptionEdit = z.infer<typeof EventDescriptionEditSchema>;
