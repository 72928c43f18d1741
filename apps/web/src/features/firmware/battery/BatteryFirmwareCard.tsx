import { DeleteOutlined, DownloadOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import type { BatteryFirmwareRow, BatteryTypeNode } from '@sunward/contracts/battery-firmware';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Input, Select, Space, Switch, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exactTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { saveBlob } from '../../../lib/save-blob';
import { refusalMessage } from '../api';
import { BatteryFirmwareFormModal } from './BatteryFirmwareFormModal';
import { typePath } from './BatteryProductsCard';
import {
  type BatteryQuery,
  batteryKeys,
  deleteBatteryFirmware,
  downloadBatteryFirmware,
  fetchBatteryFirmware,
  fetchBatteryProducts,
  setBatteryFirmwareEnabled,
} from './battery-api';

const PAGE_SIZE = 10;

type Dialog = { kind: 'upload' } | { kind: 'edit'; row: BatteryFirmwareRow } | null;

/** Battery images: filters by product, state and keyword (the tree's type too), upload, edit, enable, download, delete. */
export function BatteryFirmwareCard({
  tree,
  canEdit,
  batteryTypeId,
}: {
  tree: BatteryTypeNode[];
  canEdit: boolean;
  batteryTypeId: number | undefined;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState<string>();
  const [productId, setProductId] = useState<number>();
  const [enabled, setEnabled] = useState<string>();
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [lastType, setLastType] = useState(batteryTypeId);
  if (lastType !== batteryTypeId) {
    // Another type picked in the tree: the product filter may no longer fit, back to the first page.
    setLastType(batteryTypeId);
    setProductId(undefined);
    setPage(1);
  }

  const query: BatteryQuery = { page, size: PAGE_SIZE, keyword, batteryTypeId, batteryProductId: productId, enabled };
  const list = useQuery({
    queryKey: batteryKeys.images(query),
    queryFn: () => fetchBatteryFirmware(query),
    placeholderData: keepPreviousData,
  });
  const productQuery: BatteryQuery = { size: 100, batteryTypeId };
  const products = useQuery({ queryKey: batteryKeys.products(productQuery), queryFn: () => fetchBatteryProducts(productQuery) });
  const hasProducts = (products.data?.total ?? 0) > 0;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: batteryKeys.all });
  const fail = (error: unknown) => void message.error(refusalMessage(error) ?? t('firmware.requestFailed'));

  const toggle = useMutation({
    mutationFn: ({ row, on }: { row: BatteryFirmwareRow; on: boolean }) => setBatteryFirmwareEnabled(row.id, on),
    onSuccess: (_, { on }) => {
      void message.success(t(on ? 'firmware.nowEnabled' : 'firmware.nowDisabled'));
      refresh();
    },
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (row: BatteryFirmwareRow) => deleteBatteryFirmware(row.id),
    onSuccess: () => {
      void message.success(t('firmware.deleted'));
      refresh();
    },
    onError: fail,
  });

  const confirmToggle = (row: BatteryFirmwareRow, on: boolean) =>
    void modal.confirm({
      title: t(on ? 'firmware.enableTitle' : 'firmware.disableTitle', { name: row.name }),
      content: t(on ? 'batteryFirmware.enableWarning' : 'batteryFirmware.disableWarning'),
      okText: t(on ? 'firmware.enable' : 'firmware.disable'),
      cancelText: t('firmware.cancel'),
      okButtonProps: { id: 'confirm-enable' },
      onOk: () => toggle.mutateAsync({ row, on }).catch(() => undefined),
    });
  const confirmDelete = (row: BatteryFirmwareRow) =>
    void modal.confirm({
      title: t('firmware.deleteTitle', { name: row.name }),
      content: t('firmware.deleteWarning'),
      okText: t('firmware.delete'),
      cancelText: t('firmware.cancel'),
      okButtonProps: { danger: true, id: 'confirm-delete' },
      onOk: () => remove.mutateAsync(row).catch(() => undefined),
    });
  const download = (row: BatteryFirmwareRow) => void downloadBatteryFirmware(row.id).then(({ blob }) => saveBlob(blob, row.fileName), fail);

  const columns: ColumnsType<BatteryFirmwareRow> = [
    {
      key: 'name',
      title: t('firmware.colName'),
      fixed: 'left',
      width: 180,
      render: (_, row) => (
        <Typography.Text strong data-testid="battery-firmware-name">
          {row.name}
        </Typography.Text>
      ),
    },
    { key: 'sw', title: t('firmware.colSwVersion'), width: 120, render: (_, row) => row.swVersion },
    {
      key: 'enabled',
      title: t('firmware.colEnabled'),
      width: 110,
      render: (_, row) => (
        <Switch
          size="small"
          checked={row.enabled}
          checkedChildren={t('firmware.enabled')}
          unCheckedChildren={t('firmware.disabled')}
          disabled={!canEdit}
          loading={toggle.isPending && toggle.variables?.row.id === row.id}
          onChange={(on) => confirmToggle(row, on)}
          aria-label={t('firmware.colEnabled')}
          data-testid="battery-firmware-enabled"
        />
      ),
    },
    {
      key: 'product',
      title: t('batteryFirmware.colProduct'),
      width: 160,
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <span>{row.batteryProduct.name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.manufacturer} · {row.batteryProduct.model}
          </Typography.Text>
        </Space>
      ),
    },
    { key: 'type', title: t('batteryFirmware.colType'), width: 170, render: (_, row) => typePath(row.batteryType) },
    { key: 'hw', title: t('firmware.colHwVersion'), width: 110, render: (_, row) => row.hwVersion ?? '--' },
    {
      key: 'mode',
      title: t('firmware.colMode'),
      width: 100,
      render: (_, row) => t(row.mode === 'remote' ? 'firmware.modeRemote' : 'firmware.modeLocal'),
    },
    {
      key: 'file',
      title: t('firmware.colFileName'),
      width: 160,
      render: (_, row) => <span className="sw-firmware-mono">{row.fileName}</span>,
    },
    {
      key: 'md5',
      title: t('firmware.colMd5'),
      width: 290,
      render: (_, row) => (
        <Typography.Text className="sw-firmware-mono" copyable data-testid="battery-firmware-md5">
          {row.md5}
        </Typography.Text>
      ),
    },
    { key: 'created', title: t('firmware.colCreated'), width: 170, render: (_, row) => exactTime(row.createdAt, locale) },
    {
      key: 'actions',
      title: '',
      fixed: 'right',
      width: 110,
      render: (_, row) => (
        <Space size={0}>
          <Tooltip title={t('firmware.download')}>
            <Button
              size="small"
              type="text"
              icon={<DownloadOutlined />}
              aria-label={t('firmware.download')}
              onClick={() => download(row)}
            />
          </Tooltip>
          {canEdit && (
            <>
              <Tooltip title={t('firmware.edit')}>
                <Button
                  size="small"
                  type="text"
                  icon={<EditOutlined />}
                  aria-label={t('firmware.edit')}
                  onClick={() => setDialog({ kind: 'edit', row })}
                />
              </Tooltip>
              <Tooltip title={t('firmware.delete')}>
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('firmware.delete')}
                  onClick={() => confirmDelete(row)}
                  data-testid="battery-firmware-delete"
                />
              </Tooltip>
            </>
          )}
        </Space>
      ),
    },
  ];

  const filtered = Boolean(keyword || productId || enabled || batteryTypeId);
  return (
    <Card
      size="small"
      title={t('batteryFirmware.firmwareTitle')}
      extra={
        canEdit && (
          <Button
            size="small"
            type="primary"
            icon={<UploadOutlined />}
            disabled={!hasProducts && batteryTypeId === undefined}
            onClick={() => setDialog({ kind: 'upload' })}
            data-testid="battery-firmware-upload"
          >
            {t('batteryFirmware.upload')}
          </Button>
        )
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('firmware.searchPlaceholder')}
          onSearch={(value) => {
            setKeyword(value.trim() || undefined);
            setPage(1);
          }}
          style={{ width: 240 }}
        />
        <Select
          aria-label={t('batteryFirmware.filterProduct')}
          allowClear
          placeholder={t('batteryFirmware.filterProduct')}
          style={{ width: 200 }}
          value={productId}
          onChange={(value?: number) => {
            setProductId(value);
            setPage(1);
          }}
          options={(products.data?.infos ?? []).map((p) => ({ value: p.id, label: p.name }))}
          data-testid="battery-firmware-product-filter"
        />
        <Select
          aria-label={t('firmware.filterEnabled')}
          allowClear
          placeholder={t('firmware.filterEnabled')}
          style={{ width: 140 }}
          value={enabled}
          onChange={(value?: string) => {
            setEnabled(value);
            setPage(1);
          }}
          options={[
            { value: 'true', label: t('firmware.enabled') },
            { value: 'false', label: t('firmware.disabled') },
          ]}
        />
      </Space>
      <Table<BatteryFirmwareRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.infos ?? []}
        loading={list.isPending}
        scroll={{ x: 1700 }}
        expandable={{
          expandedRowRender: (row) =>
            row.changeLog ? (
              <div>
                <Typography.Text strong>{t('firmware.colChangeLog')}</Typography.Text>
                <p className="sw-firmware-changelog">{row.changeLog}</p>
              </div>
            ) : (
              <Typography.Text type="secondary">{t('firmware.noChangeLog')}</Typography.Text>
            ),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('firmware.total', { count: total }),
          onChange: setPage,
        }}
        locale={{
          emptyText: filtered ? (
            <Empty description={t('batteryFirmware.emptyFiltered')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                <Space direction="vertical" size={4}>
                  <Typography.Text strong>{t('batteryFirmware.firmwareEmptyTitle')}</Typography.Text>
                  <Typography.Text type="secondary">
                    {hasProducts ? t('batteryFirmware.firmwareEmptyHint') : t('batteryFirmware.firmwareNeedProduct')}
                  </Typography.Text>
                </Space>
              }
              data-testid="battery-firmware-empty"
            />
          ),
        }}
        data-testid="battery-firmware-table"
      />
      {dialog?.kind === 'upload' && <BatteryFirmwareFormModal tree={tree} batteryTypeId={batteryTypeId} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'edit' && <BatteryFirmwareFormModal tree={tree} row={dialog.row} onClose={() => setDialog(null)} />}
    </Card>
  );
}
