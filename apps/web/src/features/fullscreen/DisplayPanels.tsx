import type { DisplayData, DisplayPlant } from '@sunward/contracts/fullscreen';
import { formatCapacity, formatEnergy, formatNumber, formatPower, scaleEnergy, scalePower } from '@sunward/contracts/units';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartOption } from '../../components/chart-option';
import { formatSpecificYield, STATUS_STYLE, statusStyle } from '../../lib/format';

/** The console's ECharts canvas, loaded on demand (the display has no personal settings: always the dark theme). */
const ChartCanvas = lazy(async () => ({ default: (await import('../../components/chart-canvas')).ChartCanvas }));

export function Panel({
  title,
  extra,
  children,
  className,
}: {
  title: string;
  extra?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`fs-panel ${className ?? ''}`} aria-label={title}>
      <header className="fs-panel-head">
        <h2>{title}</h2>
        {extra}
      </header>
      <div className="fs-panel-body">{children}</div>
    </section>
  );
}

function Figure({ label, value, unit, testId, big }: { label: string; value: string; unit: string; testId: string; big?: boolean }) {
  return (
    <div className={`fs-kpi${big ? ' fs-kpi-big' : ''}`} data-testid={testId}>
      <div className="fs-kpi-label">{label}</div>
      <div className="fs-kpi-value">
        {value} <span className="fs-kpi-unit">{unit}</span>
      </div>
    </div>
  );
}

export function KpiPanel({ data, locale }: { data: DisplayData; locale: string }) {
  const { t } = useTranslation();
  const k = data.kpi;
  const power = scalePower(k.powerW);
  const energy = (wh: number) => scaleEnergy(wh);
  const co2Tonnes = k.co2Kg >= 1000;
  const tiles = [
    { id: 'energyToday', value: energy(k.energyTodayWh) },
    { id: 'energyMonth', value: energy(k.energyMonthWh) },
    { id: 'energyYear', value: energy(k.energyYearWh) },
    { id: 'energyTotal', value: energy(k.energyTotalWh) },
  ] as const;
  return (
    <Panel
      title={t('fullscreen.title')}
      extra={
        <span className="fs-muted">{t('fullscreen.fleet', { plants: k.plantCount, capacity: formatCapacity(k.capacityKwp, locale) })}</span>
      }
      className="fs-kpis"
    >
      <Figure big label={t('fullscreen.powerNow')} value={formatNumber(power.value, locale)} unit={power.unit} testId="fs-power" />
      <div className="fs-kpi-grid">
        {tiles.map((tile) => (
          <Figure
            key={tile.id}
            label={t(`fullscreen.${tile.id}`)}
            value={formatNumber(tile.value.value, locale)}
            unit={tile.value.unit}
            testId={`fs-${tile.id}`}
          />
        ))}
        <Figure
          label={t('fullscreen.co2')}
          value={formatNumber(co2Tonnes ? k.co2Kg / 1000 : k.co2Kg, locale, 1)}
          unit={co2Tonnes ? 't' : 'kg'}
          testId="fs-co2"
        />
        <div className="fs-kpi fs-kpi-note">{t('fullscreen.trees', { trees: formatNumber(k.trees, locale, 0) })}</div>
      </div>
    </Panel>
  );
}

export function StatusPanel({ data, locale }: { data: DisplayData; locale: string }) {
  const { t } = useTranslation();
  const counts = data.statusCounts;
  const total = Math.max(1, counts.total);
  return (
    <Panel title={t('fullscreen.statuses')} className="fs-statuses">
      <ul className="fs-status-list">
        {Object.values(STATUS_STYLE).map((style) => {
          const n = counts[style.key];
          return (
            <li key={style.key} data-status={style.key}>
              <span className="fs-dot" style={{ background: style.color }} aria-hidden />
              <span className="fs-status-name">{t(style.label)}</span>
              <span className="fs-bar" aria-hidden>
                <span style={{ width: `${(n / total) * 100}%`, background: style.color }} />
              </span>
              <span className="fs-status-count">{formatNumber(n, locale, 0)}</span>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}

const LEVEL_COLOURS: Record<string, string> = { fault: '#f5222d', warning: '#fa8c16', protect: '#722ed1' };
const LEVEL_TEXT: Record<string, 'fullscreen.levelFault' | 'fullscreen.levelWarning' | 'fullscreen.levelProtect'> = {
  fault: 'fullscreen.levelFault',
  warning: 'fullscreen.levelWarning',
  protect: 'fullscreen.levelProtect',
};

export function AlarmsPanel({ data, locale }: { data: DisplayData; locale: string }) {
  const { t } = useTranslation();
  const time = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  const { total, infos } = data.alarms;
  return (
    <Panel
      title={t('fullscreen.alarms')}
      extra={<span className="fs-muted">{t('fullscreen.alarmsActive', { count: total })}</span>}
      className="fs-alarms"
    >
      {infos.length === 0 ? (
        <p className="fs-empty fs-ok">{t('fullscreen.noAlarms')}</p>
      ) : (
        <ul className="fs-alarm-list" data-testid="fs-alarms">
          {infos.map((a) => (
            <li key={a.id}>
              <span
                className="fs-level"
                style={{ borderColor: LEVEL_COLOURS[a.level] ?? '#8c8c8c', color: LEVEL_COLOURS[a.level] ?? '#bfbfbf' }}
              >
                {LEVEL_TEXT[a.level] ? t(LEVEL_TEXT[a.level] as 'fullscreen.levelFault') : a.level}
              </span>
              <span className="fs-alarm-text">
                <b>{a.plantName ?? '--'}</b> · {a.deviceAlias ?? a.deviceSn} · {a.description ?? `#${a.code}`}
              </span>
              <time className="fs-muted" dateTime={a.openedAt}>
                {time.format(new Date(a.openedAt))}
              </time>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

type FlowText = 'fullscreen.selling' | 'fullscreen.buying' | 'fullscreen.charging' | 'fullscreen.discharging' | 'fullscreen.idle';

export function FlowPanel({ data, locale }: { data: DisplayData; locale: string }) {
  const { t } = useTranslation();
  const flow = data.flow;
  if (!flow)
    return (
      <Panel title={t('fullscreen.flow')} className="fs-flow">
        <p className="fs-empty">{t('fullscreen.noPlants')}</p>
      </Panel>
    );
  const f = flow.flow;
  const state = (s: string) => t(`fullscreen.${s}` as FlowText);
  return (
    <Panel title={t('fullscreen.flow')} extra={<span className="fs-muted">{flow.plantName}</span>} className="fs-flow">
      <div className="fs-flow-diagram" data-testid="fs-flow">
        <div className="fs-node fs-node-pv">
          <span className="fs-node-name">{t('fullscreen.pv')}</span>
          <span className="fs-node-value">{formatPower(f.pvW, locale)}</span>
        </div>
        {f.loadW !== null && (
          <>
            <div className="fs-arrow fs-arrow-down" aria-hidden>
              ↓
            </div>
            <div className="fs-node fs-node-load">
              <span className="fs-node-name">{t('fullscreen.load')}</span>
              <span className="fs-node-value">{formatPower(f.loadW, locale)}</span>
            </div>
          </>
        )}
        {f.hasMeter && (
          <div className="fs-node fs-node-grid">
            <span className="fs-node-name">{t('fullscreen.grid')}</span>
            <span className="fs-node-value">{formatPower(f.gridW === null ? null : Math.abs(f.gridW), locale)}</span>
            <span className="fs-node-state">{state(f.gridState)}</span>
          </div>
        )}
        {f.hasBattery && (
          <div className="fs-node fs-node-battery">
            <span className="fs-node-name">{t('fullscreen.battery')}</span>
            <span className="fs-node-value">
              {formatPower(f.batteryW === null ? null : Math.abs(f.batteryW), locale)}
              {f.soc !== null ? ` · ${formatNumber(f.soc, locale, 0)} %` : ''}
            </span>
            <span className="fs-node-state">{state(f.batteryState)}</span>
          </div>
        )}
        {!f.hasMeter && !f.hasBattery && f.loadW === null && <p className="fs-flow-note">{t('fullscreen.flowPvOnly')}</p>}
      </div>
    </Panel>
  );
}

function rankOption(plants: readonly DisplayPlant[], colour: string, locale: string): ChartOption {
  const rows = [...plants].reverse();
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 8, right: 90, top: 4, bottom: 4, containLabel: true },
    xAxis: { type: 'value', show: false },
    yAxis: {
      type: 'category',
      data: rows.map((p) => p.name),
      axisLabel: { color: '#e2e8f0', fontSize: 18, width: 220, overflow: 'truncate' },
      axisLine: { show: false },
      axisTick: { show: false },
    },
    series: [
      {
        type: 'bar',
        data: rows.map((p) => p.specificYield ?? 0),
        itemStyle: { color: colour, borderRadius: 4 },
        barMaxWidth: 26,
        label: {
          show: true,
          position: 'right',
          color: '#e2e8f0',
          fontSize: 18,
          formatter: (p: { value: unknown }) => formatSpecificYield(Number(p.value), locale, false),
        },
      },
    ],
  };
}

export function RankingPanel({ data, locale }: { data: DisplayData; locale: string }) {
  const { t } = useTranslation();
  const lists = [
    { id: 'top', title: t('fullscreen.top'), plants: data.top, colour: '#22c55e' },
    { id: 'bottom', title: t('fullscreen.bottom'), plants: data.bottom, colour: '#f59e0b' },
  ].filter((l) => l.plants.length > 0);
  return (
    <Panel title={t('fullscreen.ranking')} extra={<span className="fs-muted">kWh/kWp</span>} className="fs-ranking">
      {lists.length === 0 ? (
        <p className="fs-empty">{t('fullscreen.noRanking')}</p>
      ) : (
        lists.map((list) => (
          <div key={list.id} className="fs-rank" data-testid={`fs-${list.id}`}>
            <h3>{list.title}</h3>
            <ul className="fs-visually-hidden">
              {list.plants.map((p) => (
                <li key={p.id}>
                  {p.name}: {formatSpecificYield(p.specificYield, locale)} ({statusStyle(p.status).key})
                </li>
              ))}
            </ul>
            <Suspense fallback={null}>
              <ChartCanvas option={rankOption(list.plants, list.colour, locale)} height={Math.max(60, list.plants.length * 44)} dark />
            </Suspense>
          </div>
        ))
      )}
    </Panel>
  );
}

/** The plants as the plant list shows them now (busiest first): status in colour and words, power, energy, yield. */
export function PlantsPanel({ data, locale }: { data: DisplayData; locale: string }) {
  const { t } = useTranslation();
  return (
    <Panel title={t('fullscreen.plantTable')} className="fs-plants">
      <table className="fs-table" data-testid="fs-plants">
        <thead>
          <tr>
            <th scope="col">{t('fullscreen.colPlant')}</th>
            <th scope="col">{t('fullscreen.colStatus')}</th>
            <th scope="col">{t('fullscreen.powerNow')}</th>
            <th scope="col">{t('fullscreen.energyToday')}</th>
            <th scope="col">{t('fullscreen.colYield')}</th>
          </tr>
        </thead>
        <tbody>
          {data.plants.map((p) => {
            const style = statusStyle(p.status);
            return (
              <tr key={p.id}>
                <td>{p.name}</td>
                <td>
                  <span className="fs-dot" style={{ background: style.color }} aria-hidden /> {t(style.label)}
                </td>
                <td>{formatPower(p.powerW, locale)}</td>
                <td>{formatEnergy(p.energyTodayWh, locale)}</td>
                <td>{formatSpecificYield(p.specificYield, locale, false)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Panel>
  );
}
