import type { Generation, Use } from '@sunward/contracts/plant-energy';
import { formatEnergy, formatNumber, formatPower, scaleEnergy, scalePower } from '@sunward/contracts/units';
import { useQuery } from '@tanstack/react-query';
import { Alert, Col, Empty, Row, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHART_COLORS, Chart, type ChartOption, offsetTooltip } from '../../../../components/Chart';
import { Panel } from '../../../../components/Panel';
import { defaultParam, type Period, PeriodPicker } from '../../../../components/PeriodPicker';
import { Text, Title } from '../../../../components/Typo';
import { barLabel, formatShare, plantTimeAxis } from '../../../../lib/plant-format';
import { fetchGeneration, fetchUse, overviewKeys } from '../api';
import { LoadFailed } from './LoadFailed';

interface Part {
  name: string;
  color: string;
  /** Per point W (day) or per bar Wh (other periods). */
  values: (number | null)[];
  totalWh: number | null;
}

function stackedOption(period: Period, keys: (number | string)[], parts: Part[], timezone: string, locale: string): ChartOption {
  const day = period.tab === 'day';
  const axis = plantTimeAxis(period.tab === 'day' ? period.param : '1970-01-01', 1, timezone, locale);
  const max = keys.reduce<number>(
    (m, _, i) =>
      Math.max(
        m,
        parts.reduce((s, p) => s + (p.values[i] ?? 0), 0),
      ),
    0,
  );
  const scaled = day ? scalePower(max) : scaleEnergy(max);
  const factor = max === 0 ? (day ? 1 : 1000) : max / scaled.value;
  return {
    grid: { left: 8, right: 12, top: 40, bottom: 8, containLabel: true },
    legend: { top: 0, left: 0, itemWidth: 12, itemHeight: 8 },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) =>
        value === null ? '--' : day ? formatPower(Number(value) * factor, locale) : formatEnergy(Number(value) * factor, locale),
      ...(day ? { formatter: offsetTooltip(axis.label, (w) => formatPower(w * factor, locale)) } : {}),
    },
    xAxis: day
      ? {
          type: 'value',
          min: 0,
          max: axis.span,
          interval: axis.interval,
          axisLabel: { formatter: (v: number) => axis.label(v), hideOverlap: true },
          splitLine: { show: false },
        }
      : { type: 'category', data: keys.map((k) => barLabel(String(k), locale)), axisLabel: { hideOverlap: true } },
    yAxis: {
      type: 'value',
      name: max === 0 ? (day ? 'W' : 'kWh') : scaled.unit,
      splitLine: { lineStyle: { type: 'dashed' } },
      axisLabel: { formatter: (v: number) => formatNumber(v, locale, 2) },
    },
    series: parts.map((p) =>
      day
        ? {
            type: 'line' as const,
            name: p.name,
            stack: 'total',
            showSymbol: keys.length <= 2,
            smooth: 0.2,
            lineStyle: { width: 1, color: p.color },
            itemStyle: { color: p.color },
            areaStyle: { color: p.color, opacity: 0.55 },
            data: keys.map((k, i) => [Number(k) - axis.base, (p.values[i] ?? 0) / factor]),
          }
        : {
            type: 'bar' as const,
            name: p.name,
            stack: 'total',
            barMaxWidth: 26,
            itemStyle: { color: p.color },
            data: p.values.map((v) => (v === null ? null : v / factor)),
          },
    ),
  };
}

function Totals({ parts, locale }: { parts: Part[]; locale: string }) {
  const sum = parts.reduce((s, p) => s + (p.totalWh ?? 0), 0);
  return (
    <div className="sw-ov-split-totals">
      {parts.map((p) => (
        <span key={p.name} className="sw-ov-split-total">
          <span className="sw-ov-dot" style={{ background: p.color }} aria-hidden />
          {p.name}: <strong>{formatEnergy(p.totalWh, locale)}</strong>
          {sum > 0 && p.totalWh !== null && <Text type="secondary"> ({formatShare(p.totalWh / sum, locale)})</Text>}
        </span>
      ))}
    </div>
  );
}

function generationParts(g: Generation, t: (k: string) => string): { keys: (number | string)[]; parts: Part[] } {
  const day = g.period === 'day';
  return {
    keys: day ? g.points.map((p) => p[0]) : g.bars.map((b) => b.key),
    parts: [
      {
        name: t('overview.selfUse'),
        color: CHART_COLORS.selfUse,
        values: day ? g.points.map((p) => p[1]) : g.bars.map((b) => b.selfUseWh),
        totalWh: g.totals.selfUseWh,
      },
      {
        name: t('overview.export'),
        color: CHART_COLORS.export,
        values: day ? g.points.map((p) => p[2]) : g.bars.map((b) => b.exportWh),
        totalWh: g.totals.exportWh,
      },
    ],
  };
}

function consumptionParts(u: Use, t: (k: string) => string): { keys: (number | string)[]; parts: Part[] } {
  const day = u.period === 'day';
  const parts: Part[] = [
    {
      name: t('overview.fromPv'),
      color: CHART_COLORS.pv,
      values: day ? u.points.map((p) => p[1]) : u.bars.map((b) => b.fromPvWh),
      totalWh: u.totals.fromPvWh,
    },
  ];
  // A plant without a battery shows no battery share at all.
  if (u.totals.fromBatteryWh !== null)
    parts.push({
      name: t('overview.fromBattery'),
      color: CHART_COLORS.battery,
      values: day ? u.points.map((p) => p[2]) : u.bars.map((b) => b.fromBatteryWh),
      totalWh: u.totals.fromBatteryWh,
    });
  parts.push({
    name: t('overview.fromGrid'),
    color: CHART_COLORS.grid,
    values: day ? u.points.map((p) => p[3]) : u.bars.map((b) => b.fromGridWh),
    totalWh: u.totals.fromGridWh,
  });
  return { keys: day ? u.points.map((p) => p[0]) : u.bars.map((b) => b.key), parts };
}

/** Generation split into self-use and export, consumption into solar, battery and grid (metered plants). */
export function SplitCard({ plantId, timezone, today, locale }: { plantId: number; timezone: string; today: string; locale: string }) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<Period>({ tab: 'day', param: defaultParam('day', today) });
  const generation = useQuery({
    queryKey: overviewKeys.split(plantId, 'generation', period.tab, period.param),
    queryFn: () => fetchGeneration(plantId, period.tab, period.param),
  });
  const use = useQuery({
    queryKey: overviewKeys.split(plantId, 'use', period.tab, period.param),
    queryFn: () => fetchUse(plantId, period.tab, period.param),
  });

  const body = () => {
    if (generation.isError || use.isError) return <LoadFailed />;
    if (generation.isPending || use.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
    if (!generation.data || !use.data) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
    if (!generation.data.metered) return <Alert type="info" showIcon title={t('overview.splitUnmetered')} data-testid="split-unmetered" />;
    const gen = generationParts(generation.data, t);
    const cons = consumptionParts(use.data, t);
    const nothing = generation.data.totals.generationWh === 0 && (use.data.totals.loadWh ?? 0) === 0;
    if (nothing) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('overview.noDataPeriod')} />;
    return (
      <Row gutter={[24, 16]}>
        <Col xs={24} lg={12}>
          <Title level={5}>
            {t('overview.generation')} · {formatEnergy(generation.data.totals.generationWh, locale)}
          </Title>
          <Chart option={stackedOption(period, gen.keys, gen.parts, timezone, locale)} height={260} testId="generation-chart" />
          <Totals parts={gen.parts} locale={locale} />
        </Col>
        <Col xs={24} lg={12}>
          <Title level={5}>
            {t('overview.consumption')} · {formatEnergy(use.data.totals.loadWh, locale)}
          </Title>
          <Chart option={stackedOption(period, cons.keys, cons.parts, timezone, locale)} height={260} testId="use-chart" />
          <Totals parts={cons.parts} locale={locale} />
        </Col>
      </Row>
    );
  };

  return (
    <Panel
      title={t('overview.splitTitle')}
      className="sw-ov-card"
      testId="split-card"
      extra={<PeriodPicker period={period} today={today} onChange={setPeriod} testId="split" />}
    >
      {body()}
    </Panel>
  );
}
