import { EVENT_LEVELS, type EventCounts, type EventLevel, type EventRow } from '@sunward/contracts/events';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { formatNumber } from '@sunward/contracts/units';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { App, Badge, Button, Card, DatePicker, Empty, Input, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../app/session';
import { ExportButton } from '../../../components/ExportButton';
import { useListState } from '../../../components/ListPage';
import { ExpandTitle } from '../../../components/VisuallyHidden';
import { registerTexts } from '../../../lib/feature-texts';
import { currentLanguage } from '../../../lib/i18n';
import { fetchPlantOptions, PLANT_OPTIONS_KEY } from '../../../lib/plant-options';
import { ExportStartedNote } from '../logs/background-export';
import { eventTexts } from '../texts/events';
import { type EventQuery, eventKeys, exportEvents, exportEventsInBackground, fetchEventCounts, fetchEventPage } from './api';
import { durationParts, periodOf, QUICK_RANGES, type QuickRange } from './event-period';
import './event-list.css';
import type { PageProps } from '../../../app/page-props';
import { PageTitle } from '../../../components/PageTitle';
import { isLevel, LEVEL_STYLE, LevelTag } from './level-tag';

registerTexts(eventTexts);

const REFRESH_MS = 30_000;

const FAMILY_LABEL: Record<string, string> = {
  inverter: 'eventList.familyInverter',
  hybrid_inverter: 'eventList.familyHybridInverter',
  micro_inverter: 'eventList.familyMicroInverter',
  meter: 'eventList.familyMeter',
  battery: 'eventList.familyBattery',
  optimizer: 'eventList.familyOptimizer',
  weather_station: 'eventList.familyWeatherStation',
  combiner_box: 'eventList.familyCombinerBox',
  heat_pump: 'eventList.familyHeatPump',
  ac_switch: 'eventList.familyAcSwitch',
};

const QUICK_LABEL: Record<QuickRange, string> = {
  today: 'eventList.quickToday',
  yesterday: 'eventList.quickYesterday',
  last3: 'eventList.quickLast3',
  last7: 'eventList.quickLast7',
  last30: 'eventList.quickLast30',
  last60: 'eventList.quickLast60',
};

/** Date and time without seconds, in the browser's zone: short enough to keep the table on one line. */
const shortTime = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));

/**
 * /device/event: events of every device the user sees. Open events by level on top (each a filter),
 * the period (quick ranges of spec 02 §9 or picked days), level, status, device SN and plant, all kept
 * in the address; description and solution in an expandable row; CSV or Excel export; live every 30 s.
 */
export function EventListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const { has } = useSession();
  const listState = useListState();
  const { search, update, page } = listState;
  const [now, setNow] = useState(() => Date.now());

  const period = periodOf({ quick: search.get('quick'), from: search.get('from'), to: search.get('to') }, new Date(now));
  const levels = (search.get('level') ?? '').split(',').filter(isLevel);
  const status = search.get('status') === 'active' || search.get('status') === 'cleared' ? (search.get('status') ?? undefined) : undefined;
  const sn = search.get('sn') ?? undefined;
  const plantId = search.get('plant') ?? undefined;

  const filters: EventQuery = {
    from: period.from,
    to: period.to,
    level: levels.length > 0 ? levels.join(',') : undefined,
    status,
    deviceSn: sn,
    plantId,
  };

  const countsQuery = { ...filters, level: undefined, status: undefined };
  const counts = useQuery({
    queryKey: eventKeys.counts(countsQuery),
    queryFn: () => fetchEventCounts(countsQuery),
    refetchInterval: REFRESH_MS,
  });
  const list = useQuery({
    queryKey: eventKeys.page({ ...filters, page }),
    queryFn: async () => {
      const result = await fetchEventPage({ ...filters, page, size: listState.size });
      // Open events' durations count up to the moment of the answer.
      setNow(Date.now());
      return result;
    },
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const plants = useQuery({ queryKey: PLANT_OPTIONS_KEY, queryFn: fetchPlantOptions, staleTime: 60_000 });

  // More than a page: prepared in the download centre in the background, with no row cap (issue 21).
  const exportInBackground = async (format: 'csv' | 'xlsx') => {
    if ((list.data?.total ?? 0) <= listState.size) return false;
    const record = await exportEventsInBackground(filters, format);
    void message.success({
      content: <ExportStartedNote fileName={record.fileName} testId="event-export-started" />,
      duration: 8,
    });
    return true;
  };

  const duration = (e: EventRow) => {
    const { d, h, m } = durationParts(e.openedAt, e.clearedAt, now);
    if (d > 0) return t('eventList.durationDays', { d, h });
    if (h > 0) return t('eventList.durationHours', { h, m });
    return t('eventList.durationMinutes', { m });
  };

  const columns: ColumnsType<EventRow> = [
    { key: 'level', title: t('eventList.colLevel'), width: 100, render: (_, e) => <LevelTag level={e.level} /> },
    { key: 'code', title: t('eventList.colCode'), width: 90, dataIndex: 'code' },
    {
      key: 'device',
      title: t('eventList.colDevice'),
      render: (_, e) => (
        <Space direction="vertical" size={0}>
          <Typography.Text data-testid="event-device">{e.deviceSn}</Typography.Text>
          {e.deviceAlias && <Typography.Text type="secondary">{e.deviceAlias}</Typography.Text>}
        </Space>
      ),
    },
    { key: 'family', title: t('eventList.colFamily'), render: (_, e) => t(FAMILY_LABEL[e.family] ?? e.family) },
    {
      key: 'plant',
      title: t('eventList.colPlant'),
      render: (_, e) =>
        e.plantId ? (
          <Link to={`/plants/overview/${e.plantId}/1`}>{e.plantName}</Link>
        ) : (
          <Typography.Text type="secondary">{t('eventList.noPlant')}</Typography.Text>
        ),
    },
    { key: 'opened', title: t('eventList.colOpened'), render: (_, e) => shortTime(e.openedAt, locale) },
    {
      key: 'cleared',
      title: t('eventList.colCleared'),
      render: (_, e) =>
        e.clearedAt ? shortTime(e.clearedAt, locale) : <Badge status="error" text={t('eventList.active')} data-testid="event-active" />,
    },
    { key: 'duration', title: t('eventList.colDuration'), render: (_, e) => duration(e) },
    {
      key: 'description',
      title: t('eventList.colDescription'),
      ellipsis: true,
      width: 260,
      render: (_, e) => e.description ?? <Typography.Text type="secondary">{t('eventList.noText')}</Typography.Text>,
    },
  ];

  const rows = list.data?.infos ?? [];
  const filtered = levels.length > 0 || status !== undefined || sn !== undefined || plantId !== undefined;

  return (
    <div className="sw-event-list" data-testid="event-list">
      <PageTitle route={route} />
      <LevelCounts
        counts={counts.data}
        levels={levels}
        status={status}
        locale={locale}
        onPick={(level) => {
          const same = status === 'active' && (level === null ? levels.length === 0 : levels.length === 1 && levels[0] === level);
          update(same ? { level: undefined, status: undefined } : { level: level ?? undefined, status: 'active' });
        }}
      />
      <Card size="small">
        <Space wrap className="sw-event-filters">
          <Segmented
            value={period.quick ?? ''}
            onChange={(value) => update({ quick: String(value), from: undefined, to: undefined })}
            options={QUICK_RANGES.map((q) => ({ value: q, label: t(QUICK_LABEL[q]) }))}
            data-testid="event-quick"
          />
          <DatePicker.RangePicker
            allowClear={false}
            value={[dayjs(period.fromDay), dayjs(period.toDay)]}
            disabledDate={(day) => day.isAfter(dayjs(), 'day')}
            onChange={(range) => {
              const [start, end] = range ?? [];
              if (start && end) update({ quick: undefined, from: start.format('YYYY-MM-DD'), to: end.format('YYYY-MM-DD') });
            }}
            data-testid="event-range"
          />
          <Select<EventLevel[]>
            mode="multiple"
            allowClear
            placeholder={t('eventList.levelPlaceholder')}
            aria-label={t('eventList.levelPlaceholder')}
            style={{ minWidth: 180 }}
            value={levels}
            onChange={(value) => update({ level: value.length > 0 ? value.join(',') : undefined })}
            options={EVENT_LEVELS.map((l) => ({ value: l, label: t(LEVEL_STYLE[l].label) }))}
            data-testid="event-level"
          />
          <Select
            aria-label={t('eventList.statusPlaceholder')}
            allowClear
            placeholder={t('eventList.statusPlaceholder')}
            style={{ width: 160 }}
            value={status}
            onChange={(value?: string) => update({ status: value })}
            options={[
              { value: 'active', label: t('eventList.active') },
              { value: 'cleared', label: t('eventList.cleared') },
            ]}
            data-testid="event-status"
          />
          <Input.Search
            key={sn ?? ''}
            allowClear
            placeholder={t('eventList.snPlaceholder')}
            defaultValue={sn}
            onSearch={(value) => update({ sn: value.trim() || undefined })}
            style={{ width: 220 }}
            data-testid="event-sn"
          />
          <Select
            aria-label={t('eventList.plantPlaceholder')}
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('eventList.plantPlaceholder')}
            style={{ width: 220 }}
            value={plantId === undefined ? undefined : Number(plantId)}
            onChange={(value?: number) => update({ plant: value === undefined ? undefined : String(value) })}
            options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            loading={plants.isPending}
            data-testid="event-plant"
          />
          {filtered && (
            <Button type="link" onClick={() => update({ level: undefined, status: undefined, sn: undefined, plant: undefined })}>
              {t('eventList.clearFilters')}
            </Button>
          )}
          <Link to="/device/event/description" data-testid="event-descriptions-link">
            {t('eventDesc.open')}
          </Link>
          {has('event.export') && (
            <ExportButton<'csv' | 'xlsx'>
              formats={[
                { key: 'csv', label: t('eventList.exportCsv'), testId: 'event-export-csv' },
                { key: 'xlsx', label: t('eventList.exportXlsx'), testId: 'event-export-xlsx' },
              ]}
              takeOver={exportInBackground}
              fetchFile={(format) => exportEvents(filters, format)}
              fallbackName={(format) => `events.${format}`}
              label={t('eventList.export')}
              failText={t('eventList.exportFailed')}
              testId="event-export"
            />
          )}
        </Space>
        <Table<EventRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={list.isPending}
          scroll={{ x: 1200 }}
          expandable={{
            columnTitle: <ExpandTitle />,
            expandedRowRender: (e) => (
              <div className="sw-event-detail" data-testid="event-detail">
                <Typography.Paragraph strong>{e.description ?? t('eventList.noText')}</Typography.Paragraph>
                {e.solution && (
                  <Typography.Paragraph>
                    <Typography.Text type="secondary">{t('eventList.solution')}: </Typography.Text>
                    {e.solution}
                  </Typography.Paragraph>
                )}
              </div>
            ),
          }}
          pagination={listState.pagination(
            list.data?.total,
            (total) => t('eventList.total', { count: formatNumber(total, locale, 0) }),
            false,
          )}
          locale={{
            emptyText: (
              <Empty
                description={filtered ? t('eventList.emptyFiltered') : t('eventList.empty')}
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                data-testid="event-empty"
              />
            ),
          }}
          data-testid="event-table"
        />
        <Typography.Text type="secondary" className="sw-event-live">
          {t('eventList.liveHint')}
        </Typography.Text>
      </Card>
    </div>
  );
}

/** Open events by level as coloured tags; a tag filters the list to that level's open events. */
function LevelCounts({
  counts,
  levels,
  status,
  locale,
  onPick,
}: {
  counts: EventCounts | undefined;
  levels: readonly EventLevel[];
  status: string | undefined;
  locale: string;
  onPick(level: EventLevel | null): void;
}) {
  const { t } = useTranslation();
  const value = (n: number | undefined) => (n === undefined ? '–' : formatNumber(n, locale, 0));
  const isActive = (level: EventLevel | null) =>
    status === 'active' && (level === null ? levels.length === 0 : levels.length === 1 && levels[0] === level);
  return (
    <nav className="sw-event-counts" aria-label={t('eventList.countsLabel')}>
      {EVENT_LEVELS.map((level) => (
        <Tag.CheckableTag
          key={level}
          checked={isActive(level)}
          onChange={() => onPick(level)}
          className="sw-event-count"
          style={{ '--sw-level': LEVEL_STYLE[level].color } as React.CSSProperties}
          data-testid={`event-count-${level}`}
        >
          <span className="sw-event-count-dot" aria-hidden />
          {t(LEVEL_STYLE[level].label)} <strong>{value(counts?.active[level])}</strong>
        </Tag.CheckableTag>
      ))}
      <Tag.CheckableTag
        checked={isActive(null)}
        onChange={() => onPick(null)}
        className="sw-event-count"
        style={{ '--sw-level': '#334155' } as React.CSSProperties}
        data-testid="event-count-open"
      >
        {t('eventList.allOpen')} <strong>{value(counts?.activeTotal)}</strong>
      </Tag.CheckableTag>
      <Typography.Text type="secondary" data-testid="event-count-period">
        {t('eventList.inPeriod', { count: value(counts?.total) })}
      </Typography.Text>
    </nav>
  );
}
