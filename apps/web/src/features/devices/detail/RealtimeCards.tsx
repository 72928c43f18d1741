import { WarningFilled } from '@ant-design/icons';
import type { PvIv, RealtimeSection, RealtimeValue } from '@sunward/contracts/devices';
import { Card, Col, Empty, Row, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CELL_LIMITS, cellLevel, cellStats, formatPointValue, orderSections, spreadLevel, stringOutliers } from '../device-format';

/** The spread tag's colour by its level (with its figure as text). */
const SPREAD_TAG = { normal: 'default', warning: 'warning', alarm: 'error' } as const;

interface Props {
  sections: readonly RealtimeSection[];
  pvIv: PvIv | undefined;
  locale: string;
}

/** Realtime values by section, each card only where the model has its points (spec 02: "shown only where the model has them"). */
export function RealtimeCards({ sections, pvIv, locale }: Props) {
  const { t } = useTranslation();
  if (sections.length === 0) return <Empty description={t('devices.noRealtime')} />;
  return (
    <Row gutter={[16, 16]}>
      {orderSections(sections).map((section) => (
        <Col key={section.key} xs={24} lg={section.key === 'cells' || section.key === 'input' || section.key === 'strings' ? 24 : 12}>
          <Card size="small" title={t(`devices.section.${section.key}`)} data-testid={`section-${section.key}`}>
            {section.key === 'cells' ? (
              <CellGrid values={section.values} locale={locale} />
            ) : section.key === 'strings' ? (
              <StringCurrents values={section.values} locale={locale} />
            ) : section.key === 'input' && pvIv && pvIv.strings.length > 0 ? (
              <>
                <StringTable pvIv={pvIv} locale={locale} />
                <ValueGrid values={section.values.filter((v) => !/\d$/.test(v.id))} locale={locale} />
              </>
            ) : (
              <ValueGrid values={section.values} locale={locale} />
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

function ValueGrid({ values, locale }: { values: readonly RealtimeValue[]; locale: string }) {
  return (
    <div className="sw-value-grid">
      {values.map((v) => (
        <div key={v.id} className="sw-value" data-point={v.id}>
          <Typography.Text type="secondary" className="sw-value-label">
            {v.label}
          </Typography.Text>
          <span className="sw-value-number">
            {formatPointValue(v.value, v.text, locale, v.unit)}
            {v.text === null && v.value !== null && v.unit && v.unit !== 'W' && v.unit !== 'Wh' ? <small>{` ${v.unit}`}</small> : null}
          </span>
        </div>
      ))}
    </div>
  );
}

/** DC input per string/MPPT: voltage, current, power, energy. */
function StringTable({ pvIv, locale }: { pvIv: PvIv; locale: string }) {
  const { t } = useTranslation();
  const n = (v: number | null, unit: string) => (v === null ? '--' : `${formatPointValue(v, null, locale)} ${unit}`);
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="index"
      dataSource={pvIv.strings}
      data-testid="pv-strings"
      columns={[
        { key: 'index', title: t('devices.string'), render: (_, s) => `PV${s.index}` },
        { key: 'v', title: t('devices.voltage'), align: 'right', render: (_, s) => n(s.voltageV, 'V') },
        { key: 'a', title: t('devices.current'), align: 'right', render: (_, s) => n(s.currentA, 'A') },
        { key: 'w', title: t('devices.power'), align: 'right', render: (_, s) => n(s.powerW, 'W') },
        {
          key: 'e',
          title: t('devices.energy'),
          align: 'right',
          render: (_, s) => n(s.energyWh === null ? null : s.energyWh / 1000, 'kWh'),
        },
      ]}
    />
  );
}

/**
 * Cell voltages and temperatures as a grid: each cell coloured by where it stands against the battery's limits
 * (normal, near the limit, beyond it; marked with an icon and named in its tooltip too, never by colour alone),
 * the extremes outlined, the spread written above against its own limits.
 */
export function CellGrid({ values, locale }: { values: readonly RealtimeValue[]; locale: string }) {
  const { t } = useTranslation();
  const groups = [
    { key: 'voltage', unit: 'V', cells: values.filter((v) => v.id.startsWith('CellV')), digits: 3, limits: CELL_LIMITS.voltage },
    { key: 'temperature', unit: '°C', cells: values.filter((v) => v.id.startsWith('CellT')), digits: 1, limits: CELL_LIMITS.temperature },
  ].filter((g) => g.cells.length > 0);
  return (
    <div className="sw-cells" data-testid="cell-grid">
      {groups.map((group) => {
        const stats = cellStats(group.cells.map((c) => c.value));
        const fmt = (v: number) =>
          new Intl.NumberFormat(locale, { minimumFractionDigits: group.digits, maximumFractionDigits: group.digits }).format(v);
        return (
          <div key={group.key} className="sw-cell-group">
            <div className="sw-cell-summary">
              <Typography.Text strong>{t(`devices.cell.${group.key}`)}</Typography.Text>
              {stats && (
                <span data-testid={`cell-stats-${group.key}`}>
                  <Tag color="blue">{`${t('devices.min')} ${fmt(stats.min)} ${group.unit} · #${stats.minIndex + 1}`}</Tag>
                  <Tag color="red">{`${t('devices.max')} ${fmt(stats.max)} ${group.unit} · #${stats.maxIndex + 1}`}</Tag>
                  <Tag color={SPREAD_TAG[spreadLevel(stats.spread, group.limits)]} data-level={spreadLevel(stats.spread, group.limits)}>
                    {`${t('devices.spread')} ${fmt(stats.spread)} ${group.unit}`}
                  </Tag>
                </span>
              )}
            </div>
            <div className="sw-cell-row">
              {group.cells.map((cell, i) => {
                const extreme = stats && (i === stats.minIndex ? 'min' : i === stats.maxIndex ? 'max' : undefined);
                const level = cell.value === null ? undefined : cellLevel(cell.value, group.limits);
                const reading = `${cell.label}: ${cell.value === null ? '--' : `${fmt(cell.value)} ${group.unit}`}`;
                return (
                  <Tooltip key={cell.id} title={level && level !== 'normal' ? `${reading} · ${t(`devices.cell.${level}`)}` : reading}>
                    <div
                      className={`sw-cell is-${level ?? 'unknown'}${extreme ? ` is-${extreme}` : ''}`}
                      data-cell={cell.id}
                      data-extreme={extreme}
                      data-level={level}
                    >
                      <span className="sw-cell-index">
                        {level && level !== 'normal' && <WarningFilled aria-label={t(`devices.cell.${level}`)} />} {i + 1}
                      </span>
                      <span className="sw-cell-value">{cell.value === null ? '--' : fmt(cell.value)}</span>
                    </div>
                  </Tooltip>
                );
              })}
            </div>
          </div>
        );
      })}
    </div>
  );
}

/** Combiner box string currents as bars, strings far from the others flagged. */
function StringCurrents({ values, locale }: { values: readonly RealtimeValue[]; locale: string }) {
  const { t } = useTranslation();
  const strings = values.filter((v) => /^InDCA\d+$/.test(v.id));
  const rest = values.filter((v) => !/^InDCA\d+$/.test(v.id));
  const outliers = stringOutliers(strings.map((s) => s.value));
  const max = Math.max(1, ...strings.map((s) => s.value ?? 0));
  return (
    <>
      <div className="sw-strings" data-testid="string-currents">
        {strings.map((s, i) => (
          <div key={s.id} className={`sw-string${outliers.has(i) ? ' is-outlier' : ''}`} data-outlier={outliers.has(i) || undefined}>
            <span className="sw-string-label">{`#${i + 1}`}</span>
            <span className="sw-string-bar" style={{ width: `${((s.value ?? 0) / max) * 100}%` }} />
            <span className="sw-string-value">
              {formatPointValue(s.value, null, locale)} A{outliers.has(i) && <Tag color="red">{t('devices.outlier')}</Tag>}
            </span>
          </div>
        ))}
      </div>
      <ValueGrid values={rest} locale={locale} />
    </>
  );
}
