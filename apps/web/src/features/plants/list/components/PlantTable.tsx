import { DeleteOutlined, PictureOutlined, ShareAltOutlined, SwapOutlined } from '@ant-design/icons';
import type { PlantRow, PlantSortField } from '@sunward/contracts/plants';
import { formatCapacity, formatEnergy, formatPower } from '@sunward/contracts/units';
import { Avatar, Button, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusTag } from '../../../../components/StatusTag';
import { exactTime, formatSpecificYield, relativeTime } from '../../../../lib/format';
import { PAGE_SIZES, type PlantListParams, type SortOrder } from '../list-params';

export type PlantAction = 'share' | 'transfer' | 'delete';

interface Props {
  rows: PlantRow[];
  total: number;
  loading: boolean;
  params: PlantListParams;
  locale: string;
  /** Actions the user's permissions allow; a row shows them only when its access is 'manage'. */
  actions: readonly PlantAction[];
  selectedIds: readonly number[];
  selectionMax: number;
  empty: ReactNode;
  onSelect(ids: number[]): void;
  onChange(change: { page: number; size: number; sort: PlantSortField | undefined; order: SortOrder | undefined }): void;
  onAction(action: PlantAction, row: PlantRow): void;
}

export function overviewPath(row: Pick<PlantRow, 'id' | 'plantType'>): string {
  return `/plants/overview/${row.id}/${row.plantType}`;
}

const ACTION_LABELS: Record<PlantAction, string> = { share: 'plants.share', transfer: 'plants.transfer', delete: 'plants.delete' };

const ACTION_ICONS: Record<PlantAction, ReactNode> = {
  share: <ShareAltOutlined />,
  transfer: <SwapOutlined />,
  delete: <DeleteOutlined />,
};

/** The plant table: sorting and pages are served by the server. */
export function PlantTable(props: Props) {
  const { rows, total, loading, params, locale, actions, selectedIds, selectionMax, empty, onSelect, onChange, onAction } = props;
  const { t } = useTranslation();
  const now = Date.now();

  const sorted = (field: PlantSortField) => ({
    sorter: true,
    sortOrder: params.sort === field && params.order ? (params.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null,
  });

  const columns: ColumnsType<PlantRow> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('plants.colName'),
      ...sorted('name'),
      render: (_, row) => (
        <div className="sw-plant-cell">
          <Avatar
            shape="square"
            size={40}
            src={row.picture ?? undefined}
            icon={<PictureOutlined />}
            alt={t('plants.colPicture')}
            className="sw-plant-thumb"
          />
          <div className="sw-plant-name">
            <Space size={4}>
              <Link to={overviewPath(row)} data-testid="plant-link">
                {row.name}
              </Link>
              {row.shared && <Tag className="sw-shared-tag">{t('plants.sharedTag')}</Tag>}
            </Space>
            {(row.address ?? row.region) && (
              <Typography.Text type="secondary" ellipsis className="sw-plant-place">
                {row.address ?? row.region}
              </Typography.Text>
            )}
          </div>
        </div>
      ),
    },
    {
      key: 'capacityKwp',
      width: 110,
      title: t('plants.colCapacity'),
      align: 'right',
      ...sorted('capacityKwp'),
      render: (_, row) => formatCapacity(row.capacityKwp, locale),
    },
    {
      key: 'powerW',
      width: 100,
      title: t('plants.colPower'),
      align: 'right',
      ...sorted('powerW'),
      render: (_, row) => formatPower(row.powerW, locale),
    },
    {
      key: 'energyTodayWh',
      width: 100,
      title: t('plants.colEnergyToday'),
      align: 'right',
      ...sorted('energyTodayWh'),
      render: (_, row) => formatEnergy(row.energyTodayWh, locale),
    },
    {
      key: 'energyTotalWh',
      width: 110,
      title: t('plants.colEnergyTotal'),
      align: 'right',
      ...sorted('energyTotalWh'),
      render: (_, row) => formatEnergy(row.energyTotalWh, locale),
    },
    {
      key: 'specificYield',
      // Wide enough for its header in two lines with the sorter (at 110 px it took three).
      width: 150,
      title: t('plants.colSpecificYield'),
      align: 'right',
      ...sorted('specificYield'),
      render: (_, row) => formatSpecificYield(row.specificYield, locale, false),
    },
    { key: 'status', width: 120, title: t('plants.colStatus'), ...sorted('status'), render: (_, row) => <StatusTag status={row.status} /> },
    {
      key: 'lastUpdateAt',
      width: 115,
      title: t('plants.colLastUpdate'),
      ...sorted('lastUpdateAt'),
      render: (_, row) =>
        row.lastUpdateAt ? (
          <Tooltip title={exactTime(row.lastUpdateAt, locale)}>
            <span className="sw-last-update">{relativeTime(row.lastUpdateAt, now, locale)}</span>
          </Tooltip>
        ) : (
          <span className="sw-muted">{t('plants.neverReported')}</span>
        ),
    },
  ];

  if (actions.length > 0) {
    columns.push({
      key: 'actions',
      title: t('plants.colActions'),
      fixed: 'right',
      width: 116,
      render: (_, row) =>
        row.access === 'manage' ? (
          <Space size={0}>
            {actions.map((action) => (
              <Tooltip key={action} title={t(ACTION_LABELS[action])}>
                <Button
                  type="text"
                  danger={action === 'delete'}
                  icon={ACTION_ICONS[action]}
                  aria-label={t(ACTION_LABELS[action])}
                  onClick={() => onAction(action, row)}
                  data-testid={`plant-${action}`}
                />
              </Tooltip>
            ))}
          </Space>
        ) : null,
    });
  }

  const handleChange = (
    pagination: TablePaginationConfig,
    _filters: unknown,
    sorter: SorterResult<PlantRow> | SorterResult<PlantRow>[],
  ) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const order = one?.order === 'ascend' ? 'asc' : one?.order === 'descend' ? 'desc' : undefined;
    const field = order ? (one?.columnKey as PlantSortField | undefined) : undefined;
    const size = pagination.pageSize ?? params.size;
    const sortChanged = field !== params.sort || order !== params.order;
    // A new sorting or page size starts again at page 1.
    const page = sortChanged || size !== params.size ? 1 : (pagination.current ?? 1);
    onChange({ page, size, sort: field, order });
  };

  return (
    <Table<PlantRow>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={rows}
      loading={loading}
      scroll={{ x: 1100 }}
      onChange={handleChange}
      locale={{ emptyText: empty }}
      data-testid="plant-table"
      rowSelection={{
        selectedRowKeys: [...selectedIds],
        preserveSelectedRowKeys: true,
        hideSelectAll: true,
        columnWidth: 40,
        onChange: (keys) => {
          const picked = keys.map(Number);
          // Keep the order in which plants were picked: the comparison shows them that way.
          onSelect([...selectedIds.filter((id) => picked.includes(id)), ...picked.filter((id) => !selectedIds.includes(id))]);
        },
        getCheckboxProps: (row) => ({
          disabled: !selectedIds.includes(row.id) && selectedIds.length >= selectionMax,
          'aria-label': t('plants.selectForCompare', { name: row.name }),
        }),
      }}
      pagination={{
        current: params.page,
        pageSize: params.size,
        total,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES.map(String),
        showTotal: (count) => t('plants.totalPlants', { total: Number(count).toLocaleString(locale) }),
      }}
    />
  );
}
