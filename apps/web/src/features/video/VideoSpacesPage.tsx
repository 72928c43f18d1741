import { Code } from '@sunward/contracts/codes';
import { CustomerPageSchema } from '@sunward/contracts/customers';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { VIDEO_LIMITS, type VideoSpace } from '@sunward/contracts/video';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, InputNumber, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { FormDialog, TextField } from '../../components/FormDialog';
import { PageTitle } from '../../components/PageTitle';
import { VisuallyHidden } from '../../components/VisuallyHidden';
import { apiRequest, refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { createSpace, fetchSpaces, NOT_ENABLED_CODES, setSpaceActive, updateSpace, videoKeys } from './api';
import { VideoNotEnabled } from './VideoNotEnabled';
import { videoTexts } from './video-texts';

registerTexts(videoTexts);

type SpaceForm = { name: string; customerId?: number | null; storageGb: number };

/** The company's customers, to give one a space (a member without the customer list sees only the company's own). */
const fetchCustomerOptions = () =>
  apiRequest('/api/v1/customers', {
    query: { page: 1, size: 100 },
    schema: CustomerPageSchema,
    tolerate: [Code.NO_PERMISSION, Code.VALIDATION],
  }).catch(() => ({
    infos: [],
    total: 0,
  }));

/**
 * Video spaces (issue 23, spec 02 "video space"): at most 10 per company, one per customer; each holds at most 9
 * cameras. Add, rename, resize, deactivate (its cameras are refused) and activate again.
 */
export function VideoSpacesPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  // A customer (video.view only) reads the space assigned to them; the server refuses them every change.
  const manage = useSession().has('video.edit');
  const spaces = useQuery({ queryKey: videoKeys.spaces, queryFn: fetchSpaces, retry: false });
  const [editing, setEditing] = useState<VideoSpace | 'new' | undefined>();
  const active = useMutation({
    mutationFn: ({ space, on }: { space: VideoSpace; on: boolean }) => setSpaceActive(space.id, on),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: videoKeys.all }),
    onError: (error) => void message.error(refusalMessage(error) ?? t('video.requestFailed')),
  });

  const code = refusalCode(spaces.error);
  if (code !== undefined && NOT_ENABLED_CODES.includes(code)) return <VideoNotEnabled route={route} />;
  const count = spaces.data?.total ?? 0;

  return (
    <Card className="sw-page-card" data-testid="video-spaces-page">
      <PageTitle route={route} spaced />
      {manage ? (
        <Space style={{ marginBottom: 16 }} wrap>
          <Button
            type="primary"
            disabled={count >= VIDEO_LIMITS.spacesMax || !spaces.isSuccess}
            onClick={() => setEditing('new')}
            data-testid="video-space-add"
          >
            {t('video.space.add')}
          </Button>
          <Typography.Text type="secondary" data-testid="video-space-limits">
            {t('video.space.limits', { count, max: VIDEO_LIMITS.spacesMax, devices: VIDEO_LIMITS.devicesPerSpaceMax })}
          </Typography.Text>
        </Space>
      ) : (
        <Typography.Paragraph type="secondary" data-testid="video-space-read-only">
          {t(spaces.isSuccess && count === 0 ? 'video.customer.noSpace' : 'video.customer.readOnly')}
        </Typography.Paragraph>
      )}
      <Table<VideoSpace>
        rowKey="id"
        loading={spaces.isLoading}
        dataSource={spaces.data?.infos ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('video.space.name'), dataIndex: 'name' },
          { title: t('video.space.customer'), render: (_, s) => s.customerName ?? t('video.space.own') },
          { title: t('video.space.storage'), dataIndex: 'storageGb' },
          {
            title: t('video.space.devices'),
            render: (_, s) => (
              <Link to={`/video/devices?space=${s.id}`}>
                {`${s.deviceCount} / ${VIDEO_LIMITS.devicesPerSpaceMax}`}
                <VisuallyHidden> {t('video.space.openDevices', { name: s.name })}</VisuallyHidden>
              </Link>
            ),
          },
          {
            title: t('video.space.state'),
            render: (_, s) => (
              <Tag color={s.active ? 'success' : 'default'} data-testid="video-space-state">
                {t(s.active ? 'video.space.active' : 'video.space.inactive')}
              </Tag>
            ),
          },
          { title: t('video.createdAt'), render: (_, s) => exactTime(s.createdAt, LANGUAGE_TAGS[currentLanguage()]) },
          ...(manage ? [] : [{ title: t('video.actions'), render: (_: unknown, s: VideoSpace) => <SpaceLinks space={s} /> }]),
          {
            hidden: !manage,
            title: t('video.actions'),
            render: (_, s) => (
              <Space>
                <Button type="link" size="small" onClick={() => setEditing(s)}>
                  {t('video.edit')}
                </Button>
                {s.active ? (
                  <Popconfirm
                    title={t('video.space.deactivateTitle')}
                    description={t('video.space.deactivateHint')}
                    onConfirm={() => active.mutate({ space: s, on: false })}
                  >
                    <Button type="link" size="small" danger>
                      {t('video.space.deactivate')}
                    </Button>
                  </Popconfirm>
                ) : (
                  <Button type="link" size="small" onClick={() => active.mutate({ space: s, on: true })}>
                    {t('video.space.activate')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editing && <SpaceDialog space={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}

/** A customer's way on from their space: its cameras and the player. */
function SpaceLinks({ space }: { space: VideoSpace }) {
  const { t } = useTranslation();
  return (
    <Space>
      <Link to={`/video/devices?space=${space.id}`}>{t('video.customer.cameras')}</Link>
      <Link to="/video/player">{t('video.customer.watch')}</Link>
    </Space>
  );
}

function SpaceDialog({ space, onClose }: { space: VideoSpace | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SpaceForm>();
  const customers = useQuery({ queryKey: ['video', 'customerOptions'], queryFn: fetchCustomerOptions, enabled: !space });
  return (
    <FormDialog<SpaceForm>
      form={form}
      title={t(space ? 'video.space.editTitle' : 'video.space.add')}
      initialValues={
        space ? { name: space.name, storageGb: space.storageGb } : { storageGb: VIDEO_LIMITS.storageGbDefault, customerId: null }
      }
      save={(values) =>
        space
          ? updateSpace(space.id, { name: values.name, storageGb: values.storageGb })
          : createSpace({ name: values.name, storageGb: values.storageGb, customerId: values.customerId ?? null })
      }
      fieldOf={(error) =>
        refusalCode(error) === undefined
          ? undefined
          : space
            ? 'name'
            : refusalCode(error) === Code.VIDEO_CUSTOMER_HAS_SPACE
              ? 'customerId'
              : 'name'
      }
      invalidate={[videoKeys.all]}
      onClose={onClose}
      testId="video-space-form"
      okId="video-space-save"
    >
      <TextField name="name" id="video-space-name" label={t('video.space.name')} required max={VIDEO_LIMITS.nameMax} />
      {!space && (
        <Form.Item name="customerId" label={t('video.space.customer')} htmlFor="video-space-customer">
          <Select
            id="video-space-customer"
            options={[
              { value: null, label: t('video.space.own') },
              ...(customers.data?.infos ?? []).map((c) => ({ value: c.customerId, label: `${c.name} (${c.account})` })),
            ]}
          />
        </Form.Item>
      )}
      <Form.Item name="storageGb" label={t('video.space.storage')} htmlFor="video-space-storage" rules={[{ required: true }]}>
        <InputNumber
          id="video-space-storage"
          min={VIDEO_LIMITS.storageGbMin}
          max={VIDEO_LIMITS.storageGbMax}
          precision={0}
          style={{ width: '100%' }}
        />
      </Form.Item>
    </FormDialog>
  );
}
