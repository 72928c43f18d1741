import { Code } from '@sunward/contracts/codes';
import { BRIGHTNESS_MAX, COLOR_TEMPERATURE_MAX, COLOR_TEMPERATURE_MIN, type Light, type LightSetting } from '@sunward/contracts/smart-home';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Popconfirm, Select, Slider, Space, Switch, Table, Tag } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { AppNotEnabled } from '../../components/AppNotEnabled';
import { PageTitle } from '../../components/PageTitle';
import { refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { fetchPlantOptions, PLANT_OPTIONS_KEY } from '../../lib/plant-options';
import { bindLight, checkBridge, fetchLights, finishOauth, lightKeys, revokeBridge, setLight, smartKeys, startOauth } from './api';
import { smartTexts } from './smart-texts';

registerTexts(smartTexts);

const AUTH_COLOUR = { not_required: 'default', missing: 'warning', granted: 'success', revoked: 'error', failed: 'error' } as const;

/**
 * Smart bulbs (issue 22 part 2): the company's bulb bridge (connect through the bridge's authorisation page, check,
 * cancel the authorisation) and its bulbs, bound to plants and set here. The bridge sends the browser back to this
 * page with ?code&state, which finishes the connection.
 */
export function LightsPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const bridge = useQuery({ queryKey: lightKeys.bridge, queryFn: checkBridge, retry: false });
  const lights = useQuery({ queryKey: lightKeys.list, queryFn: fetchLights, retry: false, enabled: bridge.isSuccess });
  const plants = useQuery({ queryKey: PLANT_OPTIONS_KEY, queryFn: fetchPlantOptions });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: lightKeys.all });
    void queryClient.invalidateQueries({ queryKey: smartKeys.apps });
  };
  const failed = (error: unknown) => void message.error(refusalMessage(error) ?? t('smart.requestFailed'));

  // Back from the bridge's authorisation page: finish once, then drop code and state from the address.
  const finishing = useRef(false);
  const code = params.get('code');
  const state = params.get('state');
  useEffect(() => {
    if (!code || !state || finishing.current) return;
    finishing.current = true;
    finishOauth(code, state)
      .then((status) => void message.success(t('smart.connected', { count: status.lights })))
      .catch(failed)
      .finally(() => {
        setParams({}, { replace: true });
        refresh();
      });
  });

  const connect = useMutation({
    mutationFn: startOauth,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: failed,
  });
  const check = useMutation({ mutationFn: checkBridge, onSuccess: () => refresh(), onError: failed });
  const revoke = useMutation({ mutationFn: revokeBridge, onSuccess: () => refresh(), onError: failed });
  const bind = useMutation({
    mutationFn: ({ light, plantId }: { light: Light; plantId: number | null }) => bindLight(light.id, plantId),
    onSuccess: () => {
      void message.success(t('smart.saved'));
      refresh();
    },
    onError: failed,
  });
  const set = useMutation({
    mutationFn: ({ light, setting }: { light: Light; setting: LightSetting }) => setLight(light.id, setting),
    onSuccess: () => refresh(),
    onError: (error) => {
      failed(error);
      refresh();
    },
  });

  if (refusalCode(bridge.error) === Code.APP_NOT_ENABLED) return <AppNotEnabled route={route} />;

  const status = bridge.data;
  const granted = status?.authorisation === 'granted';
  return (
    <Card className="sw-page-card" data-testid="lights-page">
      <PageTitle route={route} spaced />
      <Card type="inner" title={t('smart.bridge')} style={{ marginBottom: 16 }}>
        <Space wrap>
          {status && (
            <Tag color={AUTH_COLOUR[status.authorisation]} data-testid="bridge-authorisation">
              {t(`smart.auth.${status.authorisation}`)}
            </Tag>
          )}
          {status?.reachable && <Tag color="success">{t('smart.reachable')}</Tag>}
          <Button
            type={granted ? 'default' : 'primary'}
            loading={connect.isPending}
            onClick={() => connect.mutate()}
            data-testid="bridge-connect"
          >
            {t('smart.connect')}
          </Button>
          {granted && (
            <>
              <Button loading={check.isPending} onClick={() => check.mutate()} data-testid="bridge-check">
                {t('smart.check')}
              </Button>
              <Popconfirm title={t('smart.revokeTitle')} description={t('smart.revokeHint')} onConfirm={() => revoke.mutate()}>
                <Button danger loading={revoke.isPending} data-testid="bridge-revoke">
                  {t('smart.revoke')}
                </Button>
              </Popconfirm>
            </>
          )}
        </Space>
        {status?.message && (
          <Alert type="warning" showIcon message={status.message} style={{ marginTop: 12 }} data-testid="bridge-message" />
        )}
      </Card>
      <Table<Light>
        rowKey="id"
        loading={lights.isFetching && !lights.data}
        dataSource={lights.data ?? []}
        pagination={false}
        locale={{ emptyText: t('smart.noBulbs') }}
        columns={[
          {
            title: t('smart.bulb'),
            dataIndex: 'name',
            render: (name: string, light) => (
              <Space>
                {name}
                {!light.reachable && <Tag color="warning">{t('smart.unreachable')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('smart.plant'),
            render: (_, light) => (
              <Select<number | null>
                style={{ minWidth: 200 }}
                value={light.plantId}
                aria-label={t('smart.bindTo', { name: light.name })}
                data-testid={`light-plant-${light.id}`}
                options={[{ value: null, label: t('smart.notBound') }, ...(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
                onChange={(plantId) => bind.mutate({ light, plantId })}
              />
            ),
          },
          {
            title: t('smart.power'),
            render: (_, light) => (
              <Switch
                checked={light.on}
                aria-label={`${t('smart.power')}: ${light.name}`}
                data-testid={`light-on-${light.id}`}
                onChange={(on) => set.mutate({ light, setting: { on } })}
              />
            ),
          },
          {
            title: t('smart.brightness'),
            render: (_, light) => (
              <Slider
                style={{ minWidth: 140 }}
                min={0}
                max={BRIGHTNESS_MAX}
                defaultValue={light.brightness}
                key={`b${light.brightness}`}
                aria-label={`${t('smart.brightness')}: ${light.name}`}
                onChangeComplete={(brightness) => set.mutate({ light, setting: { brightness } })}
              />
            ),
          },
          {
            title: t('smart.colorTemperature'),
            render: (_, light) => (
              <Slider
                style={{ minWidth: 140 }}
                min={COLOR_TEMPERATURE_MIN}
                max={COLOR_TEMPERATURE_MAX}
                step={100}
                defaultValue={light.colorTemperature}
                key={`c${light.colorTemperature}`}
                aria-label={`${t('smart.colorTemperature')}: ${light.name}`}
                onChangeComplete={(colorTemperature) => set.mutate({ light, setting: { colorTemperature } })}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
