import { DeleteOutlined, PictureOutlined, ShareAltOutlined, SwapOutlined } from '@ant-design/icons';
import type { PlantRow, PlantSortField } from '@sunward/contracts/plants';
import { formatCapacity, formatEnergy, formatPower } from '@sunward/contracts/units';
import { Avatar, Button, Space, Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type LiteColumn, LiteTable } from '../../../../components/LiteTable';
import { StatusTag } from '../../../../components/StatusTag';
import { Text } from '../../../../components/Typo';
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

/** The plant table: sorting and pages are served by the server; a light table, the list being a first load (issue 18). */
export function PlantTable(props: Props) {
  const { rows, total, loading, params, locale, actions, selectedIds, selectionMax, empty, onSelect, onChange, onAction } = props;
  const { t } = useTranslation();
  const now = Date.now();

  const columns: LiteColumn<PlantRow>[] = [
    {
      key: 'name',
      title: t('plants.colName'),
      sortable: true,
      render: (row) => (
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
              <Text type="secondary" ellipsis className="sw-plant-place">
                {row.address ?? row.region}
              </Text>
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
      sortable: true,
      render: (row) => formatCapacity(row.capacityKwp, locale),
    },
    {
      key: 'powerW',
      width: 100,
      title: t('plants.colPower'),
      align: 'right',
      sortable: true,
      render: (row) => formatPower(row.powerW, locale),
    },
    {
      key: 'energyTodayWh',
      width: 100,
      title: t('plants.colEnergyToday'),
      align: 'right',
      sortable: true,
      render: (row) => formatEnergy(row.energyTodayWh, locale),
    },
    {
      key: 'energyTotalWh',
      width: 110,
      title: t('plants.colEnergyTotal'),
      align: 'right',
      sortable: true,
      render: (row) => formatEnergy(row.energyTotalWh, locale),
    },
    {
      key: 'specificYield',
      // Wide enough for its header in two lines with the sorter (at 110 px it took three).
      width: 150,
      title: t('plants.colSpecificYield'),
      align: 'right',
      sortable: true,
      render: (row) => formatSpecificYield(row.specificYield, locale, false),
    },
    { key: 'status', width: 120, title: t('plants.colStatus'), sortable: true, render: (row) => <StatusTag status={row.status} /> },
    {
      key: 'lastUpdateAt',
      width: 115,
      title: t('plants.colLastUpdate'),
      sortable: true,
      render: (row) =>
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
      fixedRight: true,
      width: 116,
      render: (row) =>
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

  const sortable: readonly string[] = columns.filter((c) => c.sortable).map((c) => c.key);
  const change = (page: number, size: number, sort = params.sort, order = params.order) => onChange({ page, size, sort, order });
  return (
    <LiteTable<PlantRow>
      rowKey={(row) => row.id}
      columns={columns}
      rows={rows}
      loading={loading}
      minWidth={1100}
      empty={empty}
      testId="plant-table"
      sort={{
        key: params.sort,
        order: params.order,
        // A new sorting starts again at page 1.
        onSort: (key, order) =>
          change(1, params.size, key && sortable.includes(key) ? (key as PlantSortField) : undefined, key ? order : undefined),
      }}
      selection={{
        isSelected: (row) => selectedIds.includes(row.id),
        isDisabled: (row) => !selectedIds.includes(row.id) && selectedIds.length >= selectionMax,
        label: (row) => t('plants.selectForCompare', { name: row.name }),
        // Keep the order in which plants were picked: the comparison shows them that way.
        onToggle: (row, checked) => onSelect(checked ? [...selectedIds, row.id] : selectedIds.filter((id) => id !== row.id)),
      }}
      pagination={{
        page: params.page,
        size: params.size,
        total,
        sizes: PAGE_SIZES,
        showTotal: (count) => t('plants.totalPlants', { total: Number(count).toLocaleString(locale) }),
        // A new page size starts again at page 1.
        onChange: (page, size) => change(size !== params.size ? 1 : page, size),
      }}
    />
  );
}
