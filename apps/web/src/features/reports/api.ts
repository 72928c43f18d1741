import { Code } from '@sunward/contracts/codes';
import { DownloadRecordSchema } from '@sunward/contracts/files';
import {
  DeviceReportSchema,
  type ReportConfigInput,
  ReportConfigSchema,
  ReportDeviceOptionSchema,
  type ReportScheduleInput,
  ReportScheduleRunSchema,
  ReportScheduleSchema,
  type ReportScheduleUpdate,
  ReportSchema,
  ReportSendPageSchema,
} from '@sunward/contracts/reports';
import { z } from 'zod';
import { apiRequest, fetchFile } from '../../lib/api-client';

export type ReportParams = Record<string, string | number | undefined>;

/** Query keys: everything under ['reports'] is refetched after a change. */
export const reportKeys = {
  all: ['reports'] as const,
  report: (params: ReportParams) => ['reports', 'report', params] as const,
  device: (params: ReportParams) => ['reports', 'device', params] as const,
  deviceOptions: (plantId: number | undefined) => ['reports', 'device-options', plantId] as const,
  configs: (plantId: number | undefined) => ['reports', 'configs', plantId] as const,
  schedules: ['reports', 'schedules'] as const,
  sends: ['reports', 'sends'] as const,
};

/** Refusals the page shows beside the form rather than as a toast. */
const HANDLED = [
  Code.REPORT_TOO_MANY_PARAMETERS,
  Code.REPORT_TOO_MANY_UNITS,
  Code.REPORT_UNIT_NOT_IN_PLANT,
  Code.REPORT_CONFIG_NAME_EXISTS,
  Code.REPORT_SCHEDULE_TARGET_DELETED,
];

export const fetchReport = (params: ReportParams) => apiRequest('/api/v1/reports', { query: params, schema: ReportSchema });

export const downloadReport = (params: ReportParams, format: 'pdf' | 'xlsx') => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...params, format })) if (value !== undefined) query.set(key, String(value));
  return fetchFile(`/api/v1/reports/file?${query.toString()}`);
};

export const exportReport = (params: ReportParams, format: 'pdf' | 'xlsx') =>
  apiRequest('/api/v1/reports/export', { method: 'POST', json: { ...params, format }, schema: DownloadRecordSchema });

export const fetchConfigs = (plantId: number) =>
  apiRequest('/api/v1/reports/configs', { query: { plantId }, schema: z.array(ReportConfigSchema) });

export const saveConfig = (input: ReportConfigInput) =>
  apiRequest('/api/v1/reports/configs', { method: 'POST', json: input, schema: ReportConfigSchema, tolerate: HANDLED });

export const updateConfig = (id: number, input: ReportConfigInput) =>
  apiRequest(`/api/v1/reports/configs/${id}`, { method: 'PUT', json: input, schema: ReportConfigSchema, tolerate: HANDLED });

export const deleteConfig = (id: number) =>
  apiRequest(`/api/v1/reports/configs/${id}`, { method: 'DELETE', schema: z.object({ ok: z.literal(true) }) });

export const fetchSchedules = () => apiRequest('/api/v1/reports/schedules', { schema: z.array(ReportScheduleSchema) });

export const addSchedule = (input: ReportScheduleInput) =>
  apiRequest('/api/v1/reports/schedules', { method: 'POST', json: input, schema: ReportScheduleSchema, tolerate: HANDLED });

export const updateSchedule = (id: number, update: ReportScheduleUpdate) =>
  apiRequest(`/api/v1/reports/schedules/${id}`, { method: 'PUT', json: update, schema: ReportScheduleSchema, tolerate: HANDLED });

export const deleteSchedule = (id: number) =>
  apiRequest(`/api/v1/reports/schedules/${id}`, { method: 'DELETE', schema: z.object({ ok: z.literal(true) }) });

export const runSchedule = (id: number) =>
  apiRequest(`/api/v1/reports/schedules/${id}/run`, { method: 'POST', schema: ReportScheduleRunSchema, tolerate: HANDLED });

export const fetchSends = (page: number) =>
  apiRequest('/api/v1/reports/sends', { query: { page, size: 20 }, schema: ReportSendPageSchema });

export const fetchDeviceOptions = (plantId: number) =>
  apiRequest('/api/v1/reports/devices', { query: { plantId }, schema: z.array(ReportDeviceOptionSchema) });

export const fetchDeviceReport = (params: ReportParams) =>
  apiRequest('/api/v1/reports/device', { query: params, schema: DeviceReportSchema });

export const downloadDeviceReport = (params: ReportParams, format: 'pdf' | 'xlsx') => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...params, format })) if (value !== undefined) query.set(key, String(value));
  return fetchFile(`/api/v1/reports/device/file?${query.toString()}`);
};
