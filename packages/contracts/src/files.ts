import { z } from 'zod';
import { LIMITS } from './limits.js';

/*
 * The download centre (issue 21; spec 02 §3 "Download record: list and delete", calls.tsv Files rows):
 * files prepared in the background (exports larger than a page, reports) and kept DOWNLOAD_RETENTION_DAYS.
 * Calls: GET fileDownloadRecord/list, POST fileDownloadRecord/delete (form body), GET
 * fileDownloadRecord/{id}/download. Other features start a job through the server's download centre
 * (apps/server/src/features/files) and answer its record.
 */

export const DOWNLOAD_STATUSES = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type DownloadStatus = (typeof DOWNLOAD_STATUSES)[number];

export const DOWNLOAD_FORMATS = ['csv', 'xlsx', 'pdf', 'zip'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

export const FILE_LIMITS = {
  pageSizeMax: 100,
  /** Background exports one user may have queued or running at once. */
  activePerUserMax: 3,
  /** Rows an immediate (in-request) export answers; larger exports go to the download centre. */
  immediateRowsMax: LIMITS.exportRowsMax,
} as const;

export const DownloadRecordSchema = z.object({
  id: z.number(),
  /** What made it: events, operation-log, connection-log, report… */
  kind: z.string(),
  fileName: z.string(),
  format: z.string(),
  status: z.enum(DOWNLOAD_STATUSES),
  /** 0–100 */
  progress: z.number(),
  rows: z.number().nullable(),
  sizeBytes: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** When the file will be (or was) removed. */
  expiresAt: z.string().nullable(),
});
export type DownloadRecord = z.infer<typeof DownloadRecordSchema>;

export const DownloadRecordListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(FILE_LIMITS.pageSizeMax).default(20),
  status: z.enum(DOWNLOAD_STATUSES).optional(),
  /** File name, substring, case-insensitive. */
  keyword: z.string().trim().max(64).optional(),
});
export type DownloadRecordListQuery = z.infer<typeof DownloadRecordListQuerySchema>;

export const DownloadRecordPageSchema = z.object({
  infos: z.array(DownloadRecordSchema),
  total: z.number(),
  /** Records still being prepared (the console polls while any are). */
  active: z.number(),
});
export type DownloadRecordPage = z.infer<typeof DownloadRecordPageSchema>;

/** A list of record ids: "3,4" (form body) or [3, 4] (JSON). */
const idList = z
  .union([z.string().trim(), z.array(z.coerce.number())])
  .transform((v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .filter((s) => s.trim() !== '')
          .map((s) => Number(s.trim()))
      : v,
  )
  .refine((ids) => ids.length > 0 && ids.length <= FILE_LIMITS.pageSizeMax && ids.every((n) => Number.isSafeInteger(n) && n > 0), {
    message: 'validation.invalidValue',
  });

/** POST fileDownloadRecord/delete: `ids` (or one `id`). */
export const DownloadRecordDeleteSchema = z
  .object({ ids: idList.optional(), id: z.coerce.number().int().positive().optional() })
  .refine((b) => b.ids !== undefined || b.id !== undefined, { message: 'validation.required', path: ['ids'] })
  .transform((b) => ({ ids: [...new Set([...(b.ids ?? []), ...(b.id === undefined ? [] : [b.id])])] }));
export type DownloadRecordDelete = z.infer<typeof DownloadRecordDeleteSchema>;

export const DownloadRecordDeleteResultSchema = z.object({ deleted: z.number() });
