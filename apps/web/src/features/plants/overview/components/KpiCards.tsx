import type { PlantRealtime } from '@sunward/contracts/plant-energy';
import { formatNumber, scaleEnergy, scalePower } from '@sunward/contracts/units';
import { Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { CHART_COLORS } from '../../../../components/Chart';
import { Meter } from '../../../../components/Meter';
import { formatSpecificYield } from '../../../../lib/format';
import { LoadFailed } from './LoadFailed';

function Figure({ label, value, unit, testId }: { label: string; value: string; unit: string; testId: string }) {
  return (
    <div className="sw-ov-kpi" data-testid={testId}>
      <span className="sw-ov-kpi-label">{label}</span>
      <span className="sw-ov-kpi-value">
        <span className="sw-ov-kpi-number">{value}</span> <span className="sw-ov-kpi-unit">{unit}</span>
      </span>
    </div>
  );
}

function energy(wh: number, locale: string) {
  const s = scaleEnergy(wh);
  return { value: formatNumber(s.value, locale, 2), unit: s.unit };
}

/** Power now against capacity, and energy today, this month, this year and over the plant's life. */
export function KpiCards({ realtime, failed, locale }: { realtime: PlantRealtime | undefined; failed: boolean; locale: string }) {
  const { t } = useTranslation();
  if (!realtime && failed) return <LoadFailed />;
  if (!realtime) return <Skeleton active paragraph={{ rows: 5 }} />;
  const power = realtime.powerW === null ? null : scalePower(realtime.powerW);
  const share = realtime.powerW === null || realtime.capacityKwp <= 0 ? 0 : (realtime.powerW / (realtime.capacityKwp * 1000)) * 100;
  const figures = [
    { key: 'today', label: t('overview.energyToday'), ...energy(realtime.energyTodayWh, locale) },
    { key: 'month', label: t('overview.energyMonth'), ...energy(realtime.energyMonthWh, locale) },
    { key: 'year', label: t('overview.energyYear'), ...energy(realtime.energyYearWh, locale) },
    { key: 'total', label: t('overview.energyTotal'), ...energy(realtime.energyTotalWh, locale) },
  ];
  return (
    <div className="sw-ov-kpis">
      <div className="sw-ov-kpi sw-ov-kpi-power" data-testid="kpi-power">
        <span className="sw-ov-kpi-label">{t('overview.powerNow')}</span>
        <span className="sw-ov-kpi-value">
          <span className="sw-ov-kpi-number">{power ? formatNumber(power.value, locale, 2) : '--'}</span>{' '}
          <span className="sw-ov-kpi-unit">{power?.unit ?? ''}</span>
        </span>
        <Meter
          percent={Math.min(100, Math.round(share))}
          size="small"
          color={CHART_COLORS.pv}
          label={t('overview.ofCapacity', { percent: formatNumber(share, locale, 0) })}
        />
        <span className="sw-ov-kpi-note">{t('overview.ofCapacity', { percent: formatNumber(share, locale, 0) })}</span>
      </div>
      {figures.map((f) => (
        <Figure key={f.key} label={f.label} value={f.value} unit={f.unit} testId={`kpi-${f.key}`} />
      ))}
      <Figure
        label={t('overview.specificYieldToday')}
        value={formatSpecificYield(realtime.specificYieldToday, locale, false)}
        unit="kWh/kWp"
        testId="kpi-yield"
      />
    </div>
  );
}
