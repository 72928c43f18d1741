import '../texts';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { ConnectionLogKind, ConnectionLogRow, MaintenanceLogRow } from '@sunward/contracts/logs';
import { CONNECTION_LOG_KINDS, OPERATION_RESULTS } from '@sunward/contracts/logs';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DatePicker, Empty, Table, Tabs, Tag } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../../app/page-props';
import { FilterSelect, ListPage, ListSearch, useListState } from '../../../components/ListPage';
import { PageTitle } from '../../../components/PageTitle';
import { exactTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { useUrlList } from '../../../lib/use-url-list';
import { exportConnectionLog, exportMaintenanceLog, fetchConnectionLog, fetchMaintenanceLog } from './api';
import { ExportToCentre, useBackgroundExport } from './background-export';
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
function DayRange({ state }: { state: Pick<ReturnType<typeof useListState>, 'text' | 'update'> }) {
  const { t } = useTranslation();
  const from = state.text('from');
  const to = state.text('to');
  return (
    <DatePicker.RangePicker
      aria-label={t('logs.period')}
      value={from && to ? [dayjs(from), dayjs(to)] : null}
      onChange={(range) =>
        state.update({ from: range?.[0]?.format('YYYY-MM-DD') ?? undefined, to: range?.[1]?.format('YYYY-MM-DD') ?? undefined })
      }
    />
  );
}

/** Gateway communication history: connects, disconnects (address, reason, session length), refused reports. */
function ConnectionLog({ route }: PageProps) {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const state = useListState();
  const kind = CONNECTION_LOG_KINDS.find((k) => k === state.text('kind'));
  const filters = { sn: state.text('sn'), kind, from: state.text('from'), to: state.text('to') };
  const log = useQuery({
    queryKey: ['logs', 'communication', filters, state.page, state.size],
    queryFn: () => fetchConnectionLog({ ...filters, page: state.page, size: state.size }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const exporting = useBackgroundExport(() => exportConnectionLog(filters));
  return (
    <ListPage
      title={<PageTitle route={route} />}
      testId="connection-log"
      tools={
        <>
          <ListSearch list={state} name="sn" placeholder={t('logs.snPlaceholder')} />
          <FilterSelect<ConnectionLogKind>
            label={t('logs.allKinds')}
            width={180}
            value={kind}
            onChange={(value) => state.update({ kind: value })}
            options={CONNECTION_LOG_KINDS.map((k) => ({ value: k, label: t(`logs.kind.${k}`) }))}
          />
          <DayRange state={state} />
          <ExportToCentre busy={exporting.busy} run={exporting.run} testId="connection-log-export" />
        </>
      }
    >
      <Table<ConnectionLogRow>
        rowKey="id"
        size="middle"
        loading={log.isLoading}
        dataSource={log.data?.infos ?? []}
        scroll={{ x: 900 }}
        pagination={state.pagination(log.data?.total)}
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
    </ListPage>
  );
}

/** The maintenance log: every change to equipment (operation_log), who, when, what, result. */
function EquipmentChangesLog({ route }: PageProps) {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const state = useListState();
  const result = OPERATION_RESULTS.find((r) => r === state.text('result'));
  const filters = { account: state.text('account'), target: state.text('target'), result, from: state.text('from'), to: state.text('to') };
  const log = useQuery({
    queryKey: ['logs', 'maintenance', filters, state.page, state.size],
    queryFn: () => fetchMaintenanceLog({ ...filters, page: state.page, size: state.size }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  const exporting = useBackgroundExport(() => exportMaintenanceLog(filters));
  return (
    <ListPage
      title={<PageTitle route={route} />}
      testId="maintenance-log"
      tools={
        <>
          <ListSearch list={state} name="target" placeholder={t('logs.targetPlaceholder')} width={200} />
          <ListSearch list={state} name="account" placeholder={t('logs.accountPlaceholder')} width={200} />
          <FilterSelect<(typeof OPERATION_RESULTS)[number]>
            label={t('logs.allResults')}
            width={160}
            value={result}
            onChange={(value) => state.update({ result: value })}
            options={OPERATION_RESULTS.map((r) => ({ value: r, label: t(`logs.result.${r}`) }))}
          />
          <DayRange state={state} />
          <ExportToCentre busy={exporting.busy} run={exporting.run} testId="maintenance-log-export" />
        </>
      }
    >
      <Table<MaintenanceLogRow>
        rowKey="id"
        size="middle"
        loading={log.isLoading}
        dataSource={log.data?.infos ?? []}
        scroll={{ x: 900 }}
        pagination={state.pagination(log.data?.total)}
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
    </ListPage>
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
