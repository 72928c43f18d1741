import { Code } from '@sunward/contracts/codes';
import {
  LatestVersionSchema,
  type VersionFields,
  VersionNotesSchema,
  VersionPageSchema,
  VersionRowSchema,
  VersionTimelineSchema,
} from '@sunward/contracts/versions';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client';

/** Query keys: everything under ['versions'] is refetched after a change. */
export const versionKeys = {
  all: ['versions'] as const,
  page: (page: number) => ['versions', 'page', page] as const,
  /** Apart from ['versions']: a change made on the management page shows in the update dialog on the next load, not at once. */
  latest: ['version-latest'] as const,
  timeline: ['versions', 'timeline'] as const,
  notes: (version: string | undefined) => ['versions', 'notes', version ?? 'latest'] as const,
};

const HANDLED = [Code.VALIDATION, Code.NOT_FOUND, Code.SYSTEM_VERSION_EXISTS, Code.SYSTEM_VERSION_NOT_HIGHER];

/** Spec 01 §7 "non-zero codes on version loads are ignored": the reads tolerate every code. */
const QUIET = Object.values(Code);

export const fetchLatestVersion = () => apiRequest('/api/v1/version/latest', { schema: LatestVersionSchema, tolerate: QUIET });

export const fetchVersionTimeline = () => apiRequest('/api/v1/version/timeline', { schema: VersionTimelineSchema, tolerate: QUIET });

/** One version's notes in the console's language (the server picks Chinese for cn, else English). */
export const fetchVersionNotes = (version: string | undefined) =>
  apiRequest('/api/v1/version', { query: { version }, schema: VersionNotesSchema, tolerate: QUIET });

export const fetchVersionPage = (page: number, size: number) =>
  apiRequest('/api/v1/versions', { query: { page, size }, schema: VersionPageSchema });

export const saveVersion = (fields: VersionFields) =>
  apiRequest('/api/v1/version', { method: 'POST', json: fields, schema: VersionRowSchema, tolerate: HANDLED });

export const deleteVersion = (id: number) => apiRequest(`/api/v1/version/${id}/delete`, { schema: z.null(), tolerate: HANDLED });

/** Resolves when the number may be used; rejects with 4100 or 4101 otherwise. */
export const checkVersion = (version: string) =>
  apiRequest('/api/v1/version/check', { query: { version }, schema: z.null(), tolerate: HANDLED });
