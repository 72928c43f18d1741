import type { DeviceRow } from '@sunward/contracts/devices';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import ExcelJS from 'exceljs';

const STATUS_KEYS = {
  1: 'status.normal',
  2: 'status.offline',
  3: 'status.warning',
  4: 'status.fault',
  5: 'status.upgrading',
  6: 'status.protect',
} as const;

/** A device list as a workbook: the columns the list shows, headers and statuses in the caller's language. */
export async function devicesWorkbook(
  rows: readonly DeviceRow[],
  language: Language,
  typeText: (code: number | null) => string,
): Promise<Buffer> {
  const t = (key: Parameters<typeof translate>[1]) => translate(language, key);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sunward';
  const sheet = workbook.addWorksheet('Inverters');
  sheet.columns = [
    { header: t('devices.col.sn'), key: 'sn', width: 18 },
    { header: t('devices.col.alias'), key: 'alias', width: 18 },
    { header: t('devices.col.plant'), key: 'plant', width: 24 },
    { header: t('devices.col.type'), key: 'type', width: 22 },
    { header: t('devices.col.brand'), key: 'brand', width: 14 },
    { header: t('devices.col.model'), key: 'model', width: 16 },
    { header: t('devices.col.ratedKw'), key: 'rated', width: 14 },
    { header: t('devices.col.status'), key: 'status', width: 12 },
    { header: t('devices.col.powerKw'), key: 'power', width: 14 },
    { header: t('devices.col.todayKwh'), key: 'today', width: 16 },
    { header: t('devices.col.totalKwh'), key: 'total', width: 16 },
    { header: t('devices.col.gateway'), key: 'gateway', width: 18 },
    { header: t('devices.col.lastReport'), key: 'last', width: 22 },
  ];
  sheet.getRow(1).font = { bold: true };
  const kilo = (w: number | null) => (w === null ? null : Math.round(w) / 1000);
  for (const r of rows)
    sheet.addRow({
      sn: r.sn,
      alias: r.alias,
      plant: r.plantName,
      type: typeText(r.type),
      brand: r.brand,
      model: r.model,
      rated: kilo(r.ratedPowerW),
      status: t(STATUS_KEYS[r.status as keyof typeof STATUS_KEYS] ?? 'status.offline'),
      power: kilo(r.powerW),
      today: kilo(r.energyTodayWh),
      total: kilo(r.energyTotalWh),
      gateway: r.gatewaySn,
      last: r.lastReportAt,
    });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * batteriesDown (spec 02 §7 Firmware upgrade): the batteries under the list's filters with what a batch
 * upgrade needs to choose from — master or slave (slaves cannot be upgraded), firmware version, status.
 */
export async function batteriesWorkbook(rows: readonly DeviceRow[], language: Language): Promise<Buffer> {
  const t = (key: Parameters<typeof translate>[1]) => translate(language, key);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sunward';
  const sheet = workbook.addWorksheet('Batteries');
  sheet.columns = [
    { header: t('devices.col.sn'), key: 'sn', width: 18 },
    { header: t('devices.col.master'), key: 'master', width: 18 },
    { header: t('devices.col.plant'), key: 'plant', width: 24 },
    { header: t('devices.col.model'), key: 'model', width: 16 },
    { header: t('devices.col.firmware'), key: 'firmware', width: 16 },
    { header: t('devices.col.status'), key: 'status', width: 12 },
    { header: t('devices.col.soc'), key: 'soc', width: 10 },
    { header: t('devices.col.gateway'), key: 'gateway', width: 18 },
    { header: t('devices.col.lastReport'), key: 'last', width: 22 },
  ];
  sheet.getRow(1).font = { bold: true };
  const snById = new Map(rows.map((r) => [r.id, r.sn]));
  for (const r of rows)
    sheet.addRow({
      sn: r.sn,
      master: r.parentId === null ? null : (snById.get(r.parentId) ?? r.parentId),
      plant: r.plantName,
      model: r.model,
      firmware: r.firmwareVersion,
      status: t(STATUS_KEYS[r.status as keyof typeof STATUS_KEYS] ?? 'status.offline'),
      soc: r.soc,
      gateway: r.gatewaySn,
      last: r.lastReportAt,
    });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
