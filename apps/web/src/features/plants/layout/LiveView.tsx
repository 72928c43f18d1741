import { efficiencyBand, type LayoutGroup, type LayoutLive, type LayoutPanel } from '@sunward/contracts/plant-layout';
import { formatPower } from '@sunward/contracts/units';
import { Empty, Slider, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHART_COLORS, Chart } from '../../../components/Chart';
import { HEAT, heatColour } from './layout-editor';
import { extentOf, RoofCanvas } from './RoofCanvas';

/** The heat legend: ten 10 % bands, no reading, above 100 %. */
function HeatLegend() {
  const { t } = useTranslation();
  return (
    <figure className="sw-layout-legend" data-testid="heat-legend" aria-label={t('layout.legend')}>
      <figcaption>{t('layout.legend')}</figcaption>
      <div className="sw-layout-legend-bands">
        {HEAT.map((c, i) => (
          <span key={c} style={{ background: c }} title={`${i * 10}–${i * 10 + 10} %`} />
        ))}
      </div>
      <div className="sw-layout-legend-scale">
        <span>0 %</span>
        <span>50 %</span>
        <span>100 %</span>
      </div>
      <Space size={12} wrap>
        <span>
          <span className="sw-layout-swatch" style={{ background: heatColour(null) }} /> {t('layout.noData')}
        </span>
        <span>
          <span className="sw-layout-swatch" style={{ background: heatColour(1.2) }} /> {t('layout.overHundred')}
        </span>
      </Space>
    </figure>
  );
}

/**
 * The roof coloured by each panel's optimizer: its power against the panel's rating, now or at a time of
 * the day (15-minute means from stored readings), so a shaded or soiled panel stands out.
 */
export function LiveView(props: {
  panels: readonly LayoutPanel[];
  groups: readonly LayoutGroup[];
  live: LayoutLive | undefined;
  locale: string;
}) {
  const { t } = useTranslation();
  const { panels, groups, live, locale } = props;
  const last = live ? live.times.length : 0;
  const [step, setStep] = useState<number | undefined>(undefined);
  const at = step ?? last;
  const [picked, setPicked] = useState<string | undefined>();
  if (panels.length === 0) return <Empty description={t('layout.noLayout')} />;
  const rated = new Map(groups.map((g) => [g.id, g.panelRatedPowerW]));
  const powerOf = (p: LayoutPanel): number | null => {
    if (!p.optimizerSn || !live) return null;
    if (at >= last) return live.power[p.optimizerSn] ?? null;
    return live.series[p.optimizerSn]?.[at] ?? null;
  };
  const shareOf = (p: LayoutPanel) => {
    const w = powerOf(p);
    const r = rated.get(p.groupId) ?? 0;
    return w === null || r <= 0 ? null : w / r;
  };
  const label = (p: LayoutPanel) => {
    const w = powerOf(p);
    const share = shareOf(p);
    const value = w === null ? t('layout.noData') : `${formatPower(w, locale)} (${Math.round((share ?? 0) * 100)} %)`;
    return t('layout.panelAt', { name: p.optimizerSn ?? t('layout.noOptimizer'), value });
  };
  const timeLabel = (i: number) =>
    i >= last || !live
      ? t('layout.now')
      : new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: live.timezone }).format(live.times[i] ?? 0);
  const pickedPanel = panels.find((p) => p.id === picked);
  return (
    <div className="sw-layout-live" data-testid="live-view">
      {/* A wide roof scrolls: the region takes the focus so the keyboard can scroll it too (WCAG 2.1.1). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable */}
      <section className="sw-layout-scroll" tabIndex={0} aria-label={t('layout.tabLive')}>
        <RoofCanvas
          panels={panels}
          groups={groups}
          fill={(p) => heatColour(shareOf(p))}
          band={(p) => efficiencyBand(shareOf(p) === null ? null : (shareOf(p) ?? 0) * 100)}
          label={label}
          selected={picked ? new Set([picked]) : new Set()}
          zoom={1}
          size={extentOf(panels)}
          ariaLabel={t('layout.legend')}
          onPanelClick={(p) => setPicked(p.id)}
        />
      </section>
      <div className="sw-layout-live-side">
        <label className="sw-layout-slider" htmlFor="layout-time">
          <Typography.Text strong>
            {t('layout.time')}: <span data-testid="slider-time">{timeLabel(at)}</span>
          </Typography.Text>
        </label>
        <Slider
          id="layout-time"
          min={0}
          max={last}
          value={at}
          onChange={(v) => setStep(v >= last ? undefined : v)}
          tooltip={{ formatter: (v) => timeLabel(v ?? last) }}
          ariaLabelForHandle={t('layout.time')}
          data-testid="time-slider"
        />
        <HeatLegend />
        {pickedPanel && (
          <div data-testid="picked-panel">
            <Typography.Paragraph>
              <strong>{label(pickedPanel)}</strong>
            </Typography.Paragraph>
            {live && pickedPanel.optimizerSn && (
              <Chart
                height={180}
                testId="panel-curve"
                option={{
                  grid: { left: 48, right: 12, top: 16, bottom: 28 },
                  tooltip: { trigger: 'axis' },
                  xAxis: {
                    type: 'category',
                    data: live.times.map((_, i) => timeLabel(i)),
                    axisLabel: { interval: 15 },
                  },
                  yAxis: { type: 'value', name: 'W' },
                  series: [
                    {
                      type: 'line',
                      name: pickedPanel.optimizerSn,
                      // A day just begun has a point or two: draw them as dots.
                      showSymbol: (live.series[pickedPanel.optimizerSn] ?? []).filter((w) => w !== null).length < 3,
                      areaStyle: { opacity: 0.2 },
                      color: CHART_COLORS.pv,
                      data: live.series[pickedPanel.optimizerSn] ?? [],
                    },
                  ],
                }}
              />
            )}
          </div>
        )}
      </div>
    </div>
  );
}
