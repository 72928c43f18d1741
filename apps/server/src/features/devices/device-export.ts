import { type DeviceRow, inverterTypeLabel } from '@sunward/contracts/devices';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import ExcelJS from 'exceljs';
import type { Cell, TableColumn } from '../../lib/table-file.js';

const STATUS_KEYS = {
  1: 'status.normal',
  2: 'status.offline',
  3: 'status.warning',
  4: 'status.fault',
  5: 'status.upgrading',
  6: 'status.protect',
} as const;

/**
 * A device list as a table: headers in the caller's language and each row's cells. The immediate download
 * writes it into a workbook at once; the background export streams it batch by batch (lib/table-file.ts).
 * `masterSn` names a battery's master (batteries only).
 */
export interface DeviceTable {
  sheetName: string;
  columns: TableColumn[];
  cells(row: DeviceRow, masterSn: (parentId: number) => string | number | null): Cell[];
}

const statusText = (language: Language, status: number) =>
  translate(language, STATUS_KEYS[status as keyof typeof STATUS_KEYS] ?? 'status.offline');
const kilo = (w: number | null) => (w === null ? null : Math.round(w) / 1000);

/** The inverter list: the columns the list shows. */
export function inverterTable(language: Language): DeviceTable {
  const t = (key: Parameters<typeof translate>[1]) => translate(language, key);
  return {
    sheetName: 'Inverters',
    columns: [
      { header: t('devices.col.sn'), width: 18 },
      { header: t('devices.col.alias'), width: 18 },
      { header: t('devices.col.plant'), width: 24 },
      { header: t('devices.col.type'), width: 22 },
      { header: t('devices.col.brand'), width: 14 },
      { header: t('devices.col.model'), width: 16 },
      { header: t('devices.col.ratedKw'), width: 14 },
      { header: t('devices.col.status'), width: 12 },
      { header: t('devices.col.powerKw'), width: 14 },
      { header: t('devices.col.todayKwh'), width: 16 },
      { header: t('devices.col.totalKwh'), width: 16 },
      { header: t('devices.col.gateway'), width: 18 },
      { header: t('devices.col.lastReport'), width: 22 },
    ],
    cells: (r) => [
      r.sn,
      r.alias,
      r.plantName,
      t(`devices.type.${inverterTypeLabel(r.type)}`),
      r.brand,
      r.model,
      kilo(r.ratedPowerW),
      statusText(language, r.status),
      kilo(r.powerW),
      kilo(r.energyTodayWh),
      kilo(r.energyTotalWh),
      r.gatewaySn,
      r.lastReportAt,
    ],
  };
}

/**
 * batteriesDown (spec 02 §7 Firmware upgrade): the batteries with what a batch upgrade needs to choose
 * from — master or slave (slaves cannot be upgraded), firmware version, status.
 */
export function batteryTable(language: Language): DeviceTable {
  const t = (key: Parameters<typeof translate>[1]) => translate(language, key);
  return {
    sheetName: 'Batteries',
    columns: [
      { header: t('devices.col.sn'), width: 18 },
      { header: t('devices.col.master'), width: 18 },
      { header: t('devices.col.plant'), width: 24 },
      { header: t('devices.col.model'), width: 16 },
      { header: t('devices.col.firmware'), width: 16 },
      { header: t('devices.col.status'), width: 12 },
      { header: t('devices.col.soc'), width: 10 },
      { header: t('devices.col.gateway'), width: 18 },
      { header: t('devices.col.lastReport'), width: 22 },
    ],
    cells: (r, masterSn) => [
      r.sn,
      r.parentId === null ? null : masterSn(r.parentId),
      r.plantName,
      r.model,
      r.firmwareVersion,
      statusText(language, r.status),
      r.soc,
      r.gatewaySn,
      r.lastReportAt,
    ],
  };
}

/** A whole (bounded) list as one workbook, for the immediate download. */
async function workbookOf(table: DeviceTable, rows: readonly DeviceRow[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sunward';
  const sheet = workbook.addWorksheet(table.sheetName);
  sheet.columns = table.columns.map((c) => ({ header: c.header, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  const snById = new Map(rows.map((r) => [r.id, r.sn]));
  for (const r of rows) sheet.addRow(table.cells(r, (parentId) => snById.get(parentId) ?? parentId));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The inverter list as a workbook: the columns the list shows, headers and statuses in the caller's language. */
export const devicesWorkbook = (rows: readonly DeviceRow[], language: Language) => workbookOf(inverterTable(language), rows);

/** batteriesDown as a workbook. */
export const batteriesWorkbook = (rows: readonly DeviceRow[], language: Language) => workbookOf(batteryTable(language), rows);
