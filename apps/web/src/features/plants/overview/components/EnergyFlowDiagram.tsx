import type { EnergyFlow, FlowState } from '@sunward/contracts/plants';
import { formatPower } from '@sunward/contracts/units';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CHART_COLORS } from '../../../../components/Chart';
import { type FlowDirection, type FlowLine, flowDirections, flowSeconds } from '../../../../lib/plant-format';

const HUB = { x: 280, y: 175 };
const NODES: Record<FlowLine, { x: number; y: number; color: string }> = {
  pv: { x: 280, y: 52, color: CHART_COLORS.pv },
  grid: { x: 78, y: 175, color: CHART_COLORS.grid },
  load: { x: 482, y: 175, color: CHART_COLORS.load },
  battery: { x: 280, y: 298, color: CHART_COLORS.battery },
};
const NODE_R = 38;

const STATE_LABEL: Record<FlowState, string> = {
  selling: 'overview.stateSelling',
  buying: 'overview.stateBuying',
  charging: 'overview.stateCharging',
  discharging: 'overview.stateDischarging',
  idle: 'overview.stateIdle',
};

function PanelIcon() {
  return (
    <g fill="none" strokeWidth={2} strokeLinejoin="round">
      <circle cx={10} cy={-12} r={5} fill={CHART_COLORS.pvLight} stroke={CHART_COLORS.pv} />
      <path d="M-16 14 L-10 -4 L14 -4 L20 14 Z" fill="#fff7e6" stroke={CHART_COLORS.pv} />
      <path d="M-13 5 L17 5 M-2 -4 L-1 14 M6 -4 L9 14" stroke={CHART_COLORS.pv} />
    </g>
  );
}

function TowerIcon() {
  return (
    <g fill="none" stroke={CHART_COLORS.grid} strokeWidth={2} strokeLinejoin="round" strokeLinecap="round">
      <path d="M-10 16 L0 -16 L10 16 M-6 4 L6 4 M-4 -4 L4 -4 M-14 -8 L14 -8 M-8 -8 L-6 4 M8 -8 L6 4" />
    </g>
  );
}

function HomeIcon() {
  return (
    <g fill="none" stroke={CHART_COLORS.load} strokeWidth={2} strokeLinejoin="round" strokeLinecap="round">
      <path d="M-16 0 L0 -14 L16 0" />
      <path d="M-11 -4 V15 H11 V-4" fill="#f3f0ff" />
      <path d="M-3 15 V6 H3 V15" />
    </g>
  );
}

function BatteryIcon({ soc }: { soc: number | null }) {
  const level = Math.max(0, Math.min(100, soc ?? 0));
  const height = (24 * level) / 100;
  return (
    <g strokeWidth={2}>
      <rect x={-5} y={-17} width={10} height={4} rx={1} fill={CHART_COLORS.battery} />
      <rect x={-11} y={-13} width={22} height={28} rx={3} fill="#fff" stroke={CHART_COLORS.battery} />
      <rect x={-8} y={13 - height} width={16} height={height} rx={1.5} fill={CHART_COLORS.battery} opacity={0.85} />
    </g>
  );
}

function HubIcon() {
  return (
    <g>
      <circle r={20} fill="#0f172a" />
      <path d="M3 -12 L-7 2 L0 2 L-3 12 L7 -2 L0 -2 Z" fill="#fde68a" />
    </g>
  );
}

interface NodeProps {
  line: FlowLine;
  icon: ReactNode;
  name: string;
  value: string;
  detail?: string;
  detailColor?: string;
  dimmed?: boolean;
  /** Where the label sits relative to the node. */
  labelAt: 'right' | 'below' | 'left';
  testId: string;
}

function FlowNode({ line, icon, name, value, detail, detailColor, dimmed, labelAt, testId }: NodeProps) {
  const node = NODES[line];
  const anchor = labelAt === 'right' ? 'start' : labelAt === 'left' ? 'end' : 'middle';
  const lx = labelAt === 'right' ? node.x + NODE_R + 12 : labelAt === 'left' ? node.x - NODE_R - 12 : node.x;
  const ly = labelAt === 'below' ? node.y + NODE_R + 18 : node.y - 14;
  return (
    <g className={`sw-flow-node${dimmed ? ' is-dimmed' : ''}`} data-testid={`flow-node-${line}`}>
      <circle className="sw-flow-circle" cx={node.x} cy={node.y} r={NODE_R} fill="#fff" stroke={node.color} strokeWidth={2.5} />
      <g transform={`translate(${node.x} ${node.y})`}>{icon}</g>
      <text x={lx} y={ly} textAnchor={anchor} className="sw-flow-name">
        {name}
      </text>
      <text x={lx} y={ly + 20} textAnchor={anchor} className="sw-flow-value" data-testid={testId}>
        {value}
      </text>
      {detail && (
        <text x={lx} y={ly + 38} textAnchor={anchor} className="sw-flow-detail" style={{ fill: detailColor }}>
          {detail}
        </text>
      )}
    </g>
  );
}

function FlowPath({ line, direction, seconds }: { line: FlowLine; direction: FlowDirection; seconds: number }) {
  const node = NODES[line];
  // From the node's rim to the hub's rim, so dots do not run under the circles.
  const dx = HUB.x - node.x;
  const dy = HUB.y - node.y;
  const length = Math.hypot(dx, dy);
  const ux = dx / length;
  const uy = dy / length;
  const d = `M${node.x + ux * NODE_R} ${node.y + uy * NODE_R} L${HUB.x - ux * 22} ${HUB.y - uy * 22}`;
  return (
    <g data-testid={`flow-line-${line}`} data-direction={direction}>
      <path d={d} className="sw-flow-track" />
      {direction !== 'none' && (
        <path
          d={d}
          className={`sw-flow-dots is-${direction}`}
          style={{ stroke: node.color, '--sw-flow-s': `${seconds}s` } as CSSProperties}
        />
      )}
    </g>
  );
}

/**
 * PV, grid, home and battery around the inverter, with dots running along the lines the way energy
 * moves. Grid + import and battery + discharge (contracts); the battery is left out without one.
 */
export function EnergyFlowDiagram({ flow, capacityKwp, locale }: { flow: EnergyFlow | undefined; capacityKwp: number; locale: string }) {
  const { t } = useTranslation();
  const directions = flowDirections(flow);
  const hasBattery = flow?.hasBattery ?? false;
  const hasMeter = flow?.hasMeter ?? false;
  const abs = (w: number | null | undefined) => (w === null || w === undefined ? null : Math.abs(w));
  const gridState = flow?.gridState ?? 'idle';
  const batteryState = flow?.batteryState ?? 'idle';
  const label = [
    `${t('overview.nodePv')} ${formatPower(flow?.pvW, locale)}`,
    hasMeter ? `${t('overview.nodeGrid')} ${t(STATE_LABEL[gridState])} ${formatPower(abs(flow?.gridW), locale)}` : '',
    hasBattery ? `${t('overview.nodeBattery')} ${t(STATE_LABEL[batteryState])} ${formatPower(abs(flow?.batteryW), locale)}` : '',
    `${t('overview.nodeLoad')} ${formatPower(flow?.loadW, locale)}`,
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <svg viewBox="0 0 560 370" className="sw-flow" role="img" aria-label={label} data-testid="flow-diagram">
      <FlowPath line="pv" direction={directions.pv} seconds={flowSeconds(flow?.pvW ?? null, capacityKwp)} />
      {hasMeter && <FlowPath line="grid" direction={directions.grid} seconds={flowSeconds(flow?.gridW ?? null, capacityKwp)} />}
      <FlowPath line="load" direction={directions.load} seconds={flowSeconds(flow?.loadW ?? null, capacityKwp)} />
      {hasBattery && <FlowPath line="battery" direction={directions.battery} seconds={flowSeconds(flow?.batteryW ?? null, capacityKwp)} />}
      <g transform={`translate(${HUB.x} ${HUB.y})`}>
        <HubIcon />
      </g>
      <FlowNode
        line="pv"
        icon={<PanelIcon />}
        name={t('overview.nodePv')}
        value={formatPower(flow?.pvW, locale)}
        detail={directions.pv === 'in' ? t('overview.stateProducing') : t('overview.stateIdle')}
        detailColor={directions.pv === 'in' ? CHART_COLORS.pv : undefined}
        labelAt="right"
        testId="flow-pv-power"
      />
      <FlowNode
        line="grid"
        icon={<TowerIcon />}
        name={t('overview.nodeGrid')}
        value={hasMeter ? formatPower(abs(flow?.gridW), locale) : '--'}
        detail={hasMeter ? t(STATE_LABEL[gridState]) : t('overview.noMeter')}
        detailColor={gridState === 'selling' ? CHART_COLORS.battery : gridState === 'buying' ? CHART_COLORS.grid : undefined}
        dimmed={!hasMeter}
        labelAt="below"
        testId="flow-grid-power"
      />
      <FlowNode
        line="load"
        icon={<HomeIcon />}
        name={t('overview.nodeLoad')}
        value={formatPower(flow?.loadW, locale)}
        detail={flow?.loadW === null || flow === undefined ? t('overview.notMeasured') : t('overview.stateConsuming')}
        dimmed={flow?.loadW === null || flow === undefined}
        labelAt="below"
        testId="flow-load-power"
      />
      {hasBattery && (
        <FlowNode
          line="battery"
          icon={<BatteryIcon soc={flow?.soc ?? null} />}
          name={
            flow?.soc === null || flow?.soc === undefined
              ? t('overview.nodeBattery')
              : t('overview.batterySoc', { soc: Math.round(flow.soc) })
          }
          value={formatPower(abs(flow?.batteryW), locale)}
          detail={t(STATE_LABEL[batteryState])}
          detailColor={batteryState === 'idle' ? undefined : CHART_COLORS.battery}
          labelAt="right"
          testId="flow-battery-power"
        />
      )}
    </svg>
  );
}
