import { z } from 'zod';
import { IdSchema } from './ids.js';

/*
 * System versions (spec 01 §3 Version info, §4, §7 Versions; spec 02 §3 Other, §5; issue 8): the
 * platform's release notes. Each version has a number, rich-text content in Chinese and English, its
 * publisher and release time. The newest number drives the console's update dialog; /logging lists all
 * of them as a timeline and /systemupdate shows one.
 */

/** Digits in one to four dot-separated parts: 2, 2.1, 2.1.0, 2.1.0.7. */
export const VERSION_NUMBER = /^\d{1,6}(\.\d{1,6}){0,3}$/;

export const VERSION_LIMITS = {
  numberMax: 27,
  /** Characters of HTML per language, after sanitising. */
  contentMax: 50_000,
  pageSizeMax: 100,
} as const;

/**
 * Compares two version numbers part by part as numbers (1.10.0 > 1.9.0); missing parts count as 0, so
 * 1.2 and 1.2.0 are the same version. Negative when a < b, 0 when equal, positive when a > b.
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** The highest of some version numbers, or undefined for none. */
export function highestVersion(numbers: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const n of numbers) if (best === undefined || compareVersions(n, best) > 0) best = n;
  return best;
}

const content = z.string().trim().min(1).max(VERSION_LIMITS.contentMax);

/**
 * Creates a version (no id) or edits one's content (id given; its number cannot change). The content is
 * HTML; the server keeps only the allowed formatting (sanitised on save, and again on display).
 */
export const VersionFieldsSchema = z.object({
  id: IdSchema.optional(),
  version: z.string().trim().max(VERSION_LIMITS.numberMax).regex(VERSION_NUMBER),
  zhContent: content,
  enContent: content,
});
export type VersionFields = z.infer<typeof VersionFieldsSchema>;

export const VersionRowSchema = z.object({
  id: z.number(),
  version: z.string(),
  zhContent: z.string(),
  enContent: z.string(),
  publisher: z.string().nullable(),
  releaseTime: z.string(),
});
export type VersionRow = z.infer<typeof VersionRowSchema>;

export const VersionListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(VERSION_LIMITS.pageSizeMax).default(20),
});

export const VersionPageSchema = z.object({ infos: z.array(VersionRowSchema), total: z.number() });
export type VersionPage = z.infer<typeof VersionPageSchema>;

/** GET version/latest: the newest version number, null before any is published. */
export const LatestVersionSchema = z.object({ version: z.string().nullable() });

/** GET version/check: whether a number may be used for a new version (4100 taken, 4101 not higher). */
export const VersionCheckQuerySchema = z.object({
  version: z.string().trim().max(VERSION_LIMITS.numberMax).regex(VERSION_NUMBER),
});

/** GET version (history): one version in the caller's language; absent version: the newest. */
export const VersionHistoryQuerySchema = z.object({
  version: z.string().trim().max(VERSION_LIMITS.numberMax).regex(VERSION_NUMBER).optional(),
  lan: z.string().max(10).optional(),
});

/** A version's notes in one language: Chinese for cn, English for the other nine. */
export const VersionNotesSchema = z.object({
  id: z.number(),
  version: z.string(),
  content: z.string(),
  releaseTime: z.string(),
  publisher: z.string().nullable(),
  lan: z.enum(['zh', 'en']),
});
export type VersionNotes = z.infer<typeof VersionNotesSchema>;

/** GET version/timeline: every version, newest first, each in the caller's language. */
export const VersionTimelineSchema = z.array(VersionNotesSchema);

/**
 * The HTML the rich-text editor may produce: formatting, lists, headings, links, no scripts, no event
 * handlers, no styles. The server sanitises with this list on save and the console again on display.
 */
export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'h3',
  'h4',
  'blockquote',
  'code',
  'pre',
  'hr',
  'a',
] as const;
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = { a: ['href', 'title'] };
export const RICH_TEXT_URL_SCHEMES = ['http', 'https', 'mailto'] as const;
