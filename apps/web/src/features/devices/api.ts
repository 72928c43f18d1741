import {
  DaySeriesSchema,
  DEVICE_KIND_INFO,
  DeleteResultSchema,
  DeviceCountsSchema,
  DeviceDetailSchema,
  type DeviceKind,
  DevicePageSchema,
  DeviceRealtimeSchema,
  EnergyBarsSchema,
  type MeterSettings,
  MeterSettingsSchema,
  PvIvSchema,
  WorkdataPageSchema,
} from '@sunward/contracts/devices';
import { DownloadRecordSchema } from '@sunward/contracts/files';
import { z } from 'zod';
import { apiRequest, fetchFile } from '../../lib/api-client';

/** The detail page starts its calls before it commits: their answers stay fresh this long, so mounting does not fetch them again (live pushes invalidate them). */
export const FRESH_MS = 10_000;

export type DeviceQuery = Record<string, string | number | undefined>;

/** Query keys: everything under ['devices', kind] is refetched after a rename or delete. */
export const deviceKeys = {
  kind: (kind: DeviceKind) => ['devices', kind] as const,
  page: (kind: DeviceKind, query: DeviceQuery) => ['devices', kind, 'page', query] as const,
  counts: (kind: DeviceKind, query: DeviceQuery) => ['devices', kind, 'counts', query] as const,
  detail: (kind: DeviceKind, sn: string) => ['devices', kind, 'detail', sn] as const,
  realtime: (kind: DeviceKind, sn: string) => ['devices', kind, 'realtime', sn] as const,
  pvIv: (sn: string) => ['devices', 'inverter', 'pvIv', sn] as const,
  day: (kind: DeviceKind, sn: string, date: string | undefined, days: number, points: string | undefined) =>
    ['devices', kind, 'day', sn, date ?? 'today', days, points ?? 'default'] as const,
  energy: (kind: DeviceKind, sn: string, period: string, date: string) => ['devices', kind, 'energy', sn, period, date] as const,
  meterSettings: (sn: string) => ['devices', 'meter', 'settings', sn] as const,
  workdata: (sn: string, from: string, to: string, page: number) => ['devices', 'workdata', sn, from, to, page] as const,
};

/** Inverter or other device not found (or not the caller's): the page says so itself, no toast. */
const NOT_FOUND = [600, 602];

const base = (kind: DeviceKind) => `/api/v1/${DEVICE_KIND_INFO[kind].singular}`;

export const fetchDevicePage = (kind: DeviceKind, query: DeviceQuery) =>
  apiRequest(`/api/v1/${DEVICE_KIND_INFO[kind].plural}`, { query, schema: DevicePageSchema });

export const fetchDeviceCounts = (kind: DeviceKind, query: DeviceQuery) =>
  apiRequest(`/api/v1/${DEVICE_KIND_INFO[kind].plural}/count`, { query, schema: DeviceCountsSchema });

export const fetchDeviceDetail = (kind: DeviceKind, sn: string) =>
  apiRequest(`${base(kind)}/${encodeURIComponent(sn)}`, { schema: DeviceDetailSchema, tolerate: NOT_FOUND });

export const fetchRealtime = (kind: DeviceKind, sn: string) =>
  apiRequest(`${base(kind)}/${encodeURIComponent(sn)}/realtime`, { schema: DeviceRealtimeSchema, tolerate: NOT_FOUND });

export const fetchPvIv = (sn: string) =>
  apiRequest(`/api/v1/inverter/${encodeURIComponent(sn)}/pvIVRealtime`, { schema: PvIvSchema, tolerate: NOT_FOUND });

export const fetchDay = (kind: DeviceKind, sn: string, date: string | undefined, days: number, points: string | undefined) =>
  apiRequest(`${base(kind)}/${encodeURIComponent(sn)}/day`, {
    query: { date, days, points: points || undefined },
    schema: DaySeriesSchema,
    tolerate: NOT_FOUND,
  });

/**
 * A day curve query. Without date and points it is the device's today with its default points (what the
 * detail page shows first), so the page can start it before it knows the device's time zone.
 */
export const dayQuery = (kind: DeviceKind, sn: string, date?: string, days = 1, points?: string) => ({
  queryKey: deviceKeys.day(kind, sn, date, days, points),
  queryFn: () => fetchDay(kind, sn, date, days, points),
});

export const fetchEnergy = (kind: DeviceKind, sn: string, period: 'month' | 'year' | 'total', date: string) =>
  apiRequest(`${base(kind)}/${encodeURIComponent(sn)}/${period}`, { query: { date: date || undefined }, schema: EnergyBarsSchema });

export const renameDevice = (kind: DeviceKind, id: number, alias: string) =>
  apiRequest(`${base(kind)}/${id}/alias`, { method: 'POST', json: { alias }, schema: z.null(), tolerate: [4] });

export const deleteDevices = (kind: DeviceKind, ids: readonly number[]) =>
  ids.length === 1
    ? apiRequest(`${base(kind)}/${ids[0]}/delete`, { method: 'POST', schema: DeleteResultSchema })
    : apiRequest(`${base(kind)}/batchDelete`, { method: 'POST', json: { ids }, schema: DeleteResultSchema });

export const setMainMeter = (id: number, main: boolean) =>
  apiRequest(`/api/v1/meter/${id}/main`, { method: 'POST', json: { main }, schema: z.null() });

export const fetchMeterSettings = (sn: string) =>
  apiRequest(`/api/v1/meter/${encodeURIComponent(sn)}/settings`, { schema: MeterSettingsSchema });

export const saveMeterSettings = (id: number, settings: MeterSettings) =>
  apiRequest(`/api/v1/meter/${id}/settings/save`, { method: 'POST', json: settings, schema: z.null() });

export const fetchWorkdata = (sn: string, from: string, to: string, page: number, size: number) =>
  apiRequest('/api/v1/workdata', { query: { sn, from, to, page, size }, schema: WorkdataPageSchema, tolerate: [602] });

const queryString = (query: Record<string, unknown>) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  return params;
};

export const exportInverters = (query: DeviceQuery) => fetchFile(`/api/v1/inverters/exportInvertersExcel?${queryString(query)}`);

/** batteriesDown: the batteries under the list's filters, with master/slave and firmware version. */
export const downloadBatteries = (query: DeviceQuery) => fetchFile(`/api/v1/batteriesDown?${queryString(query)}`);

/**
 * The inverter or battery list larger than a page, prepared in the caller's download centre (issue 21) with
 * no row cap: answers its record at once.
 */
export const exportDevicesInBackground = (kind: 'inverter' | 'battery', query: DeviceQuery) =>
  apiRequest(kind === 'battery' ? '/api/v1/batteriesDown/background' : '/api/v1/inverters/exportInvertersExcel/background', {
    method: 'POST',
    query: Object.fromEntries(queryString(query)),
    schema: DownloadRecordSchema,
  });

/** The upgrade records under the log page's filters as .xlsx. */
export const exportUpgradeRecords = (query: Record<string, string | undefined>) =>
  fetchFile(`/api/v1/commands/export?${queryString(query)}`);
