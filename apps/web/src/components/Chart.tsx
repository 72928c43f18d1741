import { lazy, Suspense } from 'react';
import { usePersonalized } from '../lib/personalized';
import type { ChartOption } from './chart-option';

export type { ChartOption };

/** ECharts itself loads on demand (chart-canvas.tsx): the page paints first, the chart's box keeps its height. */
const ChartCanvas = lazy(async () => ({ default: (await import('./chart-canvas')).ChartCanvas }));

/** Browser tests drive the page through WebDriver: no animations there, so screenshots and checks see the final chart. */
export const CHART_ANIMATION = typeof navigator === 'undefined' || !navigator.webdriver;

/** The overview's palette: PV amber, battery green, grid blue, load violet, predicted grey. */
export const CHART_COLORS = {
  pv: '#f59e0b',
  pvLight: '#fcd34d',
  battery: '#22c55e',
  grid: '#3b82f6',
  load: '#8b5cf6',
  predicted: '#94a3b8',
  selfUse: '#f59e0b',
  export: '#60a5fa',
} as const;

interface TooltipParam {
  marker?: unknown;
  seriesName?: string;
  value?: unknown;
}

/**
 * Tooltip for series drawn on a plant-time axis ([offset ms, value] points): the plant's clock as the
 * title, then each series with its formatted value.
 */
export function offsetTooltip(label: (offset: number) => string, format: (value: number) => string) {
  return (params: TooltipParam | TooltipParam[]) => {
    const list = Array.isArray(params) ? params : [params];
    const first = list[0]?.value;
    const title = Array.isArray(first) ? label(Number(first[0])) : '';
    const rows = list.map((p) => {
      const value = Array.isArray(p.value) ? Number(p.value[1]) : Number.NaN;
      return `${typeof p.marker === 'string' ? p.marker : ''}${p.seriesName ?? ''}: <b>${format(value)}</b>`;
    });
    return [title, ...rows].join('<br/>');
  };
}

export function Chart({ option, height = 300, testId }: { option: ChartOption; height?: number; testId?: string }) {
  // The dark look (personal settings): ECharts' own dark theme for axes, labels and tooltips, drawn on the card.
  const dark = usePersonalized().styleType === 'dark';
  return (
    <div data-testid={testId} style={{ minHeight: height }}>
      <Suspense fallback={null}>
        <ChartCanvas
          option={{ animation: CHART_ANIMATION, ...(dark ? { backgroundColor: 'transparent' } : {}), ...option }}
          height={height}
          dark={dark}
        />
      </Suspense>
    </div>
  );
}
