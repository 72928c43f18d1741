import { CopyOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import {
  CAMERA_PASSWORD_PATTERN,
  GB_ID_PATTERN,
  type SipServerInfo,
  VIDEO_LIMITS,
  type VideoChannel,
  type VideoDevice,
  type VideoDeviceState,
} from '@sunward/contracts/video';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Input, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { FormDialog, TextField } from '../../components/FormDialog';
import { PageTitle } from '../../components/PageTitle';
import { ExpandTitle } from '../../components/VisuallyHidden';
import { refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import {
  createDevice,
  deleteDevice,
  fetchChannels,
  fetchDevices,
  fetchSipServer,
  fetchSpaces,
  NOT_ENABLED_CODES,
  refreshChannels,
  setDeviceEnabled,
  updateDevice,
  videoKeys,
} from './api';
import { VideoNotEnabled } from './VideoNotEnabled';
import { videoTexts } from './video-texts';

registerTexts(videoTexts);

/** A camera's state in colour and in words (spec 02: unregistered, inactive, disabled, active). */
export const STATE_COLOUR: Record<VideoDeviceState, string> = {
  unregistered: 'default',
  inactive: 'warning',
  disabled: 'error',
  active: 'success',
};

type DeviceForm = { name: string; sipId: string; password?: string };

/**
 * Cameras of a video space (issue 23): the SIP server details to type into a camera (with copy buttons), the
 * cameras with their state, add (SIP ID and password), edit, enable/disable, delete, and their channels.
 */
export function VideoDevicesPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  // A customer (video.view only) reads their space's cameras and plays them; adding and editing is the company's.
  const manage = useSession().has('video.edit');
  const spaces = useQuery({ queryKey: videoKeys.spaces, queryFn: fetchSpaces, retry: false });
  const sip = useQuery({ queryKey: videoKeys.sipServer, queryFn: fetchSipServer, retry: false, enabled: manage });
  const spaceId = Number(params.get('space')) || spaces.data?.infos[0]?.id;
  const devices = useQuery({
    queryKey: videoKeys.devices(spaceId ?? 0),
    queryFn: () => fetchDevices(spaceId ?? 0),
    enabled: spaceId !== undefined,
    retry: false,
    // States follow registrations and keepalives on the server.
    refetchInterval: 5000,
  });
  const [editing, setEditing] = useState<VideoDevice | 'new' | undefined>();
  const failed = (error: unknown) => void message.error(refusalMessage(error) ?? t('video.requestFailed'));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: videoKeys.all });
  const enable = useMutation({
    mutationFn: ({ device, on }: { device: VideoDevice; on: boolean }) => setDeviceEnabled(device.id, on),
    onSuccess: refresh,
    onError: failed,
  });
  const remove = useMutation({ mutationFn: (device: VideoDevice) => deleteDevice(device.id), onSuccess: refresh, onError: failed });

  const code = refusalCode(spaces.error ?? sip.error);
  if (code !== undefined && NOT_ENABLED_CODES.includes(code)) return <VideoNotEnabled route={route} />;
  const space = spaces.data?.infos.find((s) => s.id === spaceId);
  const count = devices.data?.total ?? 0;

  return (
    <Card className="sw-page-card" data-testid="video-devices-page">
      <PageTitle route={route} spaced />
      {sip.data && <SipDetails sip={sip.data} />}
      {spaces.isSuccess && spaces.data.total === 0 && (
        <Alert
          type="info"
          showIcon
          message={t(manage ? 'video.device.noSpace' : 'video.customer.noSpace')}
          action={manage && <Link to="/video/spaces">{t('video.space.add')}</Link>}
          style={{ marginBottom: 16 }}
        />
      )}
      <Space style={{ margin: '16px 0' }} wrap>
        <label htmlFor="video-device-space">{t('video.device.space')}</label>
        <Select
          id="video-device-space"
          style={{ minWidth: 220 }}
          value={spaceId}
          onChange={(value: number) => setParams({ space: String(value) })}
          options={(spaces.data?.infos ?? []).map((s) => ({
            value: s.id,
            label: s.active ? s.name : `${s.name} (${t('video.space.inactive')})`,
          }))}
        />
        {manage && (
          <Button
            type="primary"
            disabled={!space || count >= VIDEO_LIMITS.devicesPerSpaceMax}
            onClick={() => setEditing('new')}
            data-testid="video-device-add"
          >
            {t('video.device.add')}
          </Button>
        )}
        {manage && space && (
          <Typography.Text type="secondary" data-testid="video-device-limit">
            {t('video.device.limit', { count, max: VIDEO_LIMITS.devicesPerSpaceMax })}
          </Typography.Text>
        )}
      </Space>
      <Table<VideoDevice>
        rowKey="id"
        loading={devices.isLoading}
        dataSource={devices.data?.infos ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        expandable={{
          columnTitle: <ExpandTitle />,
          expandedRowRender: (device) => <Channels device={device} />,
          rowExpandable: (d) => d.channelCount > 0 || d.state === 'active',
        }}
        columns={[
          { title: t('video.device.name'), dataIndex: 'name' },
          { title: t('video.device.sipId'), dataIndex: 'sipId' },
          {
            title: t('video.device.state'),
            render: (_, d) => (
              <Tag color={STATE_COLOUR[d.state]} data-testid="video-device-state">
                {t(`video.state.${d.state}`)}
              </Tag>
            ),
          },
          { title: t('video.device.channels'), dataIndex: 'channelCount' },
          {
            title: t('video.device.lastKeepalive'),
            render: (_, d) => (d.lastKeepaliveAt ? exactTime(d.lastKeepaliveAt, LANGUAGE_TAGS[currentLanguage()]) : '—'),
          },
          {
            title: t('video.actions'),
            render: (_, d) => (
              <Space size={0} wrap>
                <Link to={`/video/player?device=${d.id}`}>{t('video.device.play')}</Link>
                {manage && (
                  <>
                    <Button type="link" size="small" onClick={() => setEditing(d)}>
                      {t('video.edit')}
                    </Button>
                    <Button type="link" size="small" onClick={() => enable.mutate({ device: d, on: !d.enabled })}>
                      {t(d.enabled ? 'video.device.disable' : 'video.device.enable')}
                    </Button>
                    <Popconfirm title={t('video.device.deleteTitle')} onConfirm={() => remove.mutate(d)}>
                      <Button type="link" size="small" danger>
                        {t('video.device.delete')}
                      </Button>
                    </Popconfirm>
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editing && spaceId !== undefined && (
        <DeviceDialog spaceId={spaceId} device={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      )}
    </Card>
  );
}

function SipDetails({ sip }: { sip: SipServerInfo }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = (label: string, value: string) => (
    <Space>
      <Typography.Text code>{value}</Typography.Text>
      <Button
        size="small"
        aria-label={t('video.copy', { what: label })}
        icon={<CopyOutlined />}
        onClick={() => void navigator.clipboard?.writeText(value).then(() => message.success(t('video.copied')))}
      />
    </Space>
  );
  const rows: [string, string][] = [
    [t('video.sip.serverId'), sip.id],
    [t('video.sip.domain'), sip.domain],
    [t('video.sip.ip'), sip.ip],
    [t('video.sip.port'), String(sip.port)],
    [t('video.sip.keepalive'), String(sip.keepaliveSeconds)],
  ];
  return (
    <Card type="inner" title={t('video.sip.title')} data-testid="video-sip-server">
      {!sip.enabled && <Alert type="warning" showIcon message={t('video.sip.off')} style={{ marginBottom: 12 }} />}
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        items={rows.map(([label, value]) => ({ key: label, label, children: copy(label, value) }))}
      />
    </Card>
  );
}

function Channels({ device }: { device: VideoDevice }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const channels = useQuery({ queryKey: videoKeys.channels(device.id), queryFn: () => fetchChannels(device.id), retry: false });
  // Asking the camera for its catalog is the company's (video.control).
  const control = useSession().has('video.control');
  const query = useMutation({
    mutationFn: () => refreshChannels(device.id),
    onSuccess: (list) => queryClient.setQueryData(videoKeys.channels(device.id), list),
    onError: (error) => void message.error(refusalMessage(error) ?? t('video.requestFailed')),
  });
  return (
    <div data-testid="video-channels">
      <Space style={{ marginBottom: 8 }}>
        <Typography.Text strong>{t('video.device.channelsOf', { name: device.name })}</Typography.Text>
        {control && (
          <Button size="small" loading={query.isPending} disabled={device.state !== 'active'} onClick={() => query.mutate()}>
            {t('video.device.refreshChannels')}
          </Button>
        )}
      </Space>
      <Table<VideoChannel>
        size="small"
        rowKey="gbId"
        pagination={false}
        loading={channels.isLoading}
        dataSource={channels.data?.infos ?? []}
        locale={{ emptyText: t('video.channel.none') }}
        columns={[
          { title: t('video.channel.gbId'), dataIndex: 'gbId' },
          { title: t('video.channel.name'), dataIndex: 'name' },
          {
            title: t('video.device.state'),
            render: (_, c) => <Tag color={c.status === 'online' ? 'success' : 'default'}>{t(`video.channel.${c.status}`)}</Tag>,
          },
          {
            title: t('video.actions'),
            render: (_, c) => <Link to={`/video/player?device=${device.id}&channel=${c.gbId}`}>{t('video.device.play')}</Link>,
          },
        ]}
      />
    </div>
  );
}

function DeviceDialog({ spaceId, device, onClose }: { spaceId: number; device: VideoDevice | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DeviceForm>();
  const password = { pattern: CAMERA_PASSWORD_PATTERN, message: t('video.device.passwordHint') };
  return (
    <FormDialog<DeviceForm>
      form={form}
      title={t(device ? 'video.device.editTitle' : 'video.device.add')}
      initialValues={device ? { name: device.name, sipId: device.sipId } : {}}
      save={(values) =>
        device
          ? updateDevice(device.id, { name: values.name, ...(values.password ? { password: values.password } : {}) })
          : createDevice(spaceId, { name: values.name, sipId: values.sipId, password: values.password ?? '' })
      }
      fieldOf={(error) => (refusalCode(error) === Code.VIDEO_SIP_ID_EXISTS ? 'sipId' : 'name')}
      invalidate={[videoKeys.all]}
      onClose={onClose}
      testId="video-device-form"
      okId="video-device-save"
    >
      <TextField name="name" id="video-device-name" label={t('video.device.name')} required max={VIDEO_LIMITS.nameMax} />
      <Form.Item
        name="sipId"
        label={t('video.device.sipId')}
        htmlFor="video-device-sip-id"
        extra={t('video.device.sipIdHint')}
        rules={[{ required: !device, pattern: GB_ID_PATTERN, message: t('video.device.sipIdHint') }]}
      >
        <Input id="video-device-sip-id" disabled={Boolean(device)} inputMode="numeric" maxLength={20} />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('video.device.password')}
        htmlFor="video-device-password"
        extra={device ? t('video.device.passwordKeep') : t('video.device.passwordHint')}
        rules={[{ required: !device, message: t('video.device.passwordHint') }, password]}
      >
        <Input.Password id="video-device-password" autoComplete="new-password" maxLength={VIDEO_LIMITS.passwordMax} />
      </Form.Item>
    </FormDialog>
  );
}
