import '../texts';
import { CommandLogPageSchema } from '@sunward/contracts/commands';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Empty, Input, Select, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../../app/page-props';
import { useSession } from '../../../app/session';
import { ExportButton } from '../../../components/ExportButton';
import { PageTitle } from '../../../components/PageTitle';
import { apiRequest } from '../../../lib/api-client';
import { exactTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { usePageSize } from '../../../lib/personalized';
import { useUrlList } from '../../../lib/use-url-list';
import { exportUpgradeRecords } from '../api';
import { exportCommandLog } from './api';
import { ExportToCentre, useBackgroundExport } from './background-export';

/** The upgrade results users filter by, as the command statuses behind them (spec 02 §4 upgrade results). */
const RESULT_STATUSES = { waiting: 'queued', upgrading: 'pending', successful: 'ok', failed: 'error,timeout' } as const;
const STATUS_COLOR: Record<string, string> = {
  ok: 'success',
  pending: 'processing',
  queued: 'default',
  error: 'error',
  timeout: 'warning',
  refused: 'default',
};

type Row = {
  id: number;
  at: string;
  account: string;
  deviceSn: string;
  op: string;
  request: unknown;
  status: string;
  result: unknown;
  lateReplyAt: string | null;
};

/** What a command asked and what came back, in a line (the full record is in the API). */
function summary(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/**
 * The command audit as a log (spec 01 §2 /log area): who sent what to which device, when, and the
 * result, newest first, searchable by device SN. `ops` narrows it: upgrades, debug reads and writes, or all.
 */
function CommandLogPage({ route, ops, upgrades = false }: PageProps & { ops?: string; upgrades?: boolean }) {
  const { t } = useTranslation();
  const pageSize = usePageSize();
  const { has } = useSession();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const { search, update, page } = useUrlList([], '');
  const sn = search.get('sn') ?? undefined;
  const result = search.get('result') ?? undefined;
  const from = search.get('from') ?? undefined;
  const to = search.get('to') ?? undefined;
  const filters = {
    sn,
    status: result ? RESULT_STATUSES[result as keyof typeof RESULT_STATUSES] : undefined,
    from: from ? dayjs(from).startOf('day').toISOString() : undefined,
    to: to ? dayjs(to).add(1, 'day').startOf('day').toISOString() : undefined,
  };
  const log = useQuery({
    queryKey: ['commands', 'log', ops ?? 'all', filters, page],
    queryFn: () => apiRequest('/api/v1/commands', { query: { page, size: pageSize, op: ops, ...filters }, schema: CommandLogPageSchema }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  // Larger than a page (or any debug and command log): prepared in the download centre, no row cap (issue 21).
  const background = useBackgroundExport(() => exportCommandLog({ ...filters, op: ops }));
  const takeOver = async () => {
    if ((log.data?.total ?? 0) <= pageSize) return false;
    await background.run();
    return true;
  };
  return (
    <Card title={<PageTitle route={route} />} data-testid="command-log">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('devices.searchPlaceholder')}
          defaultValue={sn}
          onSearch={(value) => update({ sn: value.trim() || undefined })}
          style={{ width: 280 }}
        />
        {upgrades && (
          <>
            <Select
              allowClear
              placeholder={t('upgrades.filterResult')}
              aria-label={t('upgrades.filterResult')}
              style={{ width: 200 }}
              value={result}
              onChange={(value?: string) => update({ result: value })}
              options={Object.keys(RESULT_STATUSES).map((key) => ({ value: key, label: t(`upgrades.state.${key}`) }))}
              data-testid="log-result"
            />
            <DatePicker.RangePicker
              value={from && to ? [dayjs(from), dayjs(to)] : null}
              onChange={(range) =>
                update({ from: range?.[0]?.format('YYYY-MM-DD') ?? undefined, to: range?.[1]?.format('YYYY-MM-DD') ?? undefined })
              }
            />
            {has('logger.upgrade.record') && (
              <ExportButton
                fetchFile={() => exportUpgradeRecords(filters)}
                fallbackName={() => 'upgrade-records.xlsx'}
                label={t('upgrades.export')}
                failText={t('upgrades.exportFailed')}
                takeOver={takeOver}
                testId="log-export"
              />
            )}
          </>
        )}
        {!upgrades && <ExportToCentre busy={background.busy} run={background.run} testId="command-log-export" />}
      </Space>
      <Table<Row>
        rowKey="id"
        size="small"
        loading={log.isPending}
        dataSource={(log.data?.infos ?? []) as Row[]}
        scroll={{ x: 1100 }}
        pagination={{
          current: page,
          pageSize: pageSize,
          total: log.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (p) => update({ page: String(p) }),
        }}
        columns={[
          { key: 'at', title: t('devices.time'), width: 180, render: (_, r) => exactTime(r.at, locale) },
          { key: 'account', title: t('devices.logAccount'), dataIndex: 'account' },
          { key: 'sn', title: t('devices.colSn'), dataIndex: 'deviceSn' },
          { key: 'op', title: t('devices.logOp'), render: (_, r) => <Tag>{r.op}</Tag> },
          {
            key: 'status',
            title: t('devices.commandStatus'),
            render: (_, r) => (
              <Tag color={STATUS_COLOR[r.status] ?? 'default'} data-status={r.status}>
                {t(`devices.commandStatus.${r.status}`)}
                {r.lateReplyAt ? ` · ${t('devices.logLate')}` : ''}
              </Tag>
            ),
          },
          {
            key: 'detail',
            title: t('devices.logDetail'),
            render: (_, r) => (
              <Typography.Text type="secondary" className="sw-log-detail">
                {summary(r.request)} {r.result ? `→ ${summary(r.result)}` : ''}
              </Typography.Text>
            ),
          },
        ]}
        locale={{ emptyText: <Empty description={t('devices.logEmpty')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
      />
    </Card>
  );
}

/** /log/uphold: upgrade records. */
export function UpgradeLogPage({ route }: PageProps) {
  return <CommandLogPage route={route} ops="upgrade,cancel_upgrade" upgrades />;
}

/** /log/communication: every command sent to devices. */
export function CommunicationLogPage({ route }: PageProps) {
  return <CommandLogPage route={route} />;
}

/** /log/debug: raw register reads and writes of the remote debug console. */
export function DebugLogPage({ route }: PageProps) {
  return <CommandLogPage route={route} ops="read,write" />;
}
