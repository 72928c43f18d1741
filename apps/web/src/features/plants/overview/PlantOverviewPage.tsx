import './overview.css';
// Registers the plant screens' texts before the first render (the registry is idempotent).
import '../../../lib/texts/plants';
import { AppstoreOutlined, EditOutlined, EnvironmentOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { PlantType } from '@sunward/contracts/device-status';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { isStoragePlant } from '@sunward/contracts/plants';
import { formatCapacity } from '@sunward/contracts/units';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Col, Row, Skeleton, Space, Tag, Tooltip } from 'antd';
import { lazy, Suspense, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useSession } from '../../../app/session';
import { PageTitle } from '../../../components/PageTitle';
import { Panel } from '../../../components/Panel';
import { StatusTag } from '../../../components/StatusTag';
import { Paragraph, Text } from '../../../components/Typo';
import { ApiCallError } from '../../../lib/api-client';
import { exactTime, relativeTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { usePlantLiveEvents } from '../../../lib/live-push';
import { plantToday } from '../../../lib/plant-format';
import {
  fetchBenefits,
  fetchDeviceCount,
  fetchEventCount,
  fetchFlow,
  fetchIncome,
  fetchInverters,
  fetchPlantDetail,
  fetchRealtime,
  fetchWeather,
  overviewKeys,
} from './api';
import { DevicesCard, EventsCard } from './components/DevicesAndEvents';
import { EnergyFlowDiagram } from './components/EnergyFlowDiagram';
import { KpiCards } from './components/KpiCards';
import { BenefitsCard, IncomeCard } from './components/MoneyAndBenefits';
import { PerformanceCard } from './components/PerformanceCard';
import { PowerChartCard } from './components/PowerChartCard';
import { SplitCard } from './components/SplitCard';
import { WeatherCard } from './components/WeatherCard';
import { usePageVisible } from './hooks/usePageVisible';

const OverviewNotFound = lazy(async () => ({ default: (await import('./components/OverviewNotFound')).OverviewNotFound }));

/** Fallback when no push arrives (a proxy dropping the stream): realtime and flow every minute. */
const POLL_MS = 60_000;
/** A gateway report touches several devices at once: one refetch per burst. */
const LIVE_THROTTLE_MS = 5000;

const TYPE_LABEL: Record<number, string> = {
  [PlantType.GRID]: 'plants.typeGrid',
  [PlantType.AC_COUPLED_STORAGE]: 'plants.typeAcStorage',
  [PlantType.DC_COUPLED_STORAGE]: 'plants.typeDcStorage',
};

/** /plants/overview/:id/:type — one plant at a glance: live energy flow, figures, charts, money, devices, events. */
export function PlantOverviewPage() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const { has } = useSession();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const [rootRef, visible] = usePageVisible();
  const queryClient = useQueryClient();
  const validId = Number.isInteger(id) && id > 0;

  const detail = useQuery({
    queryKey: overviewKeys.detail(id),
    queryFn: () => fetchPlantDetail(id),
    enabled: validId,
    retry: (count, error) => !(error instanceof ApiCallError && error.code === Code.PLANT_NOT_FOUND) && count < 2,
  });
  const ready = detail.isSuccess;
  const poll = visible ? POLL_MS : (false as const);
  const realtime = useQuery({
    queryKey: overviewKeys.realtime(id),
    queryFn: () => fetchRealtime(id),
    enabled: ready,
    refetchInterval: poll,
  });
  const flow = useQuery({ queryKey: overviewKeys.flow(id), queryFn: () => fetchFlow(id), enabled: ready, refetchInterval: poll });
  const weather = useQuery({
    queryKey: overviewKeys.weather(id),
    queryFn: () => fetchWeather(id),
    enabled: ready,
    refetchInterval: visible ? 10 * POLL_MS : false,
  });
  const income = useQuery({ queryKey: overviewKeys.income(id), queryFn: () => fetchIncome(id), enabled: ready });
  const benefits = useQuery({ queryKey: overviewKeys.benefits(id), queryFn: () => fetchBenefits(id), enabled: ready });
  const deviceCount = useQuery({ queryKey: overviewKeys.deviceCount(id), queryFn: () => fetchDeviceCount(id), enabled: ready });
  const inverters = useQuery({
    queryKey: overviewKeys.inverters(id),
    queryFn: () => fetchInverters(id),
    enabled: ready,
    refetchInterval: poll,
  });
  const eventCount = useQuery({ queryKey: overviewKeys.eventCount(id), queryFn: () => fetchEventCount(id), enabled: ready });

  // Pushed changes of this plant refetch its live figures, at most once per burst.
  const refreshLive = useCallback(() => {
    // A fetch still under way finishes (a slow server would otherwise never show new figures).
    for (const key of [overviewKeys.realtime(id), overviewKeys.flow(id), overviewKeys.inverters(id), overviewKeys.eventCount(id)])
      void queryClient.invalidateQueries({ queryKey: key }, { cancelRefetch: false });
  }, [id, queryClient]);
  usePlantLiveEvents(id, visible && ready, refreshLive, LIVE_THROTTLE_MS);

  if (!validId || (detail.error instanceof ApiCallError && detail.error.code === Code.PLANT_NOT_FOUND)) {
    return (
      <div ref={rootRef}>
        <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
          <OverviewNotFound />
        </Suspense>
      </div>
    );
  }
  if (!detail.data) {
    return (
      <div ref={rootRef}>
        <Skeleton active paragraph={{ rows: 12 }} />
      </div>
    );
  }

  const plant = detail.data;
  const today = plantToday(plant.timezone);
  const canEdit = plant.access === 'manage' && has('station.edit');
  const editPath = canEdit ? `/plants/edit/${plant.id}` : undefined;
  const status = realtime.data?.status ?? plant.status;
  const lastUpdate = realtime.data?.ts ?? null;
  const showSplit = isStoragePlant(plant.plantType) || flow.data?.hasMeter === true;

  return (
    <div className="sw-ov" ref={rootRef} data-testid="plant-overview-page">
      <Panel className="sw-ov-head">
        <div className="sw-ov-head-main">
          <div className="sw-ov-head-title">
            <PageTitle className="sw-ov-name">{plant.name}</PageTitle>
            <StatusTag status={status} />
            <Tag variant="outlined">{t(TYPE_LABEL[plant.plantType] ?? 'plants.typeGrid')}</Tag>
            <Tag variant="outlined" icon={<ThunderboltOutlined />} data-testid="overview-capacity">
              {formatCapacity(plant.capacityKwp, locale)}
            </Tag>
          </div>
          <Space size={16} wrap className="sw-ov-head-meta">
            {plant.address && (
              <Text type="secondary">
                <EnvironmentOutlined /> {plant.address}
              </Text>
            )}
            <Text type="secondary" data-testid="overview-updated">
              {lastUpdate ? (
                <Tooltip title={exactTime(lastUpdate, locale)}>
                  <span className="sw-ov-live-dot" aria-hidden />
                  {t('overview.updated', { time: relativeTime(lastUpdate, Date.now(), locale) })}
                </Tooltip>
              ) : (
                t('overview.neverReported')
              )}
            </Text>
          </Space>
        </div>
        <Space wrap>
          <Link to={`/plants/layout/${plant.id}`} data-testid="overview-layout">
            <Button icon={<AppstoreOutlined />}>{t('route.plantLayout')}</Button>
          </Link>
          {editPath && (
            <Link to={editPath} data-testid="overview-edit">
              <Button icon={<EditOutlined />}>{t('overview.edit')}</Button>
            </Link>
          )}
        </Space>
      </Panel>

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Panel title={t('overview.flowTitle')} className="sw-ov-card sw-ov-flow-card" testId="flow-card">
            {flow.data || flow.isError ? (
              <EnergyFlowDiagram flow={flow.data} capacityKwp={plant.capacityKwp} locale={locale} />
            ) : (
              <Skeleton active paragraph={{ rows: 8 }} />
            )}
            {flow.data && flow.data.ts === null && (
              <Paragraph type="secondary" className="sw-ov-note" data-testid="flow-empty">
                {t('overview.flowEmpty')}
              </Paragraph>
            )}
          </Panel>
        </Col>
        <Col xs={24} xl={10}>
          <div className="sw-ov-side">
            <Panel className="sw-ov-card" testId="kpi-card">
              <KpiCards realtime={realtime.data} failed={realtime.isError} locale={locale} />
            </Panel>
            <WeatherCard weather={weather.data} failed={weather.isError} locale={locale} />
          </div>
        </Col>
        <Col span={24}>
          <PowerChartCard plantId={plant.id} timezone={plant.timezone} today={today} locale={locale} />
        </Col>
        {showSplit && (
          <Col span={24}>
            <SplitCard plantId={plant.id} timezone={plant.timezone} today={today} locale={locale} />
          </Col>
        )}
        <Col xs={24} lg={12} xxl={8}>
          <IncomeCard income={income.data} failed={income.isError} locale={locale} editPath={editPath} />
        </Col>
        <Col xs={24} lg={12} xxl={8}>
          <BenefitsCard benefits={benefits.data} failed={benefits.isError} locale={locale} />
        </Col>
        <Col xs={24} xxl={8}>
          <PerformanceCard plantId={plant.id} today={today} locale={locale} />
        </Col>
        <Col xs={24} xl={14}>
          <DevicesCard counts={deviceCount.data} inverters={inverters.data} failed={deviceCount.isError} locale={locale} />
        </Col>
        <Col xs={24} xl={10}>
          <EventsCard plantId={plant.id} count={eventCount.data} locale={locale} />
        </Col>
      </Row>
    </div>
  );
}
