import { DEVICE_LIMITS, type DeviceDetail, type DeviceKind } from '@sunward/contracts/devices';
import { addDays, localDayOf, localDayStart } from '@sunward/contracts/plant-energy';
import { formatEnergy } from '@sunward/contracts/units';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartOption } from '../../../components/Chart';
import { defaultParam, type Period, PeriodPicker } from '../../../components/PeriodPicker';
import { clockInZone } from '../../../lib/plant-format';
import { dayQuery, deviceKeys, FRESH_MS, fetchEnergy } from '../api';

const QUICK_RANGES = [
  { label: 'devices.today', days: 1, yesterday: false },
  { label: 'devices.yesterday', days: 1, yesterday: true },
  ...[3, 7, 30, 60].map((n) => ({ label: 'devices.lastDays', days: n, yesterday: false })),
];

const PALETTE = ['#f59e0b', '#3b82f6', '#22c55e', '#8b5cf6', '#ef4444', '#14b8a6'];

interface Props {
  kind: DeviceKind;
  detail: DeviceDetail;
  today: string;
  locale: string;
}

/**
 * The device's charts: a day of up to 6 points (at most 6 units) picked from its register map, and
 * energy bars by month, year and lifetime from its counters. Quick ranges: today and yesterday.
 */
export function DeviceCharts({ kind, detail, today, locale }: Props) {
  const { t } = useTranslation();
  const sn = detail.device.sn;
  const [period, setPeriod] = useState<Period>({ tab: 'day', param: today });
  // Spec 02 §9 quick ranges: today, yesterday, the last 3, 7, 30 and 60 days (curves over several days).
  const [days, setDays] = useState(1);
  const [points, setPoints] = useState<string[]>(detail.defaultPoints);
  const pointsKey = points.join(',');

  // Today with the model's default points is the query the page started before it knew the device.
  const isDefault = period.param === today && days === 1 && pointsKey === detail.defaultPoints.join(',');
  const day = useQuery({
    ...(isDefault ? dayQuery(kind, sn) : dayQuery(kind, sn, period.param, days, pointsKey)),
    enabled: period.tab === 'day' && points.length > 0,
    staleTime: FRESH_MS,
    placeholderData: keepPreviousData,
  });
  const energy = useQuery({
    queryKey: deviceKeys.energy(kind, sn, period.tab, period.param),
    queryFn: () => fetchEnergy(kind, sn, period.tab as 'month' | 'year' | 'total', period.param),
    enabled: period.tab !== 'day',
    placeholderData: keepPreviousData,
  });

  const unitsOf = (ids: readonly string[]) => new Set(ids.map((id) => detail.points.find((p) => p.id === id)?.unit ?? ''));
  const onPick = (ids: string[]) => {
    if (ids.length > DEVICE_LIMITS.chartPointsMax || unitsOf(ids).size > DEVICE_LIMITS.chartUnitsMax) return;
    setPoints(ids);
  };

  let option: ChartOption | undefined;
  let empty = false;
  if (period.tab === 'day' && day.data) {
    const units = [...new Set(day.data.series.map((s) => s.unit ?? ''))];
    const zone = day.data.timezone;
    option = {
      color: PALETTE,
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 56, right: units.length > 1 ? 56 : 16, top: 36, bottom: 28 },
      // The whole day on the axis, in the device's time zone, however much of it has data.
      xAxis: {
        type: 'time',
        min: localDayStart(addDays(day.data.date, 1 - day.data.days), zone),
        max: localDayStart(addDays(day.data.date, 1), zone),
        axisLabel: {
          formatter: (value: number) =>
            day.data.days > 1 ? `${localDayOf(value, zone).slice(5)} ${clockInZone(value, zone)}` : clockInZone(value, zone),
        },
      },
      yAxis: units.map((unit, i) => ({
        type: 'value',
        name: unit,
        show: i < 2,
        position: i === 0 ? 'left' : 'right',
        splitLine: { show: i === 0 },
      })),
      series: day.data.series.map((s) => ({
        type: 'line',
        name: s.unit ? `${s.label} (${s.unit})` : s.label,
        yAxisIndex: units.indexOf(s.unit ?? ''),
        showSymbol: false,
        connectNulls: false,
        data: s.points,
      })),
    };
    empty = day.data.series.every((s) => s.points.length === 0);
  } else if (period.tab !== 'day' && energy.data) {
    option = {
      color: PALETTE,
      tooltip: { trigger: 'axis', valueFormatter: (v) => formatEnergy(Number(v), locale) },
      legend: { top: 0 },
      grid: { left: 64, right: 16, top: 36, bottom: 28 },
      xAxis: {
        type: 'category',
        data: energy.data.labels.map((l) => (period.tab === 'month' ? l.slice(8) : period.tab === 'year' ? l.slice(5) : l)),
      },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatEnergy(v, locale) } },
      series: energy.data.series.map((s) => ({ type: 'bar', name: s.label, data: s.values })),
    };
    empty = energy.data.series.length === 0 || energy.data.series.every((s) => s.values.every((v) => v === null));
  }

  return (
    <Card
      title={t('devices.chartTitle')}
      extra={
        <Space wrap>
          {period.tab === 'day' &&
            QUICK_RANGES.map((q) => {
              const param = q.yesterday ? addDays(today, -1) : today;
              const active = period.param === param && days === q.days;
              return (
                <Button
                  key={q.label}
                  size="small"
                  type={active ? 'primary' : 'default'}
                  onClick={() => {
                    setPeriod({ tab: 'day', param });
                    setDays(q.days);
                  }}
                  data-testid={`quick-${q.days}${q.yesterday ? 'y' : ''}`}
                >
                  {t(q.label, { count: q.days })}
                </Button>
              );
            })}
          <PeriodPicker
            period={period}
            today={today}
            onChange={(p) => setPeriod(p.tab === 'day' && !p.param ? { tab: 'day', param: defaultParam('day', today) } : p)}
            testId="device-period"
          />
        </Space>
      }
      data-testid="device-chart-card"
    >
      {period.tab === 'day' && (
        <Space direction="vertical" style={{ width: '100%', marginBottom: 8 }}>
          <Select
            aria-label={t('devices.pickPoints')}
            mode="multiple"
            value={points}
            onChange={onPick}
            style={{ width: '100%' }}
            placeholder={t('devices.pickPoints')}
            maxCount={DEVICE_LIMITS.chartPointsMax}
            options={detail.points.map((p) => ({ value: p.id, label: p.unit ? `${p.label} (${p.unit})` : p.label }))}
            optionFilterProp="label"
            data-testid="point-picker"
          />
          <Typography.Text type="secondary">
            {t('devices.pointsHint', { points: DEVICE_LIMITS.chartPointsMax, units: DEVICE_LIMITS.chartUnitsMax })}
          </Typography.Text>
        </Space>
      )}
      {option && !empty ? (
        <Chart option={option} height={320} testId="device-chart" />
      ) : (
        <Empty
          description={period.tab === 'day' && points.length === 0 ? t('devices.pickPoints') : t('devices.noData')}
          image={Empty.PRESENTED_IMAGE_SIMPLE}
        />
      )}
    </Card>
  );
}
