import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { deviceReportTiles, type ReportTextKey, reportText } from '@sunward/contracts/report-texts';
import type { DeviceReport } from '@sunward/contracts/reports';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Empty, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartOption } from '../../components/Chart';
import { refusalMessage } from '../../lib/api-client';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { fetchDeviceReport, type ReportParams, reportKeys } from './api';

const SERIES_COLOURS = ['#f59e0b', '#22c55e', '#3b82f6', '#8b5cf6', '#8c8c8c', '#ef4444', '#14b8a6', '#ec4899'];

function chartOption(report: DeviceReport): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    // A device has up to seven counters: the legend scrolls above the bars instead of covering the axis.
    legend: { top: 0, type: 'scroll' },
    grid: { left: 56, right: 16, top: 48, bottom: 28 },
    xAxis: { type: 'category', data: report.bars.labels.map((l) => (l.length === 7 ? l.slice(5) : l.slice(-2))) },
    yAxis: { type: 'value', name: 'kWh' },
    series: report.bars.series.map((s, i) => ({
      type: 'bar',
      name: report.counters.find((c) => c.key === s.key)?.label ?? s.key,
      data: s.values.map((v) => (v === null ? null : Math.round(v) / 1000)),
      itemStyle: { color: SERIES_COLOURS[i % SERIES_COLOURS.length] },
    })),
  };
}

/**
 * The device report's preview (issue 21): the device's energy counters for the period (its detail page's
 * figures), peak power, running hours, availability, a bar per day or month and its events with durations.
 */
export function DeviceReportView({ params }: { params: ReportParams }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const locale = LANGUAGE_TAGS[language];
  const rt = (key: ReportTextKey) => reportText(language, key);
  const report = useQuery({
    queryKey: reportKeys.device(params),
    queryFn: () => fetchDeviceReport(params),
    placeholderData: keepPreviousData,
  });
  if (report.isError) return <Alert type="error" showIcon message={refusalMessage(report.error) ?? t('reports.emptyTitle')} />;
  const data = report.data;
  if (!data) return <Card loading />;
  const d = data.device;
  return (
    <Card
      data-testid="device-report-preview"
      title={<span data-testid="report-title">{data.title}</span>}
      extra={`${data.from} – ${data.to}`}
    >
      <Typography.Paragraph type="secondary">
        {rt('col.plant')}: {d.plantName} · {rt('col.sn')}: {d.sn} · {rt('col.type')}: {d.family}
        {d.model ? ` · ${rt('col.model')}: ${d.model}` : ''}
      </Typography.Paragraph>
      {data.empty && (
        <Empty
          data-testid="report-empty"
          description={
            <>
              <Typography.Text strong>{t('reports.emptyTitle')}</Typography.Text>
              <br />
              <Typography.Text type="secondary">{t('reports.emptyHint')}</Typography.Text>
            </>
          }
        />
      )}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 12, marginBottom: 16 }}>
        {deviceReportTiles(data, language).map((tile) => (
          <div
            key={tile.key}
            style={{ padding: 12, borderRadius: 8, background: 'rgba(127,127,127,0.08)' }}
            data-testid={`device-kpi-${tile.key}`}
          >
            <Typography.Text type="secondary">{tile.label}</Typography.Text>
            <div style={{ fontSize: 20, fontWeight: 600 }}>{tile.value}</div>
          </div>
        ))}
      </div>
      {!data.empty && data.period !== 'day' && data.bars.series.length > 0 && (
        <>
          <Typography.Title level={2} style={{ fontSize: 16 }}>
            {t('reports.chartTitle')}
          </Typography.Title>
          <Chart option={chartOption(data)} height={300} testId="device-report-chart" />
        </>
      )}
      <Typography.Title level={2} style={{ fontSize: 16, marginTop: 16 }}>
        {rt('section.events')} ({data.eventsTotal})
      </Typography.Title>
      <Table
        size="small"
        rowKey={(e) => `${e.code}-${e.openedAt}`}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        dataSource={data.events}
        scroll={{ x: true }}
        data-testid="device-report-events"
        columns={[
          { title: rt('col.code'), dataIndex: 'code', key: 'code' },
          { title: rt('col.level'), dataIndex: 'level', key: 'level' },
          { title: rt('col.description'), dataIndex: 'description', key: 'description' },
          {
            title: rt('col.opened'),
            key: 'opened',
            render: (_: unknown, e: DeviceReport['events'][number]) => exactTime(e.openedAt, locale),
          },
          {
            title: rt('col.cleared'),
            key: 'cleared',
            render: (_: unknown, e: DeviceReport['events'][number]) => (e.clearedAt ? exactTime(e.clearedAt, locale) : rt('open')),
          },
          {
            title: rt('col.duration'),
            key: 'duration',
            render: (_: unknown, e: DeviceReport['events'][number]) => `${Math.round(e.durationSeconds / 60)} min`,
          },
        ]}
      />
    </Card>
  );
}
