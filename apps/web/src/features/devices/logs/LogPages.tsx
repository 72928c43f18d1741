import '../texts';
import { DownloadOutlined } from '@ant-design/icons';
import type { DownloadRecord } from '@sunward/contracts/files';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { ConnectionLogRow, MaintenanceLogRow } from '@sunward/contracts/logs';
import { CONNECTION_LOG_KINDS, OPERATION_RESULTS } from '@sunward/contracts/logs';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Empty, Input, Select, Space, Table, Tabs, Tag } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PageProps } from '../../../app/page-props';
import { PageTitle } from '../../../components/PageTitle';
import { exactTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { usePageSize } from '../../../lib/personalized';
import { useUrlList } from '../../../lib/use-url-list';
import { exportConnectionLog, exportMaintenanceLog, fetchConnectionLog, fetchMaintenanceLog } from './api';
import { CommunicationLogPage, UpgradeLogPage } from './CommandLogPages';

const KIND_COLOR: Record<string, string> = { connect: 'success', disconnect: 'default', refused: 'error' };
const RESULT_COLOR: Record<string, string> = { ok: 'success', refused: 'warning', failed: 'error' };

/** A session's length as "2 h 05 min", "4 min 10 s" or "12 s". */
export function sessionLength(seconds: number | null): string {
  if (seconds === null) return '—';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, '0')} s`;
  return `${s} s`;
}

/** The period filter both logs share: two days in the address (from, to). */
function usePeriod() {
  const { search, update, page } = useUrlList([], '');
  const from = search.get('from') ?? undefined;
  const to = search.get('to') ?? undefined;
  return { search, update, page, from, to };
}

/** Starts a background export and says where to follow it. */
function useBackgroundExport(start: () => Promise<DownloadRecord>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const record = await start();
      void message.success({
        content: (
          <span data-testid="log-export-started">
            {t('logs.exportStarted', { name: record.fileName })}{' '}
            <Link to="/download-center" style={{ color: 'inherit', textDecoration: 'underline' }}>
              {t('logs.openDownloads')}
            </Link>
          </span>
        ),
        duration: 8,
      });
    } catch {
      // The client already showed the server's refusal.
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

function PeriodPicker({ from, to, update }: { from?: string; to?: string; update: (c: Record<string, string | undefined>) => void }) {
  const { t } = useTranslation();
  return (
    <DatePicker.RangePicker
      aria-label={t('logs.period')}
      value={from && to ? [dayjs(from), dayjs(to)] : null}
      onChange={(range) =>
        update({ from: range?.[0]?.format('YYYY-MM-DD') ?? undefined, to: range?.[1]?.format('YYYY-MM-DD') ?? undefined })
      }
    />
  );
}

/** Gateway communication history: connects, disconnects (address, reason, session length), refused reports. */
function ConnectionLog({ route }: PageProps) {
  const { t } = useTranslation();
  const pageSize = usePageSize();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const { search, update, page, from, to } = usePeriod();
  const sn = search.get('sn') ?? undefined;
  const kind = search.get('kind') ?? undefined;
  const filters = { sn, kind, from, to };
  const log = useQuery({
    queryKey: ['logs', 'communication', filters, page, pageSize],
    queryFn: () => fetchConnectionLog({ ...filters, page, size: pageSize }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const exporting = useBackgroundExport(() => exportConnectionLog(filters));
  return (
    <Card title={<PageTitle route={route} />} data-testid="connection-log">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('logs.snPlaceholder')}
          aria-label={t('logs.snPlaceholder')}
          defaultValue={sn}
          onSearch={(value) => update({ sn: value.trim() || undefined })}
          style={{ width: 240 }}
        />
        <Select
          allowClear
          placeholder={t('logs.allKinds')}
          aria-label={t('logs.colKind')}
          style={{ width: 180 }}
          value={kind}
          onChange={(value?: string) => update({ kind: value })}
          options={CONNECTION_LOG_KINDS.map((k) => ({ value: k, label: t(`logs.kind.${k}`) }))}
        />
        <PeriodPicker from={from} to={to} update={update} />
        <Button
          icon={<DownloadOutlined />}
          loading={exporting.busy}
          onClick={() => void exporting.run()}
          data-testid="connection-log-export"
        >
          {t('logs.export')}
        </Button>
      </Space>
      <Table<ConnectionLogRow>
        rowKey="id"
        size="middle"
        loading={log.isLoading}
        dataSource={log.data?.infos ?? []}
        scroll={{ x: 900 }}
        pagination={{
          current: page,
          pageSize,
          total: log.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (p) => update({ page: String(p) }),
        }}
        locale={{ emptyText: <Empty description={t('logs.emptyConnections')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
        columns={[
          { title: t('logs.colAt'), dataIndex: 'at', width: 190, render: (iso: string) => exactTime(iso, locale) },
          { title: t('logs.colGateway'), dataIndex: 'gatewaySn', width: 160 },
          {
            title: t('logs.colKind'),
            dataIndex: 'kind',
            width: 140,
            render: (k: string) => (
              <Tag color={KIND_COLOR[k]} data-kind={k}>
                {t(`logs.kind.${k}`)}
              </Tag>
            ),
          },
          { title: t('logs.colAddress'), dataIndex: 'address', width: 150, render: (a: string | null) => a ?? '—' },
          { title: t('logs.colReason'), dataIndex: 'reason', render: (r: string | null) => r ?? '—' },
          { title: t('logs.colSession'), dataIndex: 'sessionSeconds', width: 140, render: sessionLength },
          { title: t('logs.colCount'), dataIndex: 'count', width: 90, align: 'right', render: (n: number | null) => n ?? '—' },
        ]}
      />
    </Card>
  );
}

/** The maintenance log: every change to equipment (operation_log), who, when, what, result. */
function EquipmentChangesLog({ route }: PageProps) {
  const { t } = useTranslation();
  const pageSize = usePageSize();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const { search, update, page, from, to } = usePeriod();
  const account = search.get('account') ?? undefined;
  const target = search.get('target') ?? undefined;
  const result = search.get('result') ?? undefined;
  const filters = { account, target, result, from, to };
  const log = useQuery({
    queryKey: ['logs', 'maintenance', filters, page, pageSize],
    queryFn: () => fetchMaintenanceLog({ ...filters, page, size: pageSize }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  const exporting = useBackgroundExport(() => exportMaintenanceLog(filters));
  return (
    <Card title={<PageTitle route={route} />} data-testid="maintenance-log">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('logs.targetPlaceholder')}
          aria-label={t('logs.targetPlaceholder')}
          defaultValue={target}
          onSearch={(value) => update({ target: value.trim() || undefined })}
          style={{ width: 220 }}
        />
        <Input.Search
          allowClear
          placeholder={t('logs.accountPlaceholder')}
          aria-label={t('logs.accountPlaceholder')}
          defaultValue={account}
          onSearch={(value) => update({ account: value.trim() || undefined })}
          style={{ width: 220 }}
        />
        <Select
          allowClear
          placeholder={t('logs.allResults')}
          aria-label={t('logs.colResult')}
          style={{ width: 160 }}
          value={result}
          onChange={(value?: string) => update({ result: value })}
          options={OPERATION_RESULTS.map((r) => ({ value: r, label: t(`logs.result.${r}`) }))}
        />
        <PeriodPicker from={from} to={to} update={update} />
        <Button
          icon={<DownloadOutlined />}
          loading={exporting.busy}
          onClick={() => void exporting.run()}
          data-testid="maintenance-log-export"
        >
          {t('logs.export')}
        </Button>
      </Space>
      <Table<MaintenanceLogRow>
        rowKey="id"
        size="middle"
        loading={log.isLoading}
        dataSource={log.data?.infos ?? []}
        scroll={{ x: 900 }}
        pagination={{
          current: page,
          pageSize,
          total: log.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (p) => update({ page: String(p) }),
        }}
        locale={{ emptyText: <Empty description={t('logs.emptyChanges')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
        columns={[
          { title: t('logs.colAt'), dataIndex: 'at', width: 190, render: (iso: string) => exactTime(iso, locale) },
          { title: t('logs.colAccount'), dataIndex: 'account', width: 200 },
          { title: t('logs.colAction'), dataIndex: 'action', width: 180 },
          { title: t('logs.colTarget'), dataIndex: 'target', width: 160 },
          {
            title: t('logs.colResult'),
            dataIndex: 'result',
            width: 120,
            render: (r: string) => <Tag color={RESULT_COLOR[r]}>{t(`logs.result.${r}`, { defaultValue: r })}</Tag>,
          },
          { title: t('logs.colDetail'), dataIndex: 'detail', render: (d: string | null) => d ?? '—' },
        ]}
      />
    </Card>
  );
}

/** Tabs kept in the address (?tab=) so a link opens the same view. */
function LogTabs({ items, fallback }: { items: { key: string; label: string; children: ReactNode }[]; fallback: string }) {
  const { search, update } = useUrlList([], '');
  const active = items.some((i) => i.key === search.get('tab')) ? (search.get('tab') ?? fallback) : fallback;
  return <Tabs activeKey={active} onChange={(key) => update({ tab: key === fallback ? undefined : key })} items={items} destroyOnHidden />;
}

/** /log/uphold, the maintenance log: upgrade records and every other change to equipment. */
export function MaintenanceLogPage(props: PageProps) {
  const { t } = useTranslation();
  return (
    <LogTabs
      fallback="upgrades"
      items={[
        { key: 'upgrades', label: t('logs.tabUpgrades'), children: <UpgradeLogPage {...props} /> },
        { key: 'changes', label: t('logs.tabChanges'), children: <EquipmentChangesLog {...props} /> },
      ]}
    />
  );
}

/** /log/communication: the gateways' connections and refused reports, and the commands sent to devices. */
export function CommunicationHistoryPage(props: PageProps) {
  const { t } = useTranslation();
  return (
    <LogTabs
      fallback="connections"
      items={[
        { key: 'connections', label: t('logs.tabConnections'), children: <ConnectionLog {...props} /> },
        { key: 'commands', label: t('logs.tabCommands'), children: <CommunicationLogPage {...props} /> },
      ]}
    />
  );
}
