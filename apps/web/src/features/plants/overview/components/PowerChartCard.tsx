import type { EnergyBars, PowerDay } from '@sunward/contracts/plant-energy';
import { formatEnergy, formatNumber, formatPower, scaleEnergy, scalePower } from '@sunward/contracts/units';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Empty, Segmented, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHART_COLORS, Chart, type ChartOption, offsetTooltip } from '../../../../components/Chart';
import { Panel } from '../../../../components/Panel';
import { PERIOD_TABS, PeriodDateField, type PeriodTab } from '../../../../components/PeriodPicker';
import { Text } from '../../../../components/Typo';
import {
  barLabel,
  type ChartRange,
  lastDays,
  monthsOf,
  plantTimeAxis,
  QUICK_RANGES,
  type QuickRange,
  quickOf,
  quickRange,
} from '../../../../lib/plant-format';
import { fetchBars, fetchPowerDay, overviewKeys } from '../api';
import { LoadFailed } from './LoadFailed';

const QUICK_LABEL: Record<QuickRange, string> = {
  today: 'overview.quickToday',
  yesterday: 'overview.quickYesterday',
  last3: 'overview.quickLast3',
  last7: 'overview.quickLast7',
  last30: 'overview.quickLast30',
  last60: 'overview.quickLast60',
};

function tabOf(range: ChartRange): PeriodTab {
  if (range.mode === 'month') return 'month';
  if (range.mode === 'year') return 'year';
  if (range.mode === 'total') return 'total';
  return 'day';
}

interface Bar {
  key: string;
  energyWh: number | null;
  predictedWh: number | null;
}

/** A day's (or a few days') power as a curve, on the plant's clock. */
function curveOption(days: PowerDay[], timezone: string, locale: string, t: (key: string) => string): ChartOption {
  const points = days.flatMap((d) => d.points);
  const max = points.reduce((m, [, w]) => Math.max(m, w), 0);
  const unit = scalePower(max).unit;
  const factor = max === 0 ? 1 : max / scalePower(max).value;
  const axis = plantTimeAxis(days[0]?.date ?? '1970-01-01', Math.max(1, days.length), timezone, locale);
  return {
    grid: { left: 8, right: 24, top: 36, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      axisPointer: { label: { formatter: ({ value }) => axis.label(Number(value)) } },
      formatter: offsetTooltip(axis.label, (w) => formatPower(w * factor, locale)),
    },
    xAxis: {
      type: 'value',
      min: 0,
      max: axis.span,
      interval: axis.interval,
      axisLabel: { formatter: (value: number) => axis.label(value), hideOverlap: true },
      splitLine: { show: false },
    },
    yAxis: {
      type: 'value',
      name: unit,
      nameTextStyle: { align: 'right' },
      splitLine: { lineStyle: { type: 'dashed' } },
      axisLabel: { formatter: (v: number) => formatNumber(v, locale, 2) },
    },
    series: [
      {
        type: 'line',
        name: t('overview.seriesPower'),
        // A curve of one or two readings would draw nothing without its points.
        showSymbol: points.length <= 2,
        smooth: 0.2,
        data: points.map(([ts, w]) => [ts - axis.base, w / factor]),
        lineStyle: { color: CHART_COLORS.pv, width: 2 },
        itemStyle: { color: CHART_COLORS.pv },
        areaStyle: {
          color: {
            type: 'linear',
            x: 0,
            y: 0,
            x2: 0,
            y2: 1,
            colorStops: [
              { offset: 0, color: 'rgba(245, 158, 11, 0.45)' },
              { offset: 1, color: 'rgba(245, 158, 11, 0.03)' },
            ],
          },
        },
      },
    ],
  };
}

/** Energy bars, with predicted energy beside them where predictions were imported. */
function barsOption(bars: Bar[], locale: string, t: (key: string) => string): ChartOption {
  const max = bars.reduce((m, b) => Math.max(m, b.energyWh ?? 0, b.predictedWh ?? 0), 0);
  const scaled = scaleEnergy(max);
  const factor = max === 0 ? 1000 : max / scaled.value;
  const hasPrediction = bars.some((b) => b.predictedWh !== null);
  return {
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    legend: hasPrediction ? { top: 0, right: 0 } : undefined,
    tooltip: { trigger: 'axis', valueFormatter: (value) => (value === null ? '--' : formatEnergy(Number(value) * factor, locale)) },
    xAxis: { type: 'category', data: bars.map((b) => barLabel(b.key, locale)), axisLabel: { hideOverlap: true } },
    yAxis: {
      type: 'value',
      name: max === 0 ? 'kWh' : scaled.unit,
      splitLine: { lineStyle: { type: 'dashed' } },
      axisLabel: { formatter: (v: number) => formatNumber(v, locale, 2) },
    },
    series: [
      {
        type: 'bar',
        name: t('overview.seriesEnergy'),
        data: bars.map((b) => (b.energyWh === null ? null : b.energyWh / factor)),
        itemStyle: { color: CHART_COLORS.pv, borderRadius: [3, 3, 0, 0] },
        barMaxWidth: 28,
      },
      ...(hasPrediction
        ? [
            {
              type: 'bar' as const,
              name: t('overview.seriesPredicted'),
              data: bars.map((b) => (b.predictedWh === null ? null : b.predictedWh / factor)),
              itemStyle: { color: CHART_COLORS.predicted, borderRadius: [3, 3, 0, 0] as [number, number, number, number] },
              barMaxWidth: 28,
            },
          ]
        : []),
    ],
  };
}

/** Power curve of a day and energy bars by day, month and year, with quick ranges and predictions. */
export function PowerChartCard({ plantId, timezone, today, locale }: { plantId: number; timezone: string; today: string; locale: string }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<ChartRange>({ mode: 'day', date: today });
  const tab = tabOf(range);

  const curveDays = range.mode === 'day' ? [range.date] : range.mode === 'days' ? lastDays(today, range.count) : [];
  const curves = useQueries({
    queries: curveDays.map((date) => ({
      queryKey: overviewKeys.powerDay(plantId, date),
      queryFn: () => fetchPowerDay(plantId, date),
      refetchInterval: date === today ? 5 * 60_000 : (false as const),
    })),
  });
  const barDays = range.mode === 'dayBars' ? lastDays(today, range.count) : [];
  const monthBars = useQueries({
    queries: monthsOf(barDays).map((month) => ({
      queryKey: overviewKeys.bars(plantId, 'month', month),
      queryFn: () => fetchBars(plantId, 'month', month),
    })),
  });
  const periodParam = range.mode === 'month' ? range.month : range.mode === 'year' ? range.year : '';
  const periodBars = useQuery({
    queryKey: overviewKeys.bars(plantId, range.mode === 'month' ? 'month' : range.mode === 'year' ? 'year' : 'total', periodParam),
    queryFn: () => fetchBars(plantId, range.mode === 'month' ? 'month' : range.mode === 'year' ? 'year' : 'total', periodParam),
    enabled: range.mode === 'month' || range.mode === 'year' || range.mode === 'total',
  });

  const failed = curves.some((q) => q.isError) || monthBars.some((q) => q.isError) || periodBars.isError;
  let loading = false;
  let option: ChartOption | undefined;
  let summary = '';
  let empty = false;
  if (curveDays.length > 0) {
    loading = curves.some((q) => q.isPending);
    const days = curves.flatMap((q) => (q.data ? [q.data] : []));
    empty = !loading && days.every((d) => d.points.length === 0);
    if (!loading) option = curveOption(days, timezone, locale, t);
    const measured = days.reduce((s, d) => s + (d.energyWh ?? 0), 0);
    const predicted = days.some((d) => d.predictedWh !== null) ? days.reduce((s, d) => s + (d.predictedWh ?? 0), 0) : null;
    summary =
      predicted === null
        ? t('overview.measured', { value: formatEnergy(measured, locale) })
        : t('overview.actualVsPredicted', { actual: formatEnergy(measured, locale), predicted: formatEnergy(predicted, locale) });
  } else {
    let bars: Bar[] = [];
    let total: EnergyBars | undefined;
    if (range.mode === 'dayBars') {
      loading = monthBars.some((q) => q.isPending);
      const wanted = new Set(barDays);
      bars = monthBars.flatMap((q) => q.data?.bars ?? []).filter((b) => wanted.has(b.key));
    } else {
      loading = periodBars.isPending;
      total = periodBars.data;
      bars = total?.bars ?? [];
    }
    empty = !loading && bars.every((b) => b.energyWh === null && b.predictedWh === null);
    if (!loading) option = barsOption(bars, locale, t);
    const measured = bars.reduce((s, b) => s + (b.energyWh ?? 0), 0);
    const predicted = bars.some((b) => b.predictedWh !== null) ? bars.reduce((s, b) => s + (b.predictedWh ?? 0), 0) : null;
    summary =
      predicted === null
        ? t('overview.measured', { value: formatEnergy(measured, locale) })
        : t('overview.actualVsPredicted', { actual: formatEnergy(measured, locale), predicted: formatEnergy(predicted, locale) });
  }

  const pickTab = (next: PeriodTab) =>
    setRange(
      next === 'day'
        ? { mode: 'day', date: today }
        : next === 'month'
          ? { mode: 'month', month: today.slice(0, 7) }
          : next === 'year'
            ? { mode: 'year', year: today.slice(0, 4) }
            : { mode: 'total' },
    );
  const pickerTab = range.mode === 'day' || range.mode === 'month' || range.mode === 'year' ? range.mode : undefined;
  const pickerParam = range.mode === 'day' ? range.date : range.mode === 'month' ? range.month : range.mode === 'year' ? range.year : '';

  return (
    <Panel
      title={t('overview.chartTitle')}
      className="sw-ov-card"
      testId="power-chart-card"
      extra={
        <Text type="secondary" data-testid="power-chart-summary">
          {loading ? '' : summary}
        </Text>
      }
    >
      <div className="sw-ov-chart-controls">
        <Segmented
          size="small"
          value={tab}
          options={PERIOD_TABS.map((p) => ({ value: p.value, label: t(p.label) }))}
          onChange={pickTab}
          data-testid="power-chart-tabs"
        />
        {pickerTab && (
          <PeriodDateField
            tab={pickerTab}
            param={pickerParam}
            today={today}
            label={t('overview.pickDate')}
            onChange={(param) =>
              setRange(
                pickerTab === 'month'
                  ? { mode: 'month', month: param }
                  : pickerTab === 'year'
                    ? { mode: 'year', year: param }
                    : { mode: 'day', date: param },
              )
            }
          />
        )}
        {tab === 'day' && (
          // No choice shows as chosen while the range is one picked by date ('' is no option).
          <Segmented<QuickRange | ''>
            size="small"
            value={quickOf(range, today) ?? ''}
            onChange={(q) => {
              if (q) setRange(quickRange(q, today));
            }}
            options={QUICK_RANGES.map((q) => ({ value: q, label: t(QUICK_LABEL[q]) }))}
            data-testid="power-chart-quick"
          />
        )}
      </div>
      {failed ? (
        <LoadFailed />
      ) : loading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : empty || !option ? (
        <Empty
          className="sw-ov-chart-empty"
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={curveDays.length > 0 ? t('overview.noDataDay') : t('overview.noDataPeriod')}
        />
      ) : (
        <Chart option={option} height={300} testId="power-chart" />
      )}
    </Panel>
  );
}
