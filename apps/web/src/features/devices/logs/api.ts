import { DownloadRecordSchema } from '@sunward/contracts/files';
import { ConnectionLogPageSchema, MaintenanceLogPageSchema } from '@sunward/contracts/logs';
import { apiRequest } from '../../../lib/api-client';

type Query = Record<string, string | number | undefined>;

const defined = (query: Query) => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));

export const fetchConnectionLog = (query: Query) => apiRequest('/api/v1/logger/communication', { query, schema: ConnectionLogPageSchema });
export const fetchMaintenanceLog = (query: Query) => apiRequest('/api/v1/logger/maintenance', { query, schema: MaintenanceLogPageSchema });

/** Log exports always go to the download centre (issue 21): answers the record at once. */
export const exportConnectionLog = (query: Query) =>
  apiRequest('/api/v1/logger/communication/export', {
    method: 'POST',
    json: { format: 'xlsx', ...defined(query) },
    schema: DownloadRecordSchema,
  });
export const exportMaintenanceLog = (query: Query) =>
  apiRequest('/api/v1/logger/maintenance/export', {
    method: 'POST',
    json: { format: 'xlsx', ...defined(query) },
    schema: DownloadRecordSchema,
  });
export const exportCommandLog = (query: Query) =>
  apiRequest('/api/v1/logger/commands/export', {
    method: 'POST',
    json: { format: 'xlsx', ...defined(query) },
    schema: DownloadRecordSchema,
  });
