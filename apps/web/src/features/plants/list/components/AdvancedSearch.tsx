import { PLANT_LIMITS } from '@sunward/contracts/plants';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, InputNumber, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchRegions, plantKeys } from '../api';
import { DEFAULT_LIST_PARAMS, type FilterPatch, type PlantListParams, parseListParams, serializeListParams } from '../list-params';

interface Values {
  status: number[];
  plantType: number[];
  capacityMin: number | null;
  capacityMax: number | null;
  region: string | undefined;
  gridDate: [Dayjs | null, Dayjs | null] | null;
}

function filterFields(params: PlantListParams): FilterPatch {
  const { status, plantType, capacityMin, capacityMax, region, gridDateFrom, gridDateTo } = params;
  return { status, plantType, capacityMin, capacityMax, region, gridDateFrom, gridDateTo };
}

function toValues(params: PlantListParams): Values {
  return {
    status: params.status,
    plantType: params.plantType,
    capacityMin: params.capacityMin ?? null,
    capacityMax: params.capacityMax ?? null,
    region: params.region,
    gridDate:
      params.gridDateFrom || params.gridDateTo
        ? [params.gridDateFrom ? dayjs(params.gridDateFrom) : null, params.gridDateTo ? dayjs(params.gridDateTo) : null]
        : null,
  };
}

const STATUS_OPTIONS = [
  { value: 1, label: 'plants.statusNormal' },
  { value: 2, label: 'plants.statusOffline' },
  { value: 3, label: 'plants.statusWarning' },
  { value: 4, label: 'plants.statusFault' },
  { value: 5, label: 'plants.statusUpgrading' },
  { value: 6, label: 'plants.statusProtect' },
];

export const PLANT_TYPE_LABELS: Record<number, string> = {
  1: 'plants.typeGrid',
  2: 'plants.typeAcStorage',
  3: 'plants.typeDcStorage',
};

interface Props {
  params: PlantListParams;
  onApply(patch: FilterPatch): void;
  onReset(): void;
}

/** Status, plant type, capacity range, region and grid-connection dates; applied together. */
export function AdvancedSearch({ params, onApply, onReset }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const regions = useQuery({ queryKey: plantKeys.regions, queryFn: fetchRegions, staleTime: 5 * 60_000 });

  // The panel follows the filters when they change elsewhere (a status link, a reset, back/forward);
  // paging or sorting leaves what the user is typing alone.
  const filters = serializeListParams({ ...DEFAULT_LIST_PARAMS, keyword: '', ...filterFields(params) });
  useEffect(() => form.setFieldsValue(toValues(parseListParams(filters))), [form, filters]);

  const apply = (values: Values) => {
    const [from, to] = values.gridDate ?? [null, null];
    onApply({
      status: values.status ?? [],
      plantType: values.plantType ?? [],
      capacityMin: values.capacityMin ?? undefined,
      capacityMax: values.capacityMax ?? undefined,
      region: values.region || undefined,
      gridDateFrom: from ? from.format('YYYY-MM-DD') : undefined,
      gridDateTo: to ? to.format('YYYY-MM-DD') : undefined,
    });
  };

  return (
    <Form
      form={form}
      layout="vertical"
      className="sw-advanced-search"
      initialValues={toValues(params)}
      onFinish={apply}
      data-testid="advanced-search"
    >
      <div className="sw-advanced-grid">
        <Form.Item name="status" label={t('plants.filterStatus')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('plants.anyValue')}
            options={STATUS_OPTIONS.map((o) => ({ value: o.value, label: t(o.label) }))}
          />
        </Form.Item>
        <Form.Item name="plantType" label={t('plants.filterType')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('plants.anyValue')}
            options={Object.entries(PLANT_TYPE_LABELS).map(([value, label]) => ({ value: Number(value), label: t(label) }))}
          />
        </Form.Item>
        <Form.Item label={t('plants.filterCapacity')}>
          <Space.Compact block>
            <Form.Item name="capacityMin" noStyle>
              <InputNumber
                min={0}
                max={PLANT_LIMITS.capacityMaxKwp}
                placeholder={t('plants.capacityMin')}
                aria-label={t('plants.capacityMin')}
                style={{ width: '50%' }}
              />
            </Form.Item>
            <Form.Item name="capacityMax" noStyle>
              <InputNumber
                min={0}
                max={PLANT_LIMITS.capacityMaxKwp}
                placeholder={t('plants.capacityMax')}
                aria-label={t('plants.capacityMax')}
                style={{ width: '50%' }}
              />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="region" label={t('plants.filterRegion')}>
          <Select
            allowClear
            showSearch
            loading={regions.isPending}
            placeholder={t('plants.anyValue')}
            notFoundContent={t('plants.noRegions')}
            options={(regions.data?.regions ?? []).map((r) => ({ value: r, label: r }))}
          />
        </Form.Item>
        <Form.Item name="gridDate" label={t('plants.filterGridDate')}>
          <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: '100%' }} />
        </Form.Item>
      </div>
      <Space>
        <Button type="primary" htmlType="submit" data-testid="advanced-apply">
          {t('plants.apply')}
        </Button>
        <Button
          onClick={() => {
            onReset();
          }}
          data-testid="advanced-reset"
        >
          {t('plants.reset')}
        </Button>
      </Space>
    </Form>
  );
}
