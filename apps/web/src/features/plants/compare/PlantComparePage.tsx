import './compare.css';
// Registers the plant screens' texts before the first render (the registry is idempotent).
import '../../../lib/texts/plants';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { addDays, type Compare, dayCount, RANGE_DAYS_MAX } from '@sunward/contracts/plant-energy';
import { PLANT_LIMITS, PlantPageSchema } from '@sunward/contracts/plants';
import { formatEnergy, formatNumber, scaleEnergy } from '@sunward/contracts/units';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Empty, Segmented, Select, Skeleton, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartOption } from '../../../components/Chart';
import { PageTitle } from '../../../components/PageTitle';
import { apiRequest } from '../../../lib/api-client';
import { formatSpecificYield } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { barLabel, latestToday } from '../../../lib/plant-format';
import { useUrlList } from '../../../lib/use-url-list';
import { fetchCompare } from '../overview/api';

const PALETTE = ['#f59e0b', '#3b82f6', '#22c55e', '#8b5cf6', '#ef4444', '#14b8a6'];
type Metric = 'yield' | 'energy';
const QUICK = [7, 30, 90] as const;

/** The ids in the address (?ids=1,2,3), at most six, numbers only. */
export function idsFromQuery(value: string | null): number[] {
  if (!value) return [];
  const ids = value
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  return [...new Set(ids)].slice(0, PLANT_LIMITS.compareMax);
}

function chartOption(data: Compare, metric: Metric, locale: string, t: (key: string) => string): ChartOption {
  const days = data.plants[0]?.days.map((d) => d.day) ?? [];
  const max = data.plants.reduce((m, p) => p.days.reduce((mm, d) => Math.max(mm, d.energyWh ?? 0), m), 0);
  const scaled = scaleEnergy(max);
  const factor = max === 0 ? 1000 : max / scaled.value;
  return {
    grid: { left: 8, right: 16, top: 48, bottom: 8, containLabel: true },
    legend: { top: 0, left: 0, type: 'scroll' },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) =>
        value === null || value === undefined
          ? '--'
          : metric === 'yield'
            ? formatSpecificYield(Number(value), locale)
            : formatEnergy(Number(value) * factor, locale),
    },
    xAxis: { type: 'category', data: days.map((d) => barLabel(d, locale)), axisLabel: { hideOverlap: true } },
    yAxis: {
      type: 'value',
      name: metric === 'yield' ? t('compare.yieldAxis') : max === 0 ? 'kWh' : scaled.unit,
      splitLine: { lineStyle: { type: 'dashed' } },
      axisLabel: { formatter: (v: number) => formatNumber(v, locale, 3) },
    },
    series: data.plants.map((p, i) =>
      metric === 'yield'
        ? {
            type: 'line' as const,
            name: p.name,
            data: p.days.map((d) => d.specificYield),
            symbolSize: 6,
            connectNulls: false,
            itemStyle: { color: PALETTE[i % PALETTE.length] },
            lineStyle: { width: 2 },
          }
        : {
            type: 'bar' as const,
            name: p.name,
            data: p.days.map((d) => (d.energyWh === null ? null : d.energyWh / factor)),
            barMaxWidth: 18,
            itemStyle: { color: PALETTE[i % PALETTE.length] },
          },
    ),
  };
}

interface SummaryRow {
  id: number;
  name: string;
  capacityKwp: number;
  energyWh: number;
  yieldTotal: number | null;
  yieldAverage: number | null;
  color: string;
}

/** /plants/compare?ids=1,2: up to six plants' daily specific yield and energy over the same days. */
export function PlantComparePage() {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  // The comparison has no pages: the list state's page reset does not apply.
  const { search, update } = useUrlList([], '');
  const ids = idsFromQuery(search.get('ids'));
  const metric: Metric = search.get('metric') === 'energy' ? 'energy' : 'yield';

  const plants = useQuery({
    queryKey: ['plantCompare', 'options'],
    queryFn: () => apiRequest('/api/v1/plants', { query: { size: 100, sort: 'name', order: 'asc' }, schema: PlantPageSchema }),
  });
  // "Today" is the plants' own day, not the browser's: the latest among the chosen plants' time zones
  // (a plant east of the viewer may already be on tomorrow), the browser's until the list arrives.
  const chosenZones = (plants.data?.records ?? []).filter((p) => ids.includes(p.id)).map((p) => p.timezone);
  const today = latestToday(chosenZones.length > 0 ? chosenZones : [Intl.DateTimeFormat().resolvedOptions().timeZone]);
  const to = search.get('to') ?? today;
  const from = search.get('from') ?? addDays(to, -6);
  const compare = useQuery({
    queryKey: ['plantCompare', ids.join(','), from, to],
    queryFn: () => fetchCompare(ids, from, to),
    enabled: ids.length >= 1,
    placeholderData: keepPreviousData,
  });

  const quick = QUICK.find((n) => to === today && dayCount(from, to) === n);
  const rows: SummaryRow[] = (compare.data?.plants ?? []).map((p, i) => {
    const measured = p.days.filter((d) => d.energyWh !== null);
    const energyWh = measured.reduce((s, d) => s + (d.energyWh ?? 0), 0);
    const yieldTotal = p.capacityKwp > 0 ? energyWh / 1000 / p.capacityKwp : null;
    return {
      id: p.id,
      name: p.name,
      capacityKwp: p.capacityKwp,
      energyWh,
      yieldTotal,
      yieldAverage: yieldTotal === null || measured.length === 0 ? null : yieldTotal / measured.length,
      color: PALETTE[i % PALETTE.length] ?? '#999',
    };
  });
  const columns: ColumnsType<SummaryRow> = [
    {
      key: 'name',
      title: t('compare.plant'),
      render: (_, r) => (
        <span>
          <span className="sw-cmp-dot" style={{ background: r.color }} aria-hidden />
          {r.name}
        </span>
      ),
    },
    { key: 'capacity', title: t('compare.capacity'), align: 'right', render: (_, r) => `${formatNumber(r.capacityKwp, locale, 3)} kWp` },
    { key: 'energy', title: t('compare.energy'), align: 'right', render: (_, r) => formatEnergy(r.energyWh, locale) },
    { key: 'yield', title: t('compare.yieldTotal'), align: 'right', render: (_, r) => formatSpecificYield(r.yieldTotal, locale) },
    { key: 'average', title: t('compare.yieldAverage'), align: 'right', render: (_, r) => formatSpecificYield(r.yieldAverage, locale) },
  ];
  const noData = compare.data?.plants.every((p) => p.days.every((d) => d.energyWh === null));

  return (
    <div className="sw-cmp" data-testid="plant-compare-page">
      <PageTitle className="sw-cmp-title">{t('route.plantCompare')}</PageTitle>
      <Card className="sw-cmp-controls">
        <Space wrap size={[16, 12]} align="center">
          <Select
            mode="multiple"
            className="sw-cmp-select"
            placeholder={t('compare.pickPlants', { max: PLANT_LIMITS.compareMax })}
            value={ids}
            loading={plants.isPending}
            maxCount={PLANT_LIMITS.compareMax}
            optionFilterProp="label"
            options={(plants.data?.records ?? []).map((p) => ({ value: p.id, label: p.name }))}
            onChange={(next: number[]) => update({ ids: next.join(',') })}
            aria-label={t('compare.pickPlants', { max: PLANT_LIMITS.compareMax })}
            data-testid="compare-plants"
          />
          <Segmented
            value={quick ?? 0}
            options={[
              ...QUICK.map((n) => ({ value: n, label: t('compare.lastDays', { count: n }) })),
              ...(quick ? [] : [{ value: 0, label: t('compare.custom') }]),
            ]}
            onChange={(n) => n > 0 && update({ from: addDays(today, -n + 1), to: today })}
          />
          <DatePicker.RangePicker
            allowClear={false}
            value={[dayjs(from), dayjs(to)]}
            disabledDate={(d: Dayjs) => d.isAfter(dayjs(today), 'day')}
            onChange={(range) => {
              const [a, b] = range ?? [];
              if (!a || !b) return;
              const start = a.format('YYYY-MM-DD');
              const end = b.format('YYYY-MM-DD');
              update({ from: dayCount(start, end) > RANGE_DAYS_MAX ? addDays(end, -RANGE_DAYS_MAX + 1) : start, to: end });
            }}
          />
          <Segmented
            value={metric}
            options={[
              { value: 'yield', label: t('compare.metricYield') },
              { value: 'energy', label: t('compare.metricEnergy') },
            ]}
            onChange={(m) => update({ metric: m === 'yield' ? undefined : m })}
            data-testid="compare-metric"
          />
        </Space>
      </Card>
      <Card>
        {ids.length < 2 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('compare.empty', { max: PLANT_LIMITS.compareMax })}
            data-testid="compare-empty"
          />
        ) : compare.isPending ? (
          <Skeleton active paragraph={{ rows: 8 }} />
        ) : !compare.data || noData ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('compare.noData')} />
        ) : (
          <>
            <Chart option={chartOption(compare.data, metric, locale, t)} height={360} testId="compare-chart" />
            <Table size="small" rowKey="id" columns={columns} dataSource={rows} pagination={false} className="sw-cmp-table" />
          </>
        )}
      </Card>
    </div>
  );
}
