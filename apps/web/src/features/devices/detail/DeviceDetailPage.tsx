import '../../../lib/texts/plants';
import '../texts';
import './device-detail.css';
import { ArrowLeftOutlined, SwapOutlined } from '@ant-design/icons';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { DEVICE_KIND_ACCESS } from '@sunward/contracts/permissions';
import { formatEnergy, formatPower } from '@sunward/contracts/units';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Col, Descriptions, Empty, Result, Row, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useSession } from '../../../app/session';
import { StatusTag } from '../../../components/StatusTag';
import { ApiCallError } from '../../../lib/api-client';
import { exactTime, relativeTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { usePlantLiveEvents } from '../../../lib/live-push';
import { plantToday } from '../../../lib/plant-format';
import { dayQuery, deviceKeys, FRESH_MS, fetchDeviceDetail, fetchPvIv, fetchRealtime } from '../api';
import { detailPathOf, inverterTypeName, isDeviceKind, listPathOf } from '../device-format';
import { DeviceCharts } from './DeviceCharts';
import { MeterPanel } from './MeterPanel';
import { RealtimeCards } from './RealtimeCards';
import { RemoteControl } from './RemoteControl';
import { DeviceUpgrade } from './UpgradePanel';

const REFRESH_MS = 30_000;

/**
 * /device/detail/{kind}/{sn}: one device of any family. Identity and live figures on top, realtime values
 * by section (DC strings, AC phases, grid, battery with its cell heat grid, combiner strings...), then
 * its curves and energy bars. Updates without reload when the plant's devices report (pushed), else every 30 s.
 */
export function DeviceDetailPage() {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const params = useParams();
  const kind = isDeviceKind(params.kind) ? params.kind : undefined;
  const sn = params.sn ?? '';
  const { has } = useSession();
  const queryClient = useQueryClient();

  const detail = useQuery({
    queryKey: deviceKeys.detail(kind ?? 'inverter', sn),
    queryFn: () => fetchDeviceDetail(kind ?? 'inverter', sn),
    enabled: kind !== undefined,
    refetchInterval: REFRESH_MS,
    staleTime: FRESH_MS,
    retry: (count, error) => !(error instanceof ApiCallError) && count < 2,
  });
  const realtime = useQuery({
    queryKey: deviceKeys.realtime(kind ?? 'inverter', sn),
    queryFn: () => fetchRealtime(kind ?? 'inverter', sn),
    enabled: kind !== undefined,
    refetchInterval: REFRESH_MS,
    staleTime: FRESH_MS,
    retry: false,
  });
  const pvIv = useQuery({
    queryKey: deviceKeys.pvIv(sn),
    queryFn: () => fetchPvIv(sn),
    enabled: kind === 'inverter',
    refetchInterval: REFRESH_MS,
    staleTime: FRESH_MS,
    retry: false,
  });
  // The first screen in one round trip: every call starts during the first render, not after the
  // page has committed (which waits for its code) or after the detail has answered.
  if (kind) {
    const start = (queryKey: readonly unknown[], queryFn: () => Promise<unknown>) => {
      const state = queryClient.getQueryState(queryKey);
      if (!state || (state.status === 'pending' && state.fetchStatus === 'idle'))
        void queryClient.prefetchQuery({ queryKey, queryFn, retry: false });
    };
    start(deviceKeys.detail(kind, sn), () => fetchDeviceDetail(kind, sn));
    start(deviceKeys.realtime(kind, sn), () => fetchRealtime(kind, sn));
    if (kind === 'inverter') start(deviceKeys.pvIv(sn), () => fetchPvIv(sn));
    start(dayQuery(kind, sn).queryKey, dayQuery(kind, sn).queryFn);
  }

  const device = detail.data?.device;
  usePlantLiveEvents(device?.plantId ?? Number.NaN, device?.plantId != null, () => {
    // A fetch still under way finishes rather than starting over (on a slow server it never would).
    const keep = { cancelRefetch: false };
    void queryClient.invalidateQueries({ queryKey: deviceKeys.detail(kind ?? 'inverter', sn) }, keep);
    void queryClient.invalidateQueries({ queryKey: deviceKeys.realtime(kind ?? 'inverter', sn) }, keep);
    void queryClient.invalidateQueries({ queryKey: deviceKeys.pvIv(sn) }, keep);
    void queryClient.invalidateQueries({ queryKey: ['devices', kind ?? 'inverter', 'day', sn] }, keep);
  });

  if (!kind) return <Result status="404" title={t('devices.notFound')} />;
  if (detail.isError)
    return (
      <Result
        status="404"
        title={t('devices.notFound')}
        extra={
          <Link to={listPathOf(kind)}>
            <ArrowLeftOutlined /> {t('devices.backToList')}
          </Link>
        }
      />
    );
  if (!detail.data || !device) return <Skeleton active paragraph={{ rows: 10 }} />;

  const today = plantToday(device.timezone);
  const canEdit = device.access === 'manage' && has(DEVICE_KIND_ACCESS[kind].edit);
  return (
    <div className="sw-device-detail" data-testid="device-detail">
      <Link to={listPathOf(kind)} className="sw-back">
        <ArrowLeftOutlined /> {t('devices.backToList')}
      </Link>
      <Card>
        <Row gutter={[24, 16]} align="middle">
          <Col xs={24} lg={10}>
            <Space direction="vertical" size={4}>
              <Space wrap>
                <Typography.Title level={1} style={{ margin: 0, fontSize: 24, lineHeight: 1.35 }} data-testid="device-title">
                  {device.alias ?? device.sn}
                </Typography.Title>
                <StatusTag status={device.status} />
                {device.mainMeter && <Tag color="gold">{t('devices.mainMeter')}</Tag>}
                {has('system.protocol.edit') && (
                  <Link to={`/system/protocols?switch=${encodeURIComponent(device.sn)}`} data-testid="device-change-protocol">
                    <SwapOutlined /> {t('devices.changeProtocol')}
                  </Link>
                )}
              </Space>
              <Descriptions size="small" column={1} className="sw-device-facts">
                <Descriptions.Item label={t('devices.colSn')}>{device.sn}</Descriptions.Item>
                <Descriptions.Item label={t('devices.kindLabel')}>
                  {t(`devices.kind.${kind}`)}
                  {kind === 'inverter' ? ` · ${inverterTypeName(currentLanguage(), device.type)}` : ''}
                </Descriptions.Item>
                <Descriptions.Item label={t('devices.colModel')}>
                  {[device.brand, device.model].filter(Boolean).join(' · ') || '--'}
                </Descriptions.Item>
                {device.ratedPowerW !== null && (
                  <Descriptions.Item label={t('devices.rated')}>{formatPower(device.ratedPowerW, locale)}</Descriptions.Item>
                )}
                <Descriptions.Item label={t('devices.colPlant')}>
                  {device.plantId ? <Link to={`/plants/overview/${device.plantId}/1`}>{device.plantName}</Link> : t('devices.noPlant')}
                </Descriptions.Item>
                <Descriptions.Item label={t('devices.gateway')}>{device.gatewaySn ?? '--'}</Descriptions.Item>
                <Descriptions.Item label={t('devices.firmware')}>
                  <span data-testid="device-firmware">{detail.data.firmware ?? '--'}</span>
                </Descriptions.Item>
                <Descriptions.Item label={t('devices.colLastReport')}>
                  {device.lastReportAt ? (
                    <span title={exactTime(device.lastReportAt, locale)} data-testid="device-updated">
                      {relativeTime(device.lastReportAt, Date.now(), locale)}
                    </span>
                  ) : (
                    t('devices.never')
                  )}
                </Descriptions.Item>
              </Descriptions>
            </Space>
          </Col>
          <Col xs={24} lg={14}>
            <Row gutter={[16, 16]}>
              <Col span={8}>
                <Statistic title={t('devices.colPower')} value={formatPower(device.powerW, locale)} data-testid="device-power" />
              </Col>
              <Col span={8}>
                <Statistic title={t('devices.colToday')} value={formatEnergy(device.energyTodayWh, locale)} />
              </Col>
              <Col span={8}>
                {device.soc !== null ? (
                  <Statistic title={t('devices.colSoc')} value={`${Math.round(device.soc)} %`} />
                ) : (
                  <Statistic title={t('devices.colTotal')} value={formatEnergy(device.energyTotalWh, locale)} />
                )}
              </Col>
            </Row>
          </Col>
        </Row>
      </Card>

      {detail.data.slaves.length > 0 && (
        <Card size="small" title={t('devices.slaves', { count: detail.data.slaves.length })} data-testid="battery-slaves">
          <Space wrap>
            {detail.data.slaves.map((s) => (
              <Link key={s.id} to={detailPathOf('battery', s.sn)}>
                <Tag>{`${s.sn}${s.soc === null ? '' : ` · ${Math.round(s.soc)} %`}`}</Tag>
              </Link>
            ))}
          </Space>
        </Card>
      )}

      {realtime.data ? (
        <RealtimeCards sections={realtime.data.sections} pvIv={pvIv.data} locale={locale} />
      ) : realtime.isPending ? (
        <Skeleton active />
      ) : (
        <Empty description={t('devices.noRealtime')} />
      )}

      <DeviceCharts kind={kind} detail={detail.data} today={today} locale={locale} />

      {kind === 'meter' && <MeterPanel device={device} canEdit={canEdit} />}
      {kind === 'inverter' && <RemoteControl device={device} />}
      {kind === 'battery' && has('battery.upgrade') && (
        <Card title={t('devices.upgradeTitle')}>
          {device.parentId === null ? (
            <DeviceUpgrade target="battery" sn={device.sn} canOperate={device.access !== 'view'} />
          ) : (
            <Alert type="info" showIcon message={t('upgrades.slaveNote')} data-testid="slave-note" />
          )}
        </Card>
      )}
    </div>
  );
}
