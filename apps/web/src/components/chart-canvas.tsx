import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { ChartOption } from './chart-option';

// ECharts with only what the console draws (line and bar charts, grid, tooltip, legend, canvas). This module is
// loaded on demand by Chart, so ~180 KB (gzip) of chart code reaches only the views that show a chart, after they paint.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export function ChartCanvas({ option, height, dark }: { option: ChartOption; height: number; dark: boolean }) {
  return (
    <ReactEChartsCore
      echarts={echarts}
      theme={dark ? 'dark' : undefined}
      option={option}
      notMerge
      lazyUpdate
      style={{ height, width: '100%' }}
    />
  );
}
