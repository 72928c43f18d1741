import '../../../components/list-page.css';
import './gateway-list.css';
import '../texts';
import {
  CloudUploadOutlined,
  DeleteOutlined,
  EditOutlined,
  KeyOutlined,
  LockOutlined,
  MoreOutlined,
  ReloadOutlined,
  SwapOutlined,
  UnlockOutlined,
  UploadOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { GatewayCounts, GatewayRow } from '@sunward/contracts/gateways';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { formatNumber } from '@sunward/contracts/units';
import { aliasProblem } from '@sunward/contracts/validators';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Dropdown,
  Empty,
  Input,
  type MenuProps,
  Modal,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PageProps } from '../../../app/page-props';
import { useSession } from '../../../app/session';
import { useListState } from '../../../components/ListPage';
import { PageTitle } from '../../../components/PageTitle';
import { ActionsTitle } from '../../../components/VisuallyHidden';
import { registerTexts } from '../../../lib/feature-texts';
import { exactTime, relativeTime, STATUS_STYLE } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { fetchPlantOptions, PLANT_OPTIONS_KEY } from '../../../lib/plant-options';
import { DeviceUpgrade } from '../detail/UpgradePanel';
import { gatewayTexts } from '../texts/gateways';
import {
  deleteGateway,
  fetchGatewayCounts,
  fetchGatewayPage,
  type GatewayQuery,
  gatewayKeys,
  refusalMessage,
  renameGateway,
  setDigitalOutput,
  setLocked,
} from './api';
import { ConnectionPasswordModal, ReplaceGatewayModal, ServerAddressModal } from './GatewayModals';
import { GatewayRefusalsDrawer } from './GatewayRefusals';
import { ImportGatewaysModal } from './ImportGatewaysModal';

registerTexts(gatewayTexts);

const REFRESH_MS = 30_000;

type Dialog = { kind: 'server' | 'password' | 'replace' | 'upgrade' | 'refusals'; row: GatewayRow } | { kind: 'import' } | null;

/** Signal strength in four bars: ≥ −70 dBm excellent, ≥ −85 good, ≥ −100 fair, weaker poor. */
export function signalBars(rssi: number | null): { bars: number; color: string } {
  if (rssi === null) return { bars: 0, color: '#bfbfbf' };
  if (rssi >= -70) return { bars: 4, color: '#52c41a' };
  if (rssi >= -85) return { bars: 3, color: '#52c41a' };
  if (rssi >= -100) return { bars: 2, color: '#fa8c16' };
  return { bars: 1, color: '#f5222d' };
}

function SignalBars({ rssi }: { rssi: number | null }) {
  const { t } = useTranslation();
  if (rssi === null) return <Typography.Text type="secondary">--</Typography.Text>;
  const { bars, color } = signalBars(rssi);
  return (
    <Tooltip title={t('gateways.dbm', { value: rssi })}>
      <span className="sw-signal" role="img" aria-label={t('gateways.dbm', { value: rssi })} data-bars={bars}>
        {[1, 2, 3, 4].map((level) => (
          <span key={level} className="sw-signal-bar" style={{ height: 3 + level * 3, background: level <= bars ? color : '#e5e7eb' }} />
        ))}
      </span>
    </Tooltip>
  );
}

function CountCards({
  counts,
  active,
  onPick,
}: {
  counts: GatewayCounts | undefined;
  active: string | undefined;
  onPick(status?: string): void;
}) {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const cards = [
    { status: undefined, field: 'total', label: 'gateways.countTotal', color: '#334155' },
    { status: 'online', field: 'online', label: 'gateways.countOnline', color: STATUS_STYLE[1].color },
    { status: 'offline', field: 'offline', label: 'gateways.countOffline', color: STATUS_STYLE[2].color },
  ] as const;
  return (
    <nav className="sw-plant-counts sw-gateway-counts" aria-label={t('gateways.countsLabel')}>
      {cards.map((card) => {
        const isActive = card.status === active;
        return (
          <a
            key={card.field}
            href={card.status ? `?status=${card.status}` : '?'}
            onClick={(event) => {
              event.preventDefault();
              onPick(isActive ? undefined : card.status);
            }}
            className={`sw-plant-count${isActive ? ' is-active' : ''}`}
            style={{ '--sw-status': card.color } as CSSProperties}
            aria-current={isActive ? 'true' : undefined}
            data-testid={`gateway-count-${card.field}`}
          >
            <span className="sw-plant-count-label">
              <span className="sw-plant-count-dot" aria-hidden />
              {t(card.label)}
            </span>
            <span className="sw-plant-count-value">{counts ? formatNumber(counts[card.field], locale, 0) : '–'}</span>
          </a>
        );
      })}
    </nav>
  );
}

/** The alias, edited in place: at most 32 bytes and no special characters, checked here and by the server. */
function AliasCell({ row, editable }: { row: GatewayRow; editable: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const rename = useMutation({
    mutationFn: (alias: string) => renameGateway(row.id, alias),
    onSuccess: () => {
      void message.success(t('gateways.renamed'));
      void queryClient.invalidateQueries({ queryKey: gatewayKeys.all });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('gateways.requestFailed')),
  });
  const text = row.alias ?? '';
  if (!editable) return <span>{text || '--'}</span>;
  return (
    <Typography.Text
      className="sw-gateway-alias"
      editable={{
        icon: <EditOutlined aria-label={t('gateways.rename')} />,
        tooltip: t('gateways.rename'),
        maxLength: 64,
        onChange: (value) => {
          const next = value.trim();
          if (next === text) return;
          const problem = aliasProblem(next);
          if (problem) {
            void message.error(t(problem === 'tooLong' ? 'gateways.aliasTooLong' : 'gateways.aliasSpecial'));
            return;
          }
          rename.mutate(next);
        },
      }}
      data-testid="gateway-alias"
    >
      {text}
    </Typography.Text>
  );
}

/**
 * The gateway list (spec 02 §2 Equipment, §3 Gateway): online/offline counts that filter, search by SN
 * or alias, plant, status and lock filters in the address, server-side sorting and paging, and the
 * actions the caller's permissions and level allow, each applied over the protocol where it concerns
 * the gateway itself. Refreshes every 30 s.
 */
export function GatewayListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const { has } = useSession();
  const queryClient = useQueryClient();
  const listState = useListState(['sn', 'lastOnlineAt'] as const, 'sn');
  const { search, update, page, sort, order, sortOrder, onTableChange } = listState;
  const [dialog, setDialog] = useState<Dialog>(null);

  const filters = {
    keyword: search.get('keyword') ?? undefined,
    status: search.get('status') ?? undefined,
    locked: search.get('locked') ?? undefined,
    plantId: search.get('plantId') ?? undefined,
  } satisfies GatewayQuery;
  const query: GatewayQuery = { ...filters, page, size: listState.size, sort, order };

  const countsQuery = { keyword: filters.keyword, locked: filters.locked, plantId: filters.plantId };
  const counts = useQuery({
    queryKey: gatewayKeys.counts(countsQuery),
    queryFn: () => fetchGatewayCounts(countsQuery),
    refetchInterval: REFRESH_MS,
  });
  const list = useQuery({
    queryKey: gatewayKeys.page(query),
    queryFn: () => fetchGatewayPage(query),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const plants = useQuery({ queryKey: PLANT_OPTIONS_KEY, queryFn: fetchPlantOptions, staleTime: 60_000 });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: gatewayKeys.all });
  const fail = (error: unknown) => void message.error(refusalMessage(error) ?? t('gateways.requestFailed'));

  const lock = useMutation({
    mutationFn: ({ row, locked }: { row: GatewayRow; locked: boolean }) => setLocked(row.id, locked),
    onSuccess: (_, { row, locked }) => {
      void message.success(t(locked ? 'gateways.nowLocked' : 'gateways.nowUnlocked', { sn: row.sn }));
      refresh();
    },
    onError: fail,
  });
  const output = useMutation({
    mutationFn: ({ row, on }: { row: GatewayRow; on: boolean }) => setDigitalOutput(row.id, on),
    onSuccess: () => {
      void message.success(t('gateways.applied'));
      refresh();
    },
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (row: GatewayRow) => deleteGateway(row.id),
    onSuccess: () => {
      void message.success(t('gateways.deleted'));
      refresh();
    },
    onError: fail,
  });

  const confirmLock = (row: GatewayRow) =>
    void modal.confirm({
      title: t('gateways.lockTitle', { sn: row.sn }),
      content: t('gateways.lockWarning'),
      okText: t('gateways.lock'),
      cancelText: t('gateways.cancel'),
      okButtonProps: { id: 'confirm-lock' },
      onOk: () => lock.mutateAsync({ row, locked: true }).catch(() => undefined),
    });
  const confirmDelete = (row: GatewayRow) =>
    void modal.confirm({
      title: t('gateways.deleteTitle', { sn: row.sn }),
      content: t('gateways.deleteWarning'),
      okText: t('gateways.delete'),
      cancelText: t('gateways.cancel'),
      okButtonProps: { danger: true, id: 'confirm-delete' },
      onOk: () => remove.mutateAsync(row).catch(() => undefined),
    });

  const canEdit = (row: GatewayRow) => has('gateway.edit') && row.access !== 'view';
  const canManage = (row: GatewayRow) => row.access === 'manage';

  const menuOf = (row: GatewayRow): MenuProps['items'] => [
    { key: 'refusals', icon: <WarningOutlined />, label: t('gatewayRefusals.open') },
    ...(has('gateway.edit') && canManage(row)
      ? [
          { key: 'server', icon: <EditOutlined />, label: t('gateways.colServer'), disabled: row.locked },
          row.locked
            ? { key: 'unlock', icon: <UnlockOutlined />, label: t('gateways.unlock') }
            : { key: 'lock', icon: <LockOutlined />, label: t('gateways.lock') },
          { key: 'password', icon: <KeyOutlined />, label: t('gateways.password'), disabled: row.locked },
        ]
      : []),
    ...(has('gateway.edit') && row.access !== 'view'
      ? [{ key: 'upgrade', icon: <CloudUploadOutlined />, label: t('devices.upgrade'), disabled: row.locked }]
      : []),
    ...(has('gateway.replace') && canManage(row) ? [{ key: 'replace', icon: <SwapOutlined />, label: t('gateways.replace') }] : []),
    ...(has('gateway.delete') && canManage(row)
      ? [{ key: 'delete', icon: <DeleteOutlined />, label: t('gateways.delete'), danger: true }]
      : []),
  ];

  const onMenu = (row: GatewayRow, key: string) => {
    if (key === 'server' || key === 'password' || key === 'replace' || key === 'upgrade' || key === 'refusals')
      setDialog({ kind: key, row });
    else if (key === 'lock') confirmLock(row);
    else if (key === 'unlock') lock.mutate({ row, locked: false });
    else if (key === 'delete') confirmDelete(row);
  };

  const columns: ColumnsType<GatewayRow> = [
    {
      key: 'sn',
      title: t('gateways.colSn'),
      sorter: true,
      sortOrder: sortOrder('sn'),
      fixed: 'left',
      width: 170,
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid="gateway-sn">
            {row.sn}
          </Typography.Text>
          <AliasCell row={row} editable={canEdit(row)} />
        </Space>
      ),
    },
    {
      key: 'plant',
      width: 160,
      title: t('gateways.colPlant'),
      render: (_, row) =>
        row.plantId ? (
          <Link to={`/plants/overview/${row.plantId}/1`}>{row.plantName}</Link>
        ) : (
          <Typography.Text type="secondary">{t('gateways.noPlant')}</Typography.Text>
        ),
    },
    {
      key: 'status',
      width: 100,
      title: t('gateways.colStatus'),
      render: (_, row) => (
        <Tag color={row.online ? 'success' : 'default'} variant="filled" data-status={row.online ? 'online' : 'offline'}>
          {t(row.online ? 'gateways.countOnline' : 'gateways.countOffline')}
        </Tag>
      ),
    },
    { key: 'rssi', width: 80, title: t('gateways.colSignal'), render: (_, row) => <SignalBars rssi={row.rssi} /> },
    {
      key: 'locked',
      width: 120,
      title: t('gateways.colLock'),
      render: (_, row) =>
        row.locked ? (
          <Tag color="orange" icon={<LockOutlined />} data-testid="gateway-locked">
            {t('gateways.locked')}
          </Tag>
        ) : (
          <Tag icon={<UnlockOutlined />}>{t('gateways.unlocked')}</Tag>
        ),
    },
    {
      key: 'output',
      width: 140,
      title: t('gateways.colOutput'),
      render: (_, row) => (
        <Switch
          size="small"
          checked={row.digitalOutput === true}
          checkedChildren={t('gateways.outputOn')}
          unCheckedChildren={t('gateways.outputOff')}
          disabled={!canEdit(row) || row.locked || !row.online}
          loading={output.isPending && output.variables?.row.id === row.id}
          onChange={(on) => output.mutate({ row, on })}
          aria-label={t('gateways.colOutput')}
          data-testid="gateway-output"
        />
      ),
    },
    {
      key: 'lastOnlineAt',
      width: 140,
      title: t('gateways.colLastOnline'),
      sorter: true,
      sortOrder: sortOrder('lastOnlineAt'),
      render: (_, row) =>
        row.lastOnlineAt ? (
          <Tooltip title={exactTime(row.lastOnlineAt, locale)}>{relativeTime(row.lastOnlineAt, Date.now(), locale)}</Tooltip>
        ) : (
          t('gateways.never')
        ),
    },
    { key: 'comm', width: 130, title: t('gateways.colComm'), render: (_, row) => row.commType ?? '--' },
    { key: 'iccid', width: 200, title: t('gateways.colIccid'), render: (_, row) => row.iccid ?? '--' },
    {
      key: 'versions',
      width: 170,
      title: t('gateways.colVersions'),
      render: (_, row) => `${row.hwVersion ?? '--'} / ${row.fwVersion ?? '--'}`,
    },
    { key: 'lastIp', width: 130, title: t('gateways.colLastIp'), render: (_, row) => row.lastIp ?? '--' },
    { key: 'server', width: 190, title: t('gateways.colServer'), render: (_, row) => row.serverAddress ?? t('gateways.notSet') },
    { key: 'devices', width: 90, title: t('gateways.colDevices'), align: 'right', render: (_, row) => row.deviceCount },
    {
      key: 'actions',
      title: <ActionsTitle />,
      fixed: 'right',
      width: 56,
      render: (_, row) => {
        const items = menuOf(row);
        if (!items || items.length === 0) return null;
        return (
          <Dropdown menu={{ items, onClick: ({ key }) => onMenu(row, key) }} trigger={['click']}>
            <Button size="small" type="text" icon={<MoreOutlined />} aria-label={t('gateways.more')} data-testid="gateway-actions" />
          </Dropdown>
        );
      },
    },
  ];

  const rows = list.data?.infos ?? [];
  const filtered = Object.values(filters).some((v) => v !== undefined && v !== '');

  return (
    <div className="sw-device-list sw-gateway-list" data-testid="gateway-list">
      <PageTitle route={route} />
      <CountCards counts={counts.data} active={filters.status} onPick={(status) => update({ status })} />
      <Card size="small">
        <div className="sw-gateway-toolbar">
          <Space wrap>
            <Input.Search
              allowClear
              placeholder={t('gateways.searchPlaceholder')}
              defaultValue={filters.keyword}
              onSearch={(value) => update({ keyword: value.trim() || undefined })}
              style={{ width: 240 }}
              data-testid="gateway-search"
            />
            <Select
              aria-label={t('gateways.filterPlant')}
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('gateways.filterPlant')}
              style={{ width: 220 }}
              value={filters.plantId === undefined ? undefined : Number(filters.plantId)}
              onChange={(value?: number) => update({ plantId: value === undefined ? undefined : String(value) })}
              options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            />
            <Select
              aria-label={t('gateways.filterStatus')}
              allowClear
              placeholder={t('gateways.filterStatus')}
              style={{ width: 150 }}
              value={filters.status}
              onChange={(value?: string) => update({ status: value })}
              options={[
                { value: 'online', label: t('gateways.countOnline') },
                { value: 'offline', label: t('gateways.countOffline') },
              ]}
            />
            <Select
              aria-label={t('gateways.filterLock')}
              allowClear
              placeholder={t('gateways.filterLock')}
              style={{ width: 150 }}
              value={filters.locked}
              onChange={(value?: string) => update({ locked: value })}
              options={[
                { value: 'true', label: t('gateways.locked') },
                { value: 'false', label: t('gateways.unlocked') },
              ]}
              data-testid="gateway-lock-filter"
            />
          </Space>
          <Space>
            <Tooltip title={t('gateways.refresh')}>
              <Button icon={<ReloadOutlined />} aria-label={t('gateways.refresh')} onClick={refresh} />
            </Tooltip>
            {has('gateway.import') && (
              <Button type="primary" icon={<UploadOutlined />} onClick={() => setDialog({ kind: 'import' })} data-testid="gateway-import">
                {t('gateways.import')}
              </Button>
            )}
          </Space>
        </div>
        <Table<GatewayRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={list.isPending}
          scroll={{ x: 1850 }}
          pagination={listState.pagination(list.data?.total, (total) => t('gateways.total', { count: total }), true)}
          onChange={onTableChange}
          locale={{
            emptyText: filtered ? (
              <Empty description={t('gateways.emptyFiltered')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <Empty
                description={
                  <Space direction="vertical" size={4}>
                    <Typography.Text strong>{t('gateways.emptyTitle')}</Typography.Text>
                    <Typography.Text type="secondary">{t('gateways.emptyHint')}</Typography.Text>
                  </Space>
                }
                data-testid="gateway-empty"
              />
            ),
          }}
          data-testid="gateway-table"
        />
      </Card>
      {dialog?.kind === 'import' && <ImportGatewaysModal onClose={() => setDialog(null)} />}
      {dialog?.kind === 'refusals' && <GatewayRefusalsDrawer row={dialog.row} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'server' && <ServerAddressModal row={dialog.row} locale={locale} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'password' && <ConnectionPasswordModal row={dialog.row} locale={locale} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'replace' && <ReplaceGatewayModal row={dialog.row} locale={locale} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'upgrade' && (
        <Modal
          open
          width={640}
          title={t('upgrades.gatewayTitle', { sn: dialog.row.sn })}
          footer={null}
          onCancel={() => {
            setDialog(null);
            void queryClient.invalidateQueries({ queryKey: gatewayKeys.all });
          }}
        >
          {!dialog.row.online && <Alert type="warning" showIcon message={t('upgrades.offlineQueued')} style={{ marginBottom: 12 }} />}
          <DeviceUpgrade target="gateway" sn={dialog.row.sn} canOperate={dialog.row.access !== 'view'} />
        </Modal>
      )}
    </div>
  );
}
