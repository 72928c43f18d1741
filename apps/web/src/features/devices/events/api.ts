import { EventCountsSchema, EventPageSchema } from '@sunward/contracts/events';
import { DownloadRecordSchema } from '@sunward/contracts/files';
import { apiRequest, fetchFile } from '../../../lib/api-client';

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
