import '../texts';
import { CommandLogPageSchema } from '@sunward/contracts/commands';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Empty, Input, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../../app/pages';
import { apiRequest } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { useUrlList } from '../../../lib/use-url-list';
import { exactTime } from '../../plants/list/plant-format';
import { PageTitle } from '../PageTitle';

const PAGE_SIZE = 20;
const STATUS_COLOR: Record<string, string> = {
  ok: 'success',
  pending: 'processing',
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
function CommandLogPage({ route, ops }: PageProps & { ops?: string }) {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const { search, update, page } = useUrlList([], '');
  const sn = search.get('sn') ?? undefined;
  const log = useQuery({
    queryKey: ['commands', 'log', ops ?? 'all', sn ?? '', page],
    queryFn: () => apiRequest('/api/v1/commands', { query: { page, size: PAGE_SIZE, sn, op: ops }, schema: CommandLogPageSchema }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  return (
    <Card title={<PageTitle route={route} />} data-testid="command-log">
      <Input.Search
        allowClear
        placeholder={t('devices.searchPlaceholder')}
        defaultValue={sn}
        onSearch={(value) => update({ sn: value.trim() || undefined })}
        style={{ width: 280, marginBottom: 12 }}
      />
      <Table<Row>
        rowKey="id"
        size="small"
        loading={log.isPending}
        dataSource={(log.data?.infos ?? []) as Row[]}
        scroll={{ x: 1100 }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
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
  return <CommandLogPage route={route} ops="upgrade,cancel_upgrade" />;
}

/** /log/communication: every command sent to devices. */
export function CommunicationLogPage({ route }: PageProps) {
  return <CommandLogPage route={route} />;
}

/** /log/debug: raw register reads and writes of the remote debug console. */
export function DebugLogPage({ route }: PageProps) {
  return <CommandLogPage route={route} ops="read,write" />;
}
