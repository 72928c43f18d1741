import '../../../lib/texts/plants';
import '../../../components/list-page.css';
import '../texts';
import { CloudUploadOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { DeviceKind, DeviceRow } from '@sunward/contracts/devices';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { DEVICE_KIND_ACCESS, type PermissionKey } from '@sunward/contracts/permissions';
import { formatEnergy, formatPower } from '@sunward/contracts/units';
import { isDeviceAlias } from '@sunward/contracts/validators';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../app/session';
import { ExportButton } from '../../../components/ExportButton';
import { useListState } from '../../../components/ListPage';
import { StatusCounts } from '../../../components/StatusCounts';
import { StatusTag } from '../../../components/StatusTag';
import { ApiCallError } from '../../../lib/api-client';
import { relativeTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import {
  type DeviceQuery,
  deleteDevices,
  deviceKeys,
  downloadBatteries,
  exportDevicesInBackground,
  exportInverters,
  fetchDeviceCounts,
  fetchDeviceDetail,
  fetchDevicePage,
  renameDevice,
} from '../api';
import { detailPathOf, inverterTypeName } from '../device-format';
import { ExportStartedNote } from '../logs/background-export';
import { BatteryBatchUpgrade } from './BatteryBatchUpgrade';
import './device-list.css';
import { IconActions } from '../../../components/IconActions';
import { ActionsTitle } from '../../../components/VisuallyHidden';

const REFRESH_MS = 30_000;
const DEVICE_SORTS = ['sn', 'alias', 'status', 'powerW', 'energyTodayWh', 'energyTotalWh', 'lastReportAt', 'plantName'] as const;

/** Permission keys of a kind's buttons (spec 01 §2, shared with the server's routes). */
const KIND_KEYS: Record<DeviceKind, { edit: PermissionKey; remove: PermissionKey; export?: PermissionKey }> = {
  ...DEVICE_KIND_ACCESS,
  inverter: { ...DEVICE_KIND_ACCESS.inverter, export: 'inverter.export' },
};

const INVERTER_TYPES = [1, 2, 3, 4, 93, 94] as const;

/** Kinds whose devices count energy (today's and lifetime columns); a battery or weather station does not. */
const HAS_ENERGY: Record<DeviceKind, boolean> = {
  inverter: true,
  battery: false,
  meter: true,
  optimizer: true,
  weather_station: false,
  combiner_box: true,
  heat_pump: true,
  ac_switch: true,
};

interface Props {
  kind: DeviceKind;
  /** The page title (the route's), above everything. */
  title?: React.ReactNode;
  /** Extra controls above the table (the other-devices page's family switcher). */
  header?: React.ReactNode;
}

/**
 * A device family's list (spec 02 §2 Equipment): counts by status that filter, search by SN or alias,
 * filters kept in the address, sorting and paging by the server, rename inline, delete with the
 * server's list of devices the user may not delete, export for inverters. Refreshes every 30 s.
 */
export function DeviceListPage({ kind, title, header }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const { has } = useSession();
  const queryClient = useQueryClient();
  const listState = useListState(DEVICE_SORTS, 'sn');
  const { search, update, page, sort, order, sortOrder, onTableChange } = listState;
  const [selected, setSelected] = useState<number[]>([]);
  const [renaming, setRenaming] = useState<DeviceRow | null>(null);
  const [batchUpgrade, setBatchUpgrade] = useState<string[] | null>(null);
  const keys = KIND_KEYS[kind];

  const filters: DeviceQuery = {
    keyword: search.get('keyword') ?? undefined,
    status: search.get('status') ?? undefined,
    plantName: search.get('plantName') ?? undefined,
    brand: search.get('brand') ?? undefined,
    model: search.get('model') ?? undefined,
    type: search.get('type') ?? undefined,
  };
  const query: DeviceQuery = { ...filters, page, size: listState.size, sort, order };
  const countsQuery = { ...filters, status: undefined };
  const counts = useQuery({
    queryKey: deviceKeys.counts(kind, countsQuery),
    queryFn: () => fetchDeviceCounts(kind, countsQuery),
    refetchInterval: REFRESH_MS,
  });
  const list = useQuery({
    queryKey: deviceKeys.page(kind, query),
    queryFn: () => fetchDevicePage(kind, query),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });

  const remove = useMutation({
    mutationFn: (ids: number[]) => deleteDevices(kind, ids),
    onSuccess: (result) => {
      setSelected([]);
      void queryClient.invalidateQueries({ queryKey: deviceKeys.kind(kind) });
      if (result.refused.length > 0)
        void modal.warning({
          title: t('devices.deletePartly', { count: result.deleted.length }),
          content: (
            <div data-testid="delete-refused">
              <Typography.Paragraph>{t('devices.deleteRefusedIntro')}</Typography.Paragraph>
              <ul>
                {result.refused.map((r) => (
                  <li
                    key={r.sn}
                  >{`${r.sn}: ${t(r.reason === 'noPermission' ? 'devices.refusedNoPermission' : 'devices.refusedNotFound')}`}</li>
                ))}
              </ul>
            </div>
          ),
        });
      else void message.success(t('devices.deleted', { count: result.deleted.length + result.slavesDeleted.length }));
    },
  });

  /** Asks first, naming the devices and, for a battery master, the slave packs that go with it. */
  const confirmDelete = async (rows: DeviceRow[]) => {
    const masters = rows.filter((r) => r.slaveCount > 0);
    const slaves = (await Promise.all(masters.map((r) => fetchDeviceDetail(kind, r.sn).then((d) => d.slaves)))).flat();
    void modal.confirm({
      title: t('devices.deleteTitle', { count: rows.length }),
      okButtonProps: { danger: true, id: 'confirm-delete' },
      okText: t('devices.delete'),
      content: (
        <div>
          <Typography.Paragraph>{rows.map((r) => r.alias ?? r.sn).join(', ')}</Typography.Paragraph>
          {slaves.length > 0 && (
            <Typography.Paragraph type="warning" data-testid="delete-slaves">
              {t('devices.deleteWithSlaves', { count: slaves.length })} {slaves.map((s) => s.sn).join(', ')}
            </Typography.Paragraph>
          )}
          <Typography.Paragraph type="secondary">{t('devices.deleteWarning')}</Typography.Paragraph>
        </div>
      ),
      onOk: () => remove.mutateAsync(rows.map((r) => r.id)),
    });
  };

  // More than a page: prepared in the download centre in the background, with no row cap (issue 21).
  const exportInBackground = async () => {
    if ((kind !== 'inverter' && kind !== 'battery') || (list.data?.total ?? 0) <= listState.size) return false;
    const record = await exportDevicesInBackground(kind, filters);
    void message.success({
      content: <ExportStartedNote fileName={record.fileName} testId="device-export-started" />,
      duration: 8,
    });
    return true;
  };

  const exportButton = (label: string, testId: string) => (
    <ExportButton
      takeOver={exportInBackground}
      fetchFile={() => (kind === 'battery' ? downloadBatteries(filters) : exportInverters(filters))}
      fallbackName={() => `${kind}.xlsx`}
      label={label}
      failText={t('devices.exportFailed')}
      testId={testId}
    />
  );

  const columns: ColumnsType<DeviceRow> = [
    {
      key: 'sn',
      title: t('devices.colSn'),
      sorter: true,
      sortOrder: sortOrder('sn'),
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Link to={detailPathOf(kind, row.sn)} data-testid="device-link">
            {row.sn}
          </Link>
          {row.alias && <Typography.Text type="secondary">{row.alias}</Typography.Text>}
        </Space>
      ),
    },
    {
      key: 'plantName',
      title: t('devices.colPlant'),
      sorter: true,
      sortOrder: sortOrder('plantName'),
      render: (_, row) =>
        row.plantId ? (
          <Link to={`/plants/overview/${row.plantId}/1`}>{row.plantName}</Link>
        ) : (
          <Typography.Text type="secondary">{t('devices.noPlant')}</Typography.Text>
        ),
    },
    ...(kind === 'inverter'
      ? [
          {
            key: 'type',
            title: t('devices.colType'),
            render: (_: unknown, row: DeviceRow) => inverterTypeName(currentLanguage(), row.type),
          },
        ]
      : []),
    { key: 'model', title: t('devices.colModel'), render: (_, row) => [row.brand, row.model].filter(Boolean).join(' · ') || '--' },
    {
      key: 'status',
      title: t('devices.colStatus'),
      sorter: true,
      sortOrder: sortOrder('status'),
      render: (_, row) => <StatusTag status={row.status} />,
    },
    ...(kind === 'battery'
      ? [
          {
            key: 'soc',
            title: t('devices.colSoc'),
            className: 'sw-nowrap',
            render: (_: unknown, row: DeviceRow) => (row.soc === null ? '--' : `${Math.round(row.soc)} %`),
          },
          {
            key: 'role',
            title: t('devices.colRole'),
            // A pack on its own has no role to show; a bank is a master with its slaves.
            render: (_: unknown, row: DeviceRow) =>
              row.parentId ? (
                <Tag>{t('devices.slave')}</Tag>
              ) : row.slaveCount > 0 ? (
                <Tag color="blue">{t('devices.master', { count: row.slaveCount })}</Tag>
              ) : null,
          },
          {
            key: 'firmware',
            title: t('upgrades.colFirmware'),
            className: 'sw-nowrap',
            render: (_: unknown, row: DeviceRow) => row.firmwareVersion ?? '--',
          },
        ]
      : []),
    ...(kind === 'meter'
      ? [
          {
            key: 'main',
            title: t('devices.colMain'),
            render: (_: unknown, row: DeviceRow) => (row.mainMeter ? <Tag color="gold">{t('devices.mainMeter')}</Tag> : null),
          },
        ]
      : []),
    {
      key: 'powerW',
      title: t('devices.colPower'),
      align: 'right',
      sorter: true,
      sortOrder: sortOrder('powerW'),
      render: (_, row) => formatPower(row.powerW, locale),
    },
    ...(HAS_ENERGY[kind]
      ? ([
          {
            key: 'energyTodayWh',
            title: t('devices.colToday'),
            align: 'right',
            sorter: true,
            sortOrder: sortOrder('energyTodayWh'),
            render: (_, row) => formatEnergy(row.energyTodayWh, locale),
          },
          {
            key: 'energyTotalWh',
            title: t('devices.colTotal'),
            align: 'right',
            sorter: true,
            sortOrder: sortOrder('energyTotalWh'),
            render: (_, row) => formatEnergy(row.energyTotalWh, locale),
          },
        ] as ColumnsType<DeviceRow>)
      : []),
    {
      key: 'lastReportAt',
      title: t('devices.colLastReport'),
      sorter: true,
      sortOrder: sortOrder('lastReportAt'),
      render: (_, row) => (row.lastReportAt ? relativeTime(row.lastReportAt, Date.now(), locale) : t('devices.never')),
    },
    {
      key: 'actions',
      title: <ActionsTitle />,
      render: (_, row) => (
        <IconActions
          actions={[
            has(keys.edit) &&
              row.access !== 'view' && {
                key: 'rename',
                label: t('devices.rename'),
                icon: <EditOutlined />,
                onClick: () => setRenaming(row),
              },
            has(keys.remove) &&
              row.access === 'manage' && {
                key: 'delete',
                label: t('devices.delete'),
                icon: <DeleteOutlined />,
                danger: true,
                onClick: () => void confirmDelete([row]),
              },
          ]}
        />
      ),
    },
  ];

  const rows = list.data?.infos ?? [];
  const statusFilter = filters.status ? String(filters.status).split(',').map(Number) : [];
  const filtered = Object.values(filters).some((v) => v !== undefined && v !== '');

  return (
    <div className="sw-device-list" data-testid={`device-list-${kind}`}>
      {title}
      {header}
      <StatusCounts
        counts={counts.data}
        activeStatus={statusFilter}
        locale={locale}
        hrefFor={(status) => `?${new URLSearchParams(status === null ? {} : { status: String(status) })}`}
        onPick={(status) => update({ status: status === null ? undefined : String(status) })}
      />
      <Card size="small">
        <Space wrap className="sw-device-filters">
          <Input.Search
            allowClear
            placeholder={t('devices.searchPlaceholder')}
            defaultValue={filters.keyword as string | undefined}
            onSearch={(value) => update({ keyword: value.trim() || undefined })}
            style={{ width: 260 }}
            data-testid="device-search"
          />
          <Input.Search
            allowClear
            placeholder={t('devices.plantPlaceholder')}
            defaultValue={filters.plantName as string | undefined}
            onSearch={(value) => update({ plantName: value.trim() || undefined })}
            style={{ width: 220 }}
          />
          {(['brand', 'model'] as const).map((field) => (
            <Input.Search
              key={field}
              allowClear
              placeholder={t(field === 'brand' ? 'devices.brandPlaceholder' : 'devices.modelPlaceholder')}
              defaultValue={filters[field] as string | undefined}
              onSearch={(value) => update({ [field]: value.trim() || undefined })}
              style={{ width: 160 }}
              data-testid={`device-${field}`}
            />
          ))}
          {kind === 'inverter' && (
            <Select
              aria-label={t('devices.colType')}
              allowClear
              placeholder={t('devices.colType')}
              style={{ width: 220 }}
              value={filters.type === undefined ? undefined : Number(filters.type)}
              onChange={(value?: number) => update({ type: value === undefined ? undefined : String(value) })}
              options={INVERTER_TYPES.map((code) => ({ value: code, label: inverterTypeName(currentLanguage(), code) }))}
            />
          )}
          {selected.length > 0 && has(keys.remove) && (
            <Button danger icon={<DeleteOutlined />} onClick={() => void confirmDelete(rows.filter((r) => selected.includes(r.id)))}>
              {t('devices.deleteSelected', { count: selected.length })}
            </Button>
          )}
          {kind === 'inverter' && keys.export && has(keys.export) && exportButton(t('devices.export'), 'device-export')}
          {kind === 'battery' && has('battery.upgrade') && (
            <>
              <Button
                type="primary"
                icon={<CloudUploadOutlined />}
                disabled={selected.length === 0}
                onClick={() => setBatchUpgrade(rows.filter((r) => selected.includes(r.id)).map((r) => r.sn))}
                data-testid="battery-batch-upgrade"
              >
                {t('upgrades.batchButton', { count: selected.length })}
              </Button>
              {exportButton(t('upgrades.downloadBatteries'), 'batteries-download')}
            </>
          )}
        </Space>
        <Table<DeviceRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={list.isPending}
          scroll={{ x: 1100 }}
          rowSelection={
            has(keys.remove) || (kind === 'battery' && has('battery.upgrade'))
              ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }
              : undefined
          }
          pagination={listState.pagination(list.data?.total, (total) => t('devices.total', { count: total }), true)}
          onChange={onTableChange}
          locale={{
            emptyText: (
              <Empty
                description={filtered ? t('devices.emptyFiltered') : t(`devices.empty.${kind}`)}
                image={Empty.PRESENTED_IMAGE_SIMPLE}
              />
            ),
          }}
        />
      </Card>
      {renaming && <RenameModal key={renaming.id} kind={kind} row={renaming} onClose={() => setRenaming(null)} />}
      {batchUpgrade && (
        <BatteryBatchUpgrade
          sns={batchUpgrade}
          onClose={() => {
            setBatchUpgrade(null);
            setSelected([]);
            void queryClient.invalidateQueries({ queryKey: deviceKeys.kind(kind) });
          }}
        />
      )}
    </div>
  );
}

/** Renames a device: at most 32 bytes without special characters, checked here and by the server. */
function RenameModal({ kind, row, onClose }: { kind: DeviceKind; row: DeviceRow; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(row.alias ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const bytes = new TextEncoder().encode(value.trim()).length;
  const save = useMutation({
    mutationFn: () => renameDevice(kind, row.id, value.trim()),
    onSuccess: () => {
      void message.success(t('devices.renamed'));
      void queryClient.invalidateQueries({ queryKey: deviceKeys.kind(kind) });
      onClose();
    },
    onError: (error) => setProblem(error instanceof ApiCallError ? error.message : t('devices.saveFailed')),
  });
  const trimmed = value.trim();
  const localProblem =
    bytes > 32 ? t('devices.aliasTooLong') : trimmed !== '' && !isDeviceAlias(trimmed) ? t('devices.aliasSpecial') : null;
  return (
    <Modal
      open
      title={t('devices.renameTitle', { sn: row.sn })}
      okText={t('devices.save')}
      onCancel={onClose}
      onOk={() => save.mutate()}
      okButtonProps={{ disabled: localProblem !== null, loading: save.isPending, id: 'rename-save' }}
      destroyOnHidden
    >
      <Input
        autoFocus
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setProblem(null);
        }}
        placeholder={t('devices.aliasPlaceholder')}
        status={localProblem || problem ? 'error' : undefined}
        suffix={<Typography.Text type={bytes > 32 ? 'danger' : 'secondary'}>{`${bytes}/32`}</Typography.Text>}
        data-testid="rename-input"
      />
      {(localProblem || problem) && <Typography.Text type="danger">{localProblem ?? problem}</Typography.Text>}
    </Modal>
  );
}
