import type { BenefitsAnswer, IncomeSummary } from '@sunward/contracts/plant-energy';
import { formatEnergy, formatNumber } from '@sunward/contracts/units';
import { Empty, Skeleton, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Meter } from '../../../../components/Meter';
import { Panel } from '../../../../components/Panel';
import { Text } from '../../../../components/Typo';
import { formatMass, formatMoney } from '../../../../lib/plant-format';
import { LoadFailed } from './LoadFailed';

const PAYBACK_MIN_DAYS = 7;

export function IncomeCard({
  income,
  failed,
  locale,
  editPath,
}: {
  income: IncomeSummary | undefined;
  failed: boolean;
  locale: string;
  /** The edit page, when the user may set the tariff. */
  editPath: string | undefined;
}) {
  const { t } = useTranslation();
  const body = () => {
    if (!income && failed) return <LoadFailed />;
    if (!income) return <Skeleton active paragraph={{ rows: 4 }} />;
    if (!income.currency)
      return (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('overview.noTariff')}>
          {editPath && <Link to={editPath}>{t('overview.setTariff')}</Link>}
        </Empty>
      );
    const money = (v: number | null) => formatMoney(v, income.currency, locale);
    const roi = income.roiPercent;
    // A payback worked out from a few days of data says little (a cloudy first week reads as decades).
    const early = income.measuredDays < PAYBACK_MIN_DAYS;
    return (
      <>
        <div className="sw-ov-money-grid">
          {(
            [
              ['today', 'overview.periodToday', income.today],
              ['month', 'overview.periodMonth', income.month],
              ['year', 'overview.periodYear', income.year],
              ['total', 'overview.periodTotal', income.total],
            ] as const
          ).map(([key, label, value]) => (
            <div key={key} className="sw-ov-money" data-testid={`income-${key}`}>
              <span className="sw-ov-kpi-label">{t(label)}</span>
              <span className="sw-ov-money-value">{money(value)}</span>
            </div>
          ))}
        </div>
        {roi === null ? (
          <Text type="secondary">{t('overview.noInvestment')}</Text>
        ) : (
          <div className="sw-ov-roi" data-testid="income-roi">
            <div className="sw-ov-roi-head">
              <span>{t('overview.roi')}</span>
              <strong>{formatNumber(roi, locale, 1)} %</strong>
            </div>
            <Meter percent={Math.min(100, roi)} color={{ from: '#fbbf24', to: '#22c55e' }} label={t('overview.roi')} />
            <div className="sw-ov-roi-foot">
              <span>
                {t('overview.investment')}: {money(income.totalInvestment)}
              </span>
              <span>
                {t('overview.payback')}:{' '}
                <strong>
                  {early
                    ? t('overview.paybackTooEarly')
                    : income.paybackYears === null
                      ? '--'
                      : t('overview.yearsValue', { value: formatNumber(income.paybackYears, locale, 1) })}
                </strong>
              </span>
              {!early && income.remainingYears !== null && (
                <span>
                  {t('overview.remaining')}: {t('overview.yearsValue', { value: formatNumber(income.remainingYears, locale, 1) })}
                </span>
              )}
            </div>
          </div>
        )}
      </>
    );
  };
  return (
    <Panel title={t('overview.incomeTitle')} className="sw-ov-card" testId="income-card">
      {body()}
    </Panel>
  );
}

function LeafIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden>
      <path d="M5 19c0-9 6-14 15-14 0 9-5 15-14 15" fill="#bbf7d0" stroke="#16a34a" strokeWidth="1.6" strokeLinejoin="round" />
      <path d="M5 19 14 10" stroke="#16a34a" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}
function CloudIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden>
      <path d="M7 18h10a4 4 0 0 0 0-8 5.5 5.5 0 0 0-10.6 1.5A3.3 3.3 0 0 0 7 18Z" fill="#e0f2fe" stroke="#0284c7" strokeWidth="1.6" />
    </svg>
  );
}
function DropIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden>
      <path d="M12 3s6 7 6 11a6 6 0 0 1-12 0c0-4 6-11 6-11Z" fill="#fef3c7" stroke="#d97706" strokeWidth="1.6" strokeLinejoin="round" />
    </svg>
  );
}
function CoalIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden>
      <path d="M4 17 8 9l5 2 4-4 3 10Z" fill="#e5e7eb" stroke="#374151" strokeWidth="1.6" strokeLinejoin="round" />
      <path d="M3 19h18" stroke="#374151" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

function Benefit({ icon, label, value, unit, testId }: { icon: ReactNode; label: string; value: string; unit: string; testId: string }) {
  return (
    <div className="sw-ov-benefit" data-testid={testId}>
      <span className="sw-ov-benefit-icon">{icon}</span>
      <span className="sw-ov-benefit-text">
        <span className="sw-ov-kpi-label">{label}</span>
        <span className="sw-ov-benefit-value">
          {value} <span className="sw-ov-kpi-unit">{unit}</span>
        </span>
      </span>
    </div>
  );
}

export function BenefitsCard({ benefits, failed, locale }: { benefits: BenefitsAnswer | undefined; failed: boolean; locale: string }) {
  const { t } = useTranslation();
  const body = () => {
    if (!benefits && failed) return <LoadFailed />;
    if (!benefits) return <Skeleton active paragraph={{ rows: 4 }} />;
    const co2 = formatMass(benefits.co2Kg, locale);
    const so2 = formatMass(benefits.so2Kg, locale);
    const coal = formatMass(benefits.coalKg, locale);
    return (
      <>
        <div className="sw-ov-benefits">
          <Benefit icon={<CloudIcon />} label={t('overview.co2')} value={co2.value} unit={co2.unit} testId="benefit-co2" />
          <Benefit icon={<DropIcon />} label={t('overview.so2')} value={so2.value} unit={so2.unit} testId="benefit-so2" />
          <Benefit
            icon={<LeafIcon />}
            label={t('overview.trees')}
            value={formatNumber(benefits.trees, locale, 0)}
            unit=""
            testId="benefit-trees"
          />
          <Benefit icon={<CoalIcon />} label={t('overview.coal')} value={coal.value} unit={coal.unit} testId="benefit-coal" />
        </div>
        <Tooltip
          title={t('overview.factorsNote', {
            co2: formatNumber(benefits.factors.co2KgPerKwh, locale, 3),
            so2: formatNumber(benefits.factors.so2KgPerKwh, locale, 3),
            coal: formatNumber(benefits.factors.coalKgPerKwh, locale, 3),
            tree: formatNumber(benefits.factors.co2KgPerTree, locale, 1),
          })}
        >
          <Text type="secondary" className="sw-ov-note">
            {t('overview.benefitsNote', { energy: formatEnergy(benefits.energyKwh * 1000, locale) })}
          </Text>
        </Tooltip>
      </>
    );
  };
  return (
    <Panel title={t('overview.benefitsTitle')} className="sw-ov-card" testId="benefits-card">
      {body()}
    </Panel>
  );
}
