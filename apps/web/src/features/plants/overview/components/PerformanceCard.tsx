import { InfoCircleOutlined } from '@ant-design/icons';
import { formatNumber } from '@sunward/contracts/units';
import { useQuery } from '@tanstack/react-query';
import { Segmented, Skeleton, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Panel } from '../../../../components/Panel';
import { formatSpecificYield } from '../../../../lib/format';
import { formatShare } from '../../../../lib/plant-format';
import { fetchPerformance, overviewKeys } from '../api';
import { LoadFailed } from './LoadFailed';

type Span = 'today' | 'month' | 'year';

const SPANS: { value: Span; label: string }[] = [
  { value: 'today', label: 'overview.periodToday' },
  { value: 'month', label: 'overview.periodMonth' },
  { value: 'year', label: 'overview.periodYear' },
];

function Metric({ label, value, formula, testId }: { label: string; value: string; formula: string; testId: string }) {
  return (
    <Tooltip title={formula}>
      <button type="button" className="sw-ov-metric" data-testid={testId}>
        <span className="sw-ov-kpi-label">
          {label} <InfoCircleOutlined className="sw-ov-info" />
        </span>
        <span className="sw-ov-metric-value">{value}</span>
      </button>
    </Tooltip>
  );
}

/** Specific yield, performance ratio, self-consumption and self-sufficiency; each tooltip shows the formula with its numbers. */
export function PerformanceCard({ plantId, today, locale }: { plantId: number; today: string; locale: string }) {
  const { t } = useTranslation();
  const [span, setSpan] = useState<Span>('today');
  const from = span === 'today' ? today : span === 'month' ? `${today.slice(0, 7)}-01` : `${today.slice(0, 4)}-01-01`;
  const performance = useQuery({
    queryKey: overviewKeys.performance(plantId, from, today),
    queryFn: () => fetchPerformance(plantId, from, today),
  });
  const kwh = (v: number | null) => (v === null ? '--' : `${formatNumber(v, locale, 2)} kWh`);
  const body = () => {
    const p = performance.data;
    if (!p && performance.isError) return <LoadFailed />;
    if (!p) return <Skeleton active paragraph={{ rows: 3 }} />;
    const capacity = `${formatNumber(p.specificYield.capacityKwp, locale, 3)} kWp`;
    const irradiation =
      p.performanceRatio.irradiationKwhPerM2 === null ? '--' : `${formatNumber(p.performanceRatio.irradiationKwhPerM2, locale, 2)} kWh/m²`;
    return (
      <div className="sw-ov-metrics">
        <Metric
          label={t('overview.specificYield')}
          value={formatSpecificYield(p.specificYield.value, locale)}
          formula={t('overview.formulaYield', { energy: kwh(p.specificYield.energyKwh), capacity })}
          testId="metric-yield"
        />
        <Metric
          label={t('overview.pr')}
          value={formatShare(p.performanceRatio.value, locale)}
          formula={
            p.performanceRatio.irradiationKwhPerM2 === null
              ? t('overview.needsStation')
              : t('overview.formulaPr', { energy: kwh(p.performanceRatio.energyKwh), capacity, irradiation })
          }
          testId="metric-pr"
        />
        <Metric
          label={t('overview.selfConsumption')}
          value={formatShare(p.selfConsumption.value, locale)}
          formula={
            p.selfConsumption.exportKwh === null
              ? t('overview.needsMeter')
              : t('overview.formulaSelfConsumption', {
                  generation: kwh(p.selfConsumption.generationKwh),
                  exported: kwh(p.selfConsumption.exportKwh),
                })
          }
          testId="metric-self-consumption"
        />
        <Metric
          label={t('overview.selfSufficiency')}
          value={formatShare(p.selfSufficiency.value, locale)}
          formula={
            p.selfSufficiency.loadKwh === null
              ? t('overview.needsMeter')
              : t('overview.formulaSelfSufficiency', { load: kwh(p.selfSufficiency.loadKwh), imported: kwh(p.selfSufficiency.importKwh) })
          }
          testId="metric-self-sufficiency"
        />
      </div>
    );
  };
  return (
    <Panel
      title={t('overview.performanceTitle')}
      className="sw-ov-card"
      testId="performance-card"
      extra={<Segmented size="small" value={span} onChange={setSpan} options={SPANS.map((s) => ({ value: s.value, label: t(s.label) }))} />}
    >
      {body()}
    </Panel>
  );
}
