import {
  type EventDescriptionEdit,
  EventDescriptionImportResultSchema,
  EventDescriptionPageSchema,
  EventDescriptionRowSchema,
} from '@sunward/contracts/event-descriptions';
import { EventCountsSchema, EventPageSchema } from '@sunward/contracts/events';
import { DownloadRecordSchema } from '@sunward/contracts/files';
import { apiRequest, authorizedFetch, fetchFile, readEnvelope } from '../../../lib/api-client';

/** The list's query as sent: filters, period bounds (ISO), and the page for the list. */
export type EventQuery = Record<string, string | number | undefined>;

export const eventKeys = {
  all: ['events'] as const,
  page: (query: EventQuery) => ['events', 'page', query] as const,
  counts: (query: EventQuery) => ['events', 'counts', query] as const,
};

export const fetchEventPage = (query: EventQuery) => apiRequest('/api/v1/events', { query, schema: EventPageSchema });

export const fetchEventCounts = (query: EventQuery) => apiRequest('/api/v1/events/count', { query, schema: EventCountsSchema });

/** The list under the same filters as a file; a refusal (706 above 20,000 rows) rejects with the server's message. */
export const exportEvents = (query: EventQuery, format: 'csv' | 'xlsx') => {
  const params = new URLSearchParams({ format });
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  return fetchFile(`/api/v1/events/export?${params}`);
};

/** An export larger than a page, prepared in the caller's download centre (issue 21): answers its record at once. */
export const exportEventsInBackground = (query: EventQuery, format: 'csv' | 'xlsx') => {
  const body: Record<string, string | number> = { format };
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') body[k] = v;
  return apiRequest('/api/v1/events/export/background', { method: 'POST', json: body, schema: DownloadRecordSchema });
};

export const eventDescriptionKeys = {
  all: ['event-descriptions'] as const,
  page: (query: EventQuery) => ['event-descriptions', query] as const,
};

/** One protocol's codes with their texts in a language (issue 21). */
export const fetchEventDescriptions = (query: EventQuery) =>
  apiRequest('/api/v1/event/description', { query, schema: EventDescriptionPageSchema });

/** Uploads one .xlsx of descriptions; a refusal (1025 columns, 1026 a row, 1027 empty) rejects with the server's words. */
export async function importEventDescriptions(file: File) {
  const body = new FormData();
  body.append('file', file, file.name);
  const response = await authorizedFetch('/api/v1/event/description/import', {
    method: 'POST',
    body,
    headers: { accept: 'application/json' },
  });
  return readEnvelope(response, EventDescriptionImportResultSchema);
}

/** The import template of one protocol in one language, pre-filled with its codes and current texts. */
export const fetchEventDescriptionTemplate = (protocol: string, language: string) =>
  fetchFile(`/api/v1/event/description/template?${new URLSearchParams({ protocol, language })}`);

/** One code's description and solution in one language; a refusal (4 on a field) rejects with the server's words. */
export const editEventDescription = (body: EventDescriptionEdit) =>
  apiRequest('/api/v1/event/description', { method: 'PUT', json: body, schema: EventDescriptionRowSchema });
