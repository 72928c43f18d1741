import type { DeviceCount, PlantEvent, PlantEventCount, PlantInverter, StatusCounts } from '@sunward/contracts/plant-energy';
import { formatEnergy, formatPower } from '@sunward/contracts/units';
import { useQuery } from '@tanstack/react-query';
import { Badge, Empty, Skeleton, Tag, Tooltip } from 'antd';
import type { CSSProperties } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type LiteColumn, LiteTable } from '../../../../components/LiteTable';
import { Panel } from '../../../../components/Panel';
import { StatusTag } from '../../../../components/StatusTag';
import { Text } from '../../../../components/Typo';
import { exactTime, relativeTime, STATUS_STYLE } from '../../../../lib/format';
import { fetchEvents, overviewKeys } from '../api';
import { LoadFailed } from './LoadFailed';

const FAMILY_LABEL: Record<string, string> = {
  inverter: 'overview.familyInverter',
  hybrid_inverter: 'overview.familyHybridInverter',
  micro_inverter: 'overview.familyMicroInverter',
  battery: 'overview.familyBattery',
  meter: 'overview.familyMeter',
  weather_station: 'overview.familyWeatherStation',
  combiner_box: 'overview.familyCombinerBox',
  optimizer: 'overview.familyOptimizer',
  heat_pump: 'overview.familyHeatPump',
  ac_switch: 'overview.familyAcSwitch',
};

const STATUS_KEYS: { key: keyof StatusCounts; status: keyof typeof STATUS_STYLE }[] = [
  { key: 'normal', status: 1 },
  { key: 'warning', status: 3 },
  { key: 'fault', status: 4 },
  { key: 'protect', status: 6 },
  { key: 'upgrading', status: 5 },
  { key: 'offline', status: 2 },
];

const INVERTERS_PAGE = 8;

export function familyLabel(family: string): string {
  return FAMILY_LABEL[family] ?? 'overview.familyOther';
}

/** Device counts by status (coloured) and by family, and the generating devices with power and today's energy. */
export function DevicesCard({
  counts,
  inverters,
  failed,
  locale,
}: {
  counts: DeviceCount | undefined;
  failed: boolean;
  inverters: PlantInverter[] | undefined;
  locale: string;
}) {
  const { t } = useTranslation();
  const [inverterPage, setInverterPage] = useState(1);
  const columns: LiteColumn<PlantInverter>[] = [
    {
      key: 'sn',
      title: t('overview.colDevice'),
      render: (row) => (
        <div>
          <Text strong>{row.alias ?? row.sn}</Text>
          <br />
          <Text type="secondary" className="sw-ov-small">
            {t(familyLabel(row.family))}
            {row.alias ? ` · ${row.sn}` : ''}
          </Text>
        </div>
      ),
    },
    { key: 'status', title: t('overview.colStatus'), render: (row) => <StatusTag status={row.status} /> },
    { key: 'power', title: t('overview.colPower'), align: 'right', render: (row) => formatPower(row.powerW, locale) },
    { key: 'today', title: t('overview.colToday'), align: 'right', render: (row) => formatEnergy(row.energyTodayWh, locale) },
  ];
  return (
    <Panel title={t('overview.devicesTitle')} className="sw-ov-card" testId="devices-card">
      {!counts && failed ? (
        <LoadFailed />
      ) : !counts ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : (
        <>
          <div className="sw-ov-status-row" data-testid="device-status-counts">
            <span className="sw-ov-device-total">{t('overview.devicesTotal', { count: counts.total })}</span>
            {STATUS_KEYS.filter((s) => counts.byStatus[s.key] > 0).map((s) => (
              <span
                key={s.key}
                className="sw-ov-status-chip"
                style={{ '--sw-status': STATUS_STYLE[s.status].color } as CSSProperties}
                data-testid={`device-status-${s.key}`}
              >
                <span className="sw-ov-dot" aria-hidden />
                {t(STATUS_STYLE[s.status].label)} <strong>{counts.byStatus[s.key]}</strong>
              </span>
            ))}
          </div>
          <div className="sw-ov-families">
            {Object.entries(counts.byFamily).map(([family, n]) => (
              <Tag key={family}>
                {t(familyLabel(family))} × {n}
              </Tag>
            ))}
          </div>
          <LiteTable<PlantInverter>
            size="small"
            rowKey={(row) => row.id}
            columns={columns}
            rows={(inverters ?? []).slice((inverterPage - 1) * INVERTERS_PAGE, inverterPage * INVERTERS_PAGE)}
            loading={!inverters}
            pagination={
              (inverters?.length ?? 0) > INVERTERS_PAGE
                ? { page: inverterPage, size: INVERTERS_PAGE, total: inverters?.length ?? 0, onChange: setInverterPage }
                : false
            }
            empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('overview.noInverters')} />}
            testId="inverter-table"
          />
        </>
      )}
    </Panel>
  );
}

const LEVEL: Record<string, { label: string; color: string }> = {
  fault: { label: 'overview.levelFault', color: STATUS_STYLE[4].color },
  warning: { label: 'overview.levelWarning', color: STATUS_STYLE[3].color },
  protect: { label: 'overview.levelProtect', color: STATUS_STYLE[6].color },
};

const EVENTS_PAGE = 6;

/** The plant's newest device events, open ones marked, with the open counts by level. */
export function EventsCard({ plantId, count, locale }: { plantId: number; count: PlantEventCount | undefined; locale: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const events = useQuery({ queryKey: overviewKeys.events(plantId, page), queryFn: () => fetchEvents(plantId, page, EVENTS_PAGE) });
  const now = Date.now();
  const columns: LiteColumn<PlantEvent>[] = [
    {
      key: 'level',
      width: 110,
      render: (e) => {
        const level = LEVEL[e.level];
        return <Badge color={level?.color ?? '#8c8c8c'} text={level ? t(level.label) : e.level} />;
      },
    },
    {
      key: 'device',
      render: (e) => (
        <div>
          <Text>{e.description ?? t('overview.eventCode', { code: e.code })}</Text>
          <br />
          <Text type="secondary" className="sw-ov-small">
            {e.description ? `${t('overview.eventCode', { code: e.code })} · ` : ''}
            {t(familyLabel(e.family))} · {e.sn}
          </Text>
        </div>
      ),
    },
    {
      key: 'time',
      align: 'right',
      render: (e) => (
        <div>
          <Tooltip title={exactTime(e.openedAt, locale)}>
            <span>{relativeTime(e.openedAt, now, locale)}</span>
          </Tooltip>
          <br />
          {e.clearedAt ? (
            <Text type="secondary" className="sw-ov-small">
              {t('overview.eventCleared', { time: relativeTime(e.clearedAt, now, locale) })}
            </Text>
          ) : (
            <Tag color="error" variant="filled" className="sw-ov-open-tag">
              {t('overview.eventOpen')}
            </Tag>
          )}
        </div>
      ),
    },
  ];
  return (
    <Panel
      title={t('overview.eventsTitle')}
      className="sw-ov-card"
      testId="events-card"
      extra={
        count && count.open > 0 ? (
          <span className="sw-ov-status-row">
            {(['fault', 'warning', 'protect'] as const)
              .filter((level) => count.byLevel[level] > 0)
              .map((level) => (
                <Badge key={level} color={LEVEL[level]?.color} text={`${t(LEVEL[level]?.label ?? '')} ${count.byLevel[level]}`} />
              ))}
          </span>
        ) : undefined
      }
    >
      <LiteTable<PlantEvent>
        size="small"
        rowKey={(e) => e.id}
        showHeader={false}
        columns={columns}
        rows={events.data?.records ?? []}
        loading={events.isPending}
        pagination={
          (events.data?.total ?? 0) > EVENTS_PAGE ? { page, size: EVENTS_PAGE, total: events.data?.total ?? 0, onChange: setPage } : false
        }
        empty={events.isError ? <LoadFailed /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('overview.noEvents')} />}
        testId="events-table"
      />
    </Panel>
  );
}
