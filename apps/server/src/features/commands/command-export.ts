import type { CommandLogRowSchema } from '@sunward/contracts/commands';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import ExcelJS from 'exceljs';
import type { z } from 'zod';

type LogRow = z.infer<typeof CommandLogRowSchema>;

/** An upgrade's result in the words of the upgrade records page (spec 02 §4 upgrade results). */
function upgradeResult(row: LogRow): 'waiting' | 'upgrading' | 'successful' | 'failed' | 'cancelled' {
  if (row.status === 'queued') return 'waiting';
  if (row.status === 'pending') return 'upgrading';
  if (row.status === 'ok') return 'successful';
  const message = (row.result as { message?: unknown } | null)?.message;
  return message === 'cancelled' ? 'cancelled' : 'failed';
}

/** The upgrade records under the page's filters as a workbook, headers and results in the caller's language. */
export async function upgradeRecordsWorkbook(rows: readonly LogRow[], language: Language): Promise<Buffer> {
  const t = (key: Parameters<typeof translate>[1]) => translate(language, key);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sunward';
  const sheet = workbook.addWorksheet('Upgrades');
  sheet.columns = [
    { header: t('commands.col.time'), key: 'at', width: 22 },
    { header: t('commands.col.account'), key: 'account', width: 22 },
    { header: t('commands.col.device'), key: 'sn', width: 18 },
    { header: t('commands.col.version'), key: 'version', width: 14 },
    { header: t('commands.col.result'), key: 'result', width: 22 },
    { header: t('commands.col.progress'), key: 'progress', width: 12 },
    { header: t('commands.col.message'), key: 'message', width: 40 },
    { header: t('commands.col.finished'), key: 'finished', width: 22 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    const request = (row.request ?? {}) as { version?: unknown };
    const result = (row.result ?? {}) as { progress?: unknown; message?: unknown };
    const state = upgradeResult(row);
    sheet.addRow({
      at: row.at,
      account: row.account,
      sn: row.deviceSn,
      version: typeof request.version === 'string' ? request.version : null,
      result: t(`commands.state.${state}`),
      progress: state === 'successful' ? 100 : typeof result.progress === 'number' ? result.progress : null,
      message: state === 'failed' && typeof result.message === 'string' ? result.message : null,
      finished: row.finishedAt,
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
