import { UploadOutlined } from '@ant-design/icons';
import type { BatteryFirmwareRow } from '@sunward/contracts/battery-firmware';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../../../components/ListPage';
import { changeLogExpandable, EnabledFilter, type ImageLibrary, PagedTable, TwoLines, useImageActions } from '../firmware-table';
import { BatteryFirmwareFormModal } from './BatteryFirmwareFormModal';
import { type BatteryCardProps, typePath, useTypePage } from './BatteryProductsCard';
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

const LIBRARY: ImageLibrary<BatteryFirmwareRow> = {
  setEnabled: setBatteryFirmwareEnabled,
  remove: (rows) => Promise.all(rows.map((row) => deleteBatteryFirmware(row.id))),
  download: downloadBatteryFirmware,
  invalidate: batteryKeys.all,
  warnings: { enable: 'batteryFirmware.enableWarning', disable: 'batteryFirmware.disableWarning' },
  testPrefix: 'battery-firmware',
};

type Dialog = { kind: 'upload' } | { kind: 'edit'; row: BatteryFirmwareRow } | null;

/** Battery images: filters by product, state and keyword (the tree's type too), upload, edit, enable, download, delete. */
export function BatteryFirmwareCard({ tree, canEdit, batteryTypeId }: BatteryCardProps) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState<string>();
  const [productId, setProductId] = useState<number>();
  const [enabled, setEnabled] = useState<string>();
  const [dialog, setDialog] = useState<Dialog>(null);
  // Another type picked in the tree: the product filter may no longer fit.
  const [page, setPage] = useTypePage(batteryTypeId, () => setProductId(undefined));

  const query: BatteryQuery = { page, size: PAGE_SIZE, keyword, batteryTypeId, batteryProductId: productId, enabled };
  const list = useQuery({
    queryKey: batteryKeys.images(query),
    queryFn: () => fetchBatteryFirmware(query),
    placeholderData: keepPreviousData,
  });
  const productQuery: BatteryQuery = { size: 100, batteryTypeId };
  const products = useQuery({ queryKey: batteryKeys.products(productQuery), queryFn: () => fetchBatteryProducts(productQuery) });
  const hasProducts = (products.data?.total ?? 0) > 0;
  const { columns: column } = useImageActions(LIBRARY, { canEdit });

  const columns: ColumnsType<BatteryFirmwareRow> = [
    column.name(),
    { key: 'sw', title: t('firmware.colSwVersion'), width: 120, render: (_, row) => row.swVersion },
    column.enabled(),
    {
      key: 'product',
      title: t('batteryFirmware.colProduct'),
      width: 160,
      render: (_, row) => <TwoLines main={row.batteryProduct.name} sub={`${row.manufacturer} · ${row.batteryProduct.model}`} />,
    },
    { key: 'type', title: t('batteryFirmware.colType'), width: 170, render: (_, row) => typePath(row.batteryType) },
    column.hw(),
    column.mode(100),
    column.file(160),
    column.md5(),
    column.created(170),
    column.actions(110, (row) => setDialog({ kind: 'edit', row })),
  ];

  const filtered = Boolean(keyword || productId || enabled || batteryTypeId);
  const emptyTexts = [
    t('batteryFirmware.emptyFiltered'),
    t('batteryFirmware.firmwareEmptyTitle'),
    hasProducts ? t('batteryFirmware.firmwareEmptyHint') : t('batteryFirmware.firmwareNeedProduct'),
  ] as const;
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
        <FilterSelect
          label={t('batteryFirmware.filterProduct')}
          width={200}
          value={productId}
          onChange={(value) => {
            setProductId(value);
            setPage(1);
          }}
          options={(products.data?.infos ?? []).map((p) => ({ value: p.id, label: p.name }))}
          testId="battery-firmware-product-filter"
        />
        <EnabledFilter
          value={enabled}
          onChange={(value) => {
            setEnabled(value);
            setPage(1);
          }}
          width={140}
        />
      </Space>
      <PagedTable<BatteryFirmwareRow>
        size="small"
        columns={columns}
        query={list}
        scroll={{ x: 1700 }}
        expandable={changeLogExpandable(t)}
        paging={{ page, size: PAGE_SIZE, onPage: setPage }}
        showTotal
        empty={{ filtered, testId: 'battery-firmware-empty', texts: emptyTexts }}
        data-testid="battery-firmware-table"
      />
      {dialog?.kind === 'upload' && <BatteryFirmwareFormModal tree={tree} batteryTypeId={batteryTypeId} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'edit' && <BatteryFirmwareFormModal tree={tree} row={dialog.row} onClose={() => setDialog(null)} />}
    </Card>
  );
}
