import type { BackgroundJob, JobResult, JobRun } from '@sunward/contracts/jobs';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { fetchJobs, jobKeys } from './api';
import { jobTexts } from './job-texts';

registerTexts(jobTexts);

/** The list refreshes while the page is open: the batch scheduler runs every second. */
const REFRESH_MS = 10_000;

/** Each job's title (explicit keys); a job the console does not know yet shows its name alone. */
const JOB_TITLES: Record<string, string> = {
  alarm_email: 'jobs.title.alarmEmail',
  batch_tasks: 'jobs.title.batchTasks',
  queued_upgrades: 'jobs.title.queuedUpgrades',
  orphaned_commands: 'jobs.title.orphanedCommands',
  download_sweep: 'jobs.title.downloadSweep',
  report_schedules: 'jobs.title.reportSchedules',
  switch_tasks: 'jobs.title.switchTasks',
  openadr_ven: 'jobs.title.openadrVen',
  energy_hub: 'jobs.title.energyHub',
  housekeeping: 'jobs.title.housekeeping',
  offline_sweep: 'jobs.title.offlineSweep',
  reading_partitions: 'jobs.title.readingPartitions',
  retention: 'jobs.title.retention',
  event_texts: 'jobs.title.eventTexts',
  protocol_maps: 'jobs.title.protocolMaps',
  plant_day_refresh: 'jobs.title.plantDayRefresh',
  video_sweep: 'jobs.title.videoSweep',
  mqtt_session_beat: 'jobs.title.mqttSessionBeat',
  mqtt_session_adoption: 'jobs.title.mqttSessionAdoption',
};

const RESULT_STYLE: Record<JobResult, { color: string; label: string }> = {
  ok: { color: 'success', label: 'jobs.resultOk' },
  failed: { color: 'error', label: 'jobs.resultFailed' },
  lost: { color: 'warning', label: 'jobs.resultLost' },
};

/** A run's result as a tag that says it in words (colour is never the only signal). */
function ResultTag({ result }: { result: JobResult }) {
  const { t } = useTranslation();
  const style = RESULT_STYLE[result];
  return (
    <Tag color={style.color} variant="filled" data-result={result}>
      {t(style.label)}
    </Tag>
  );
}

/** An interval in the largest whole unit (1 s, 5 min, 6 h), in the console's language. */
function formatEvery(ms: number, locale: string): string {
  const [value, unit] =
    ms % 3_600_000 === 0 ? [ms / 3_600_000, 'hour'] : ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [ms / 1000, 'second'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}

function formatDuration(ms: number, locale: string): string {
  return ms < 1000
    ? new Intl.NumberFormat(locale, { style: 'unit', unit: 'millisecond', unitDisplay: 'short' }).format(ms)
    : new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'short', maximumFractionDigits: 1 }).format(ms / 1000);
}

/** The recent runs of one job (the row's expansion). */
function RecentRuns({ job, locale }: { job: BackgroundJob; locale: string }) {
  const { t } = useTranslation();
  const columns: ColumnsType<JobRun> = [
    {
      key: 'time',
      title: t('jobs.colLastRun'),
      render: (_, run) => new Date(run.startedAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'medium' }),
    },
    { key: 'duration', title: t('jobs.colDuration'), render: (_, run) => formatDuration(run.durationMs, locale) },
    {
      key: 'result',
      title: t('jobs.colResult'),
      render: (_, run) => (
        <Space size={4}>
          <ResultTag result={run.result} />
          {run.attempt > 1 && <Typography.Text type="secondary">{t('jobs.attempt', { attempt: run.attempt })}</Typography.Text>}
        </Space>
      ),
    },
    { key: 'error', title: t('jobs.colError'), render: (_, run) => run.error ?? '--' },
  ];
  return (
    <Table
      size="small"
      rowKey={(run) => `${run.startedAt}-${run.attempt}`}
      columns={columns}
      dataSource={job.runs}
      pagination={false}
      aria-label={t('jobs.recentRuns')}
      data-testid={`job-runs-${job.name}`}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('jobs.noRuns')} /> }}
    />
  );
}

/** Background jobs for platform administrators (issue 26): each job's scope, interval, last run and its recent runs. */
export function BackgroundJobsPage({ route }: PageProps) {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const list = useQuery({ queryKey: jobKeys.list, queryFn: fetchJobs, refetchInterval: REFRESH_MS, retry: false });

  const columns: ColumnsType<BackgroundJob> = [
    {
      key: 'job',
      title: t('jobs.colJob'),
      // Wide enough for a title on one or two lines and the job's name unbroken.
      width: 260,
      render: (_, job) => {
        const title = JOB_TITLES[job.name];
        return (
          <Space direction="vertical" size={0}>
            <Typography.Text strong>{title ? t(title) : job.name}</Typography.Text>
            <Typography.Text type="secondary" code>
              {job.name}
            </Typography.Text>
          </Space>
        );
      },
    },
    {
      key: 'scope',
      title: t('jobs.colScope'),
      width: 190,
      render: (_, job) => (job.scope === 'cluster' ? t('jobs.scopeCluster') : t('jobs.scopeProcess')),
    },
    { key: 'every', title: t('jobs.colEvery'), width: 100, render: (_, job) => formatEvery(job.everyMs, locale) },
    {
      key: 'last',
      title: t('jobs.colLastRun'),
      width: 190,
      render: (_, job) => {
        const last = job.runs[0];
        return last ? new Date(last.startedAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'medium' }) : t('jobs.resultNone');
      },
    },
    {
      key: 'duration',
      title: t('jobs.colDuration'),
      width: 110,
      render: (_, job) => (job.runs[0] ? formatDuration(job.runs[0].durationMs, locale) : '--'),
    },
    {
      key: 'result',
      title: t('jobs.colResult'),
      width: 150,
      render: (_, job) => (
        <Space size={4} wrap data-testid={`job-result-${job.name}`}>
          {job.runs[0] ? <ResultTag result={job.runs[0].result} /> : <Tag variant="filled">{t('jobs.resultNone')}</Tag>}
          {job.running && <Tag color="processing">{t('jobs.running')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'next',
      title: t('jobs.colNextDue'),
      width: 190,
      render: (_, job) =>
        job.nextDueAt ? new Date(job.nextDueAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'medium' }) : '--',
    },
  ];

  return (
    <Card className="sw-page-card">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <PageTitle route={route} />
        <Typography.Paragraph type="secondary">{t('jobs.intro')}</Typography.Paragraph>
        {list.isError && (
          <Alert
            type="error"
            showIcon
            title={t('jobs.loadFailed')}
            data-testid="jobs-load-failed"
            action={
              <Button size="small" onClick={() => void list.refetch()}>
                {t('jobs.retry')}
              </Button>
            }
          />
        )}
        <Table
          rowKey="name"
          data-testid="jobs-table"
          columns={columns}
          dataSource={list.data?.jobs}
          loading={list.isFetching && !list.data}
          scroll={{ x: 1100 }}
          pagination={false}
          expandable={{ expandedRowRender: (job) => <RecentRuns job={job} locale={locale} /> }}
          locale={{ emptyText: <Empty description={list.isError ? t('jobs.loadFailed') : t('jobs.empty')} data-testid="jobs-empty" /> }}
        />
      </Space>
    </Card>
  );
}
