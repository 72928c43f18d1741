import './firmware-list.css';
import { DeleteOutlined, DownloadOutlined, EditOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { FirmwareRow } from '@sunward/contracts/firmware';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { formatNumber } from '@sunward/contracts/units';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Input, Select, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { usePageSize } from '../../lib/personalized';
import { saveBlob } from '../../lib/save-blob';
import {
  batchDeleteFirmware,
  deleteFirmware,
  downloadFirmware,
  type FirmwareQuery,
  fetchFirmwarePage,
  firmwareKeys,
  refusalMessage,
  setFirmwareEnabled,
} from './api';
import { FirmwareFormModal } from './FirmwareFormModal';
import { firmwareTexts } from './firmware-texts';

registerTexts(firmwareTexts);

type Dialog = { kind: 'upload' } | { kind: 'edit'; row: FirmwareRow } | null;

/**
 * The firmware library (issue 6, spec 02 §3 Firmware): gateway and inverter images with their
 * versions, file facts (size, MD5) and enabled flag; search and filters; upload, edit, enable or disable
 * with confirmation, download, delete one or several. Platform administrators only.
 */
export function FirmwareListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const pageSize = usePageSize();
  const { message, modal } = App.useApp();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const { has } = useSession();
  const canEdit = has('firmware.edit');
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState<string>();
  const [type, setType] = useState<string>();
  const [enabled, setEnabled] = useState<string>();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);

  const query: FirmwareQuery = { page, size: pageSize, keyword, type, enabled };
  const list = useQuery({ queryKey: firmwareKeys.page(query), queryFn: () => fetchFirmwarePage(query), placeholderData: keepPreviousData });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: firmwareKeys.all });
  const fail = (error: unknown) => void message.error(refusalMessage(error) ?? t('firmware.requestFailed'));
  const filter = (apply: () => void) => {
    apply();
    setPage(1);
    setSelected([]);
  };

  const toggle = useMutation({
    mutationFn: ({ row, on }: { row: FirmwareRow; on: boolean }) => setFirmwareEnabled(row.id, on),
    onSuccess: (_, { on }) => {
      void message.success(t(on ? 'firmware.nowEnabled' : 'firmware.nowDisabled'));
      refresh();
    },
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (ids: number[]) => (ids.length === 1 && ids[0] !== undefined ? deleteFirmware(ids[0]) : batchDeleteFirmware(ids)),
    onSuccess: () => {
      void message.success(t('firmware.deleted'));
      setSelected([]);
      refresh();
    },
    onError: fail,
  });

  const confirmToggle = (row: FirmwareRow, on: boolean) =>
    void modal.confirm({
      title: t(on ? 'firmware.enableTitle' : 'firmware.disableTitle', { name: row.name }),
      content: t(on ? 'firmware.enableWarning' : 'firmware.disableWarning'),
      okText: t(on ? 'firmware.enable' : 'firmware.disable'),
      cancelText: t('firmware.cancel'),
      okButtonProps: { id: 'confirm-enable' },
      onOk: () => toggle.mutateAsync({ row, on }).catch(() => undefined),
    });
  const confirmDelete = (rows: FirmwareRow[]) =>
    void modal.confirm({
      title:
        rows.length === 1 && rows[0]
          ? t('firmware.deleteTitle', { name: rows[0].name })
          : t('firmware.batchDeleteTitle', { count: rows.length }),
      content: t('firmware.deleteWarning'),
      okText: t('firmware.delete'),
      cancelText: t('firmware.cancel'),
      okButtonProps: { danger: true, id: 'confirm-delete' },
      onOk: () => remove.mutateAsync(rows.map((r) => r.id)).catch(() => undefined),
    });
  const download = (row: FirmwareRow) => void downloadFirmware(row.id).then(({ blob }) => saveBlob(blob, row.fileName), fail);

  const columns: ColumnsType<FirmwareRow> = [
    {
      key: 'name',
      title: t('firmware.colName'),
      fixed: 'left',
      width: 180,
      render: (_, row) => (
        <Typography.Text strong data-testid="firmware-name">
          {row.name}
        </Typography.Text>
      ),
    },
    {
      key: 'sw',
      title: t('firmware.colSwVersion'),
      width: 170,
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Typography.Text data-testid="firmware-version">{row.swVersion}</Typography.Text>
          {row.swCompatible && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('firmware.colCompatible', { range: row.swCompatible })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      key: 'type',
      title: t('firmware.colType'),
      width: 100,
      render: (_, row) => (
        <Tag color={row.type === 'gateway' ? 'geekblue' : 'gold'}>
          {t(row.type === 'gateway' ? 'firmware.typeGateway' : 'firmware.typeInverter')}
        </Tag>
      ),
    },
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
          data-testid="firmware-enabled"
        />
      ),
    },
    { key: 'manufacturer', title: t('firmware.colManufacturer'), width: 130, render: (_, row) => row.manufacturer },
    { key: 'product', title: t('firmware.colProduct'), width: 130, render: (_, row) => row.product },
    { key: 'item', title: t('firmware.colItemNumber'), width: 120, render: (_, row) => row.itemNumber ?? '--' },
    { key: 'hw', title: t('firmware.colHwVersion'), width: 110, render: (_, row) => row.hwVersion ?? '--' },
    {
      key: 'mode',
      title: t('firmware.colMode'),
      width: 110,
      render: (_, row) => t(row.mode === 'remote' ? 'firmware.modeRemote' : 'firmware.modeLocal'),
    },
    {
      key: 'file',
      title: t('firmware.colFileName'),
      width: 170,
      render: (_, row) => <span className="sw-firmware-mono">{row.fileName}</span>,
    },
    { key: 'size', title: t('firmware.colSize'), width: 100, align: 'right', render: (_, row) => formatNumber(row.size / 1024, locale, 1) },
    {
      key: 'md5',
      title: t('firmware.colMd5'),
      width: 290,
      render: (_, row) => (
        <Typography.Text className="sw-firmware-mono" copyable data-testid="firmware-md5">
          {row.md5}
        </Typography.Text>
      ),
    },
    { key: 'creator', title: t('firmware.colCreator'), width: 160, render: (_, row) => row.creator ?? '--' },
    { key: 'created', title: t('firmware.colCreated'), width: 180, render: (_, row) => exactTime(row.createdAt, locale) },
    {
      key: 'actions',
      title: '',
      fixed: 'right',
      width: 120,
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
                  data-testid="firmware-edit"
                />
              </Tooltip>
              <Tooltip title={t('firmware.delete')}>
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('firmware.delete')}
                  onClick={() => confirmDelete([row])}
                  data-testid="firmware-delete"
                />
              </Tooltip>
            </>
          )}
        </Space>
      ),
    },
  ];

  const rows = list.data?.infos ?? [];
  const filtered = Boolean(keyword || type || enabled);

  return (
    <div className="sw-firmware-list" data-testid="firmware-list">
      <Typography.Title level={3} data-testid="page-title" style={{ margin: 0 }}>
        {t(route.title)}
      </Typography.Title>
      <Card size="small">
        <div className="sw-firmware-toolbar">
          <Space wrap>
            <Input.Search
              allowClear
              placeholder={t('firmware.searchPlaceholder')}
              onSearch={(value) => filter(() => setKeyword(value.trim() || undefined))}
              style={{ width: 260 }}
              data-testid="firmware-search"
            />
            <Select
              aria-label={t('firmware.filterType')}
              allowClear
              placeholder={t('firmware.filterType')}
              style={{ width: 150 }}
              value={type}
              onChange={(value?: string) => filter(() => setType(value))}
              options={[
                { value: 'gateway', label: t('firmware.typeGateway') },
                { value: 'inverter', label: t('firmware.typeInverter') },
              ]}
            />
            <Select
              aria-label={t('firmware.filterEnabled')}
              allowClear
              placeholder={t('firmware.filterEnabled')}
              style={{ width: 150 }}
              value={enabled}
              onChange={(value?: string) => filter(() => setEnabled(value))}
              options={[
                { value: 'true', label: t('firmware.enabled') },
                { value: 'false', label: t('firmware.disabled') },
              ]}
            />
          </Space>
          <Space>
            <Tooltip title={t('firmware.refresh')}>
              <Button icon={<ReloadOutlined />} aria-label={t('firmware.refresh')} onClick={refresh} />
            </Tooltip>
            {canEdit && selected.length > 0 && (
              <Button
                danger
                icon={<DeleteOutlined />}
                onClick={() => confirmDelete(rows.filter((r) => selected.includes(r.id)))}
                data-testid="firmware-batch-delete"
              >
                {t('firmware.batchDelete', { count: selected.length })}
              </Button>
            )}
            {canEdit && (
              <Button type="primary" icon={<UploadOutlined />} onClick={() => setDialog({ kind: 'upload' })} data-testid="firmware-upload">
                {t('firmware.upload')}
              </Button>
            )}
          </Space>
        </div>
        <Table<FirmwareRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={list.isPending}
          scroll={{ x: 2250 }}
          rowSelection={
            canEdit
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys.map(Number)),
                  getTitleCheckboxProps: () => ({ 'aria-label': t('firmware.batchDelete', { count: rows.length }) }),
                  getCheckboxProps: (row) => ({ 'aria-label': t('firmware.selectRow', { name: row.name }) }),
                }
              : undefined
          }
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
            pageSize: pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => t('firmware.total', { count: total }),
            onChange: setPage,
          }}
          locale={{
            emptyText: filtered ? (
              <Empty description={t('firmware.emptyFiltered')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <Empty
                description={
                  <Space direction="vertical" size={4}>
                    <Typography.Text strong>{t('firmware.emptyTitle')}</Typography.Text>
                    <Typography.Text type="secondary">{t('firmware.emptyHint')}</Typography.Text>
                  </Space>
                }
                data-testid="firmware-empty"
              />
            ),
          }}
          data-testid="firmware-table"
        />
      </Card>
      {dialog?.kind === 'upload' && <FirmwareFormModal onClose={() => setDialog(null)} />}
      {dialog?.kind === 'edit' && <FirmwareFormModal row={dialog.row} onClose={() => setDialog(null)} />}
    </div>
  );
}
