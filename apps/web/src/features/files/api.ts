import { DownloadRecordDeleteResultSchema, DownloadRecordPageSchema } from '@sunward/contracts/files';
import { apiRequest, fetchFile } from '../../lib/api-client';

export const downloadKeys = {
  all: ['downloads'] as const,
  page: (query: Record<string, string | number | undefined>) => ['downloads', 'page', query] as const,
};

export const fetchDownloadRecords = (query: Record<string, string | number | undefined>) =>
  apiRequest('/api/v1/fileDownloadRecord/list', { query, schema: DownloadRecordPageSchema });

/** Deletes records and their files (form body, calls.tsv). */
export const deleteDownloadRecords = (ids: readonly number[]) =>
  apiRequest('/api/v1/fileDownloadRecord/delete', {
    method: 'POST',
    form: { ids: ids.join(',') },
    schema: DownloadRecordDeleteResultSchema,
  });

/** The file of a record; an expired or foreign one rejects with the server's words (1020, 1021). */
export const downloadRecordFile = (id: number) => fetchFile(`/api/v1/fileDownloadRecord/${id}/download`);
