import './firmware-list.css';
import { DeleteOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { FirmwareRow } from '@sunward/contracts/firmware';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { formatNumber } from '@sunward/contracts/units';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Input, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { FilterSelect } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { usePageSize } from '../../lib/personalized';
import {
  batchDeleteFirmware,
  deleteFirmware,
  downloadFirmware,
  type FirmwareQuery,
  fetchFirmwarePage,
  firmwareKeys,
  setFirmwareEnabled,
} from './api';
import { FirmwareFormModal } from './FirmwareFormModal';
import { changeLogExpandable, EnabledFilter, type ImageLibrary, PagedTable, TwoLines, useImageActions } from './firmware-table';
import { firmwareTexts } from './firmware-texts';

registerTexts(firmwareTexts);

const LIBRARY: ImageLibrary<FirmwareRow> = {
  setEnabled: setFirmwareEnabled,
  remove: (rows) => (rows.length === 1 && rows[0] ? deleteFirmware(rows[0].id) : batchDeleteFirmware(rows.map((r) => r.id))),
  download: downloadFirmware,
  invalidate: firmwareKeys.all,
  warnings: { enable: 'firmware.enableWarning', disable: 'firmware.disableWarning' },
  testPrefix: 'firmware',
};

type Dialog = { kind: 'upload' } | { kind: 'edit'; row: FirmwareRow } | null;

/**
 * The firmware library (issue 6, spec 02 §3 Firmware): gateway and inverter images with their
 * versions, file facts (size, MD5) and enabled flag; search and filters; upload, edit, enable or disable
 * with confirmation, download, delete one or several. Platform administrators only.
 */
export function FirmwareListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const pageSize = usePageSize();
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
  const filter = (apply: () => void) => {
    apply();
    setPage(1);
    setSelected([]);
  };

  const { confirmDelete, columns: column } = useImageActions(LIBRARY, { canEdit, onDeleted: () => setSelected([]) });

  const columns: ColumnsType<FirmwareRow> = [
    column.name(),
    {
      key: 'sw',
      title: t('firmware.colSwVersion'),
      width: 170,
      render: (_, row) => (
        <TwoLines
          main={<Typography.Text data-testid="firmware-version">{row.swVersion}</Typography.Text>}
          sub={row.swCompatible && t('firmware.colCompatible', { range: row.swCompatible })}
        />
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
    column.enabled(),
    { key: 'manufacturer', title: t('firmware.colManufacturer'), width: 130, render: (_, row) => row.manufacturer },
    { key: 'product', title: t('firmware.colProduct'), width: 130, render: (_, row) => row.product },
    { key: 'item', title: t('firmware.colItemNumber'), width: 120, render: (_, row) => row.itemNumber ?? '--' },
    column.hw(),
    column.mode(110),
    column.file(170),
    { key: 'size', title: t('firmware.colSize'), width: 100, align: 'right', render: (_, row) => formatNumber(row.size / 1024, locale, 1) },
    column.md5(),
    { key: 'creator', title: t('firmware.colCreator'), width: 160, render: (_, row) => row.creator ?? '--' },
    column.created(180),
    column.actions(120, (row) => setDialog({ kind: 'edit', row })),
  ];

  const rows = list.data?.infos ?? [];
  const filtered = Boolean(keyword || type || enabled);

  return (
    <div className="sw-firmware-list" data-testid="firmware-list">
      <PageTitle route={route} />
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
            <FilterSelect
              label={t('firmware.filterType')}
              width={150}
              value={type}
              onChange={(value) => filter(() => setType(value))}
              options={[
                { value: 'gateway', label: t('firmware.typeGateway') },
                { value: 'inverter', label: t('firmware.typeInverter') },
              ]}
            />
            <EnabledFilter value={enabled} onChange={(value) => filter(() => setEnabled(value))} width={150} />
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
        <PagedTable<FirmwareRow>
          size="middle"
          columns={columns}
          query={list}
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
          expandable={changeLogExpandable(t)}
          paging={{ page, size: pageSize, onPage: setPage }}
          showTotal
          empty={{
            filtered,
            testId: 'firmware-empty',
            texts: [t('firmware.emptyFiltered'), t('firmware.emptyTitle'), t('firmware.emptyHint')],
          }}
          data-testid="firmware-table"
        />
      </Card>
      {dialog?.kind === 'upload' && <FirmwareFormModal onClose={() => setDialog(null)} />}
      {dialog?.kind === 'edit' && <FirmwareFormModal row={dialog.row} onClose={() => setDialog(null)} />}
    </div>
  );
}
