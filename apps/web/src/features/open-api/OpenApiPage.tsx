import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import {
  type ApiKeyCreate,
  type ApiKeyCreated,
  type ApiKeyRow,
  OPEN_API_LIMITS,
  WEBHOOK_EVENTS,
  type WebhookCreate,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookRow,
} from '@sunward/contracts/open-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Checkbox,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { FormDialog, TextField } from '../../components/FormDialog';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { fetchPlantOptions, PLANT_OPTIONS_KEY } from '../../lib/plant-options';
import { createApiKey, createWebhook, deleteWebhook, fetchApiKeys, fetchDeliveries, fetchWebhooks, openApiKeys, revokeApiKey } from './api';
import { openApiTexts } from './texts';

registerTexts(openApiTexts);

const STATE_TAG = { active: 'success', expired: 'default', revoked: 'error' } as const;
const STATE_TEXT = { active: 'openApi.stateActive', expired: 'openApi.stateExpired', revoked: 'openApi.stateRevoked' } as const;
const DELIVERY_TAG = { delivered: 'success', pending: 'processing', failed: 'error' } as const;
const DELIVERY_TEXT = { delivered: 'openApi.delivered', pending: 'openApi.pending', failed: 'openApi.failed' } as const;
const EVENT_TEXT: Record<WebhookEvent, string> = {
  'event.raised': 'openApi.eventRaised',
  'event.cleared': 'openApi.eventCleared',
  'device.offline': 'openApi.deviceOffline',
  'device.online': 'openApi.deviceOnline',
  'command.finished': 'openApi.commandFinished',
};

function useDate() {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  return (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale) : t('openApi.never'));
}

function KeyDialog({
  onClose,
  onCreated,
  mayChooseAll,
}: {
  onClose: () => void;
  onCreated: (c: ApiKeyCreated) => void;
  mayChooseAll: boolean;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ApiKeyCreate>();
  const scope = Form.useWatch('scope', form);
  const plants = useQuery({ queryKey: PLANT_OPTIONS_KEY, queryFn: fetchPlantOptions });
  return (
    <FormDialog<ApiKeyCreate, ApiKeyCreated>
      form={form}
      title={t('openApi.newKey')}
      initialValues={{ scope: 'plants', access: 'read', expiresInDays: 90, quotaPerMinute: OPEN_API_LIMITS.quotaDefault, plantIds: [] }}
      save={async (values) => {
        const created = await createApiKey({ ...values, plantIds: values.scope === 'plants' ? values.plantIds : [] });
        onCreated(created);
        return created;
      }}
      invalidate={[openApiKeys.keys]}
      onClose={onClose}
      okId="api-key-save"
      testId="api-key-form"
    >
      <TextField name="name" label={t('openApi.name')} id="api-key-name" required max={OPEN_API_LIMITS.nameMax} />
      <Form.Item name="scope" label={t('openApi.scope')}>
        <Radio.Group>
          {mayChooseAll && <Radio value="all">{t('openApi.scopeAll')}</Radio>}
          <Radio value="plants">{t('openApi.scopePlants')}</Radio>
        </Radio.Group>
      </Form.Item>
      {scope === 'plants' && (
        <Form.Item
          name="plantIds"
          label={t('openApi.plants')}
          htmlFor="api-key-plants"
          rules={[{ required: true, message: t('shared.required') }]}
        >
          <Select
            id="api-key-plants"
            mode="multiple"
            maxCount={OPEN_API_LIMITS.plantsMax}
            loading={plants.isPending}
            optionFilterProp="label"
            options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
        </Form.Item>
      )}
      <Form.Item name="access" label={t('openApi.access')}>
        <Radio.Group>
          <Radio value="read">{t('openApi.accessRead')}</Radio>
          <Radio value="operator">{t('openApi.accessOperator')}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item
        name="expiresInDays"
        label={t('openApi.validDays')}
        htmlFor="api-key-days"
        rules={[{ required: true, message: t('shared.required') }]}
      >
        <InputNumber id="api-key-days" min={OPEN_API_LIMITS.expiresDaysMin} max={OPEN_API_LIMITS.expiresDaysMax} precision={0} />
      </Form.Item>
      <Form.Item
        name="quotaPerMinute"
        label={t('openApi.quota')}
        htmlFor="api-key-quota"
        rules={[{ required: true, message: t('shared.required') }]}
      >
        <InputNumber id="api-key-quota" min={OPEN_API_LIMITS.quotaMin} max={OPEN_API_LIMITS.quotaMax} precision={0} />
      </Form.Item>
    </FormDialog>
  );
}

function WebhookDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (c: WebhookCreated) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<WebhookCreate>();
  return (
    <FormDialog<WebhookCreate, WebhookCreated>
      form={form}
      title={t('openApi.newWebhook')}
      initialValues={{ events: [...WEBHOOK_EVENTS] }}
      save={async (values) => {
        const created = await createWebhook(values);
        onCreated(created);
        return created;
      }}
      invalidate={[openApiKeys.webhooks]}
      onClose={onClose}
      okId="webhook-save"
      testId="webhook-form"
    >
      <Form.Item
        name="url"
        label={t('openApi.url')}
        rules={[
          { required: true, message: t('shared.required') },
          { type: 'url', message: t('shared.required') },
        ]}
      >
        <Input id="webhook-url" placeholder="https://example.com/sunward" maxLength={OPEN_API_LIMITS.urlMax} />
      </Form.Item>
      <Form.Item name="events" label={t('openApi.events')} rules={[{ required: true, message: t('shared.required') }]}>
        <Checkbox.Group options={WEBHOOK_EVENTS.map((e) => ({ value: e, label: t(EVENT_TEXT[e]) }))} />
      </Form.Item>
    </FormDialog>
  );
}

/** A secret shown this once (a key, a signing secret), to copy. */
function SecretDialog({
  title,
  note,
  secret,
  testId,
  onClose,
}: {
  title: string;
  note: string;
  secret: string;
  testId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    await navigator.clipboard.writeText(secret).catch(() => undefined);
    void message.success(t('openApi.copied'));
  };
  return (
    <Modal open title={title} onCancel={onClose} footer={<Button onClick={onClose}>{t('openApi.done')}</Button>} width={720}>
      <Typography.Paragraph type="warning">{note}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={secret} data-testid={testId} aria-label={t('openApi.secretLabel')} />
        <Button onClick={() => void copy()}>{t('openApi.copy')}</Button>
      </Space.Compact>
    </Modal>
  );
}

function DeliveriesDialog({ hook, onClose }: { hook: WebhookRow; onClose: () => void }) {
  const { t } = useTranslation();
  const date = useDate();
  const deliveries = useQuery({
    queryKey: openApiKeys.deliveries(hook.id),
    queryFn: () => fetchDeliveries(hook.id),
    refetchInterval: 5000,
  });
  return (
    <Modal
      open
      title={t('openApi.deliveriesOf', { url: hook.url })}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('openApi.done')}</Button>}
      width={960}
    >
      <Table<WebhookDelivery>
        rowKey="id"
        size="small"
        loading={deliveries.isPending}
        dataSource={deliveries.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('openApi.deliveriesEmpty')} /> }}
        columns={[
          { title: t('openApi.createdAt'), render: (_, d) => date(d.createdAt) },
          { title: t('openApi.events'), render: (_, d) => t(EVENT_TEXT[d.eventType]) },
          { title: t('openApi.status'), render: (_, d) => <Tag color={DELIVERY_TAG[d.status]}>{t(DELIVERY_TEXT[d.status])}</Tag> },
          { title: t('openApi.attempts'), dataIndex: 'attempts' },
          { title: t('openApi.answer'), render: (_, d) => d.error ?? d.responseStatus ?? '—' },
        ]}
      />
    </Modal>
  );
}

function KeysSection() {
  const { t } = useTranslation();
  const { has, user } = useSession();
  const { message } = App.useApp();
  const date = useDate();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: openApiKeys.keys, queryFn: fetchApiKeys });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const revoke = useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => {
      void message.success(t('openApi.revoked'));
      void queryClient.invalidateQueries({ queryKey: openApiKeys.keys });
    },
  });
  const canCreate = has('station.edit');
  return (
    <section aria-labelledby="api-keys-title">
      <Typography.Title level={2} id="api-keys-title" style={{ fontSize: 18 }}>
        {t('openApi.keys')}
      </Typography.Title>
      {canCreate && (
        <Button type="primary" onClick={() => setCreating(true)} data-testid="api-key-new" style={{ marginBottom: 16 }}>
          {t('openApi.newKey')}
        </Button>
      )}
      <Table<ApiKeyRow>
        rowKey="id"
        loading={keys.isPending}
        dataSource={keys.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('openApi.keysEmpty')} /> }}
        columns={[
          { title: t('openApi.name'), dataIndex: 'name' },
          { title: t('openApi.prefix'), render: (_, r) => <Typography.Text code>{`${r.prefix}_…`}</Typography.Text> },
          { title: t('openApi.scope'), render: (_, r) => (r.scope === 'all' ? t('openApi.scopeAll') : r.plantNames.join(', ')) },
          { title: t('openApi.access'), render: (_, r) => t(r.access === 'operator' ? 'openApi.accessOperator' : 'openApi.accessRead') },
          { title: t('openApi.quota'), dataIndex: 'quotaPerMinute' },
          {
            title: t('openApi.state'),
            render: (_, r) => (
              <Tag color={STATE_TAG[r.state]} data-state={r.state} data-testid={`api-key-state-${r.id}`}>
                {t(STATE_TEXT[r.state])}
              </Tag>
            ),
          },
          { title: t('openApi.expiresAt'), render: (_, r) => date(r.expiresAt) },
          { title: t('openApi.lastUsed'), render: (_, r) => date(r.lastUsedAt) },
          { title: t('openApi.createdBy'), dataIndex: 'createdBy' },
          {
            title: t('openApi.actions'),
            render: (_, r) =>
              r.state === 'active' && canCreate ? (
                <Popconfirm title={t('openApi.revokeConfirm')} onConfirm={() => revoke.mutateAsync(r.id)}>
                  <Button danger size="small" data-testid={`api-key-revoke-${r.id}`}>
                    {t('openApi.revoke')}
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
      {creating && (
        <KeyDialog
          mayChooseAll={!user?.company || user.role === 'company_admin'}
          onClose={() => setCreating(false)}
          onCreated={setCreated}
        />
      )}
      {created && (
        <SecretDialog
          title={created.key.name}
          note={t('openApi.secretOnce')}
          secret={created.secret}
          testId="api-key-secret"
          onClose={() => setCreated(null)}
        />
      )}
    </section>
  );
}

function WebhooksSection() {
  const { t } = useTranslation();
  const { has, user } = useSession();
  const { message } = App.useApp();
  const date = useDate();
  const queryClient = useQueryClient();
  const inCompany = !!user?.company;
  const hooks = useQuery({ queryKey: openApiKeys.webhooks, queryFn: fetchWebhooks, enabled: inCompany });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const [shown, setShown] = useState<WebhookRow | null>(null);
  const remove = useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => {
      void message.success(t('openApi.deleted'));
      void queryClient.invalidateQueries({ queryKey: openApiKeys.webhooks });
    },
  });
  const canEdit = inCompany && has('company.edit') && user?.role === 'company_admin';
  return (
    <section aria-labelledby="webhooks-title" style={{ marginTop: 32 }}>
      <Typography.Title level={2} id="webhooks-title" style={{ fontSize: 18 }}>
        {t('openApi.webhooks')}
      </Typography.Title>
      {!inCompany ? (
        <Typography.Paragraph type="secondary">{t('openApi.webhooksNoCompany')}</Typography.Paragraph>
      ) : (
        <>
          {canEdit && (
            <Button type="primary" onClick={() => setCreating(true)} data-testid="webhook-new" style={{ marginBottom: 16 }}>
              {t('openApi.newWebhook')}
            </Button>
          )}
          <Table<WebhookRow>
            rowKey="id"
            loading={hooks.isPending}
            dataSource={hooks.data ?? []}
            pagination={false}
            locale={{ emptyText: <Empty description={t('openApi.webhooksEmpty')} /> }}
            columns={[
              { title: t('openApi.url'), dataIndex: 'url' },
              { title: t('openApi.events'), render: (_, h) => h.events.map((e) => t(EVENT_TEXT[e])).join(', ') },
              {
                title: t('openApi.deliveries'),
                render: (_, h) => (
                  <Button size="small" onClick={() => setShown(h)} data-testid={`webhook-deliveries-${h.id}`}>
                    {`${t('openApi.delivered')} ${h.delivered} · ${t('openApi.pending')} ${h.pending} · ${t('openApi.failed')} ${h.failed}`}
                  </Button>
                ),
              },
              { title: t('openApi.createdAt'), render: (_, h) => date(h.createdAt) },
              {
                title: t('openApi.actions'),
                render: (_, h) =>
                  canEdit ? (
                    <Popconfirm title={t('openApi.deleteConfirm')} onConfirm={() => remove.mutateAsync(h.id)}>
                      <Button danger size="small">
                        {t('openApi.delete')}
                      </Button>
                    </Popconfirm>
                  ) : null,
              },
            ]}
          />
        </>
      )}
      {creating && <WebhookDialog onClose={() => setCreating(false)} onCreated={setCreated} />}
      {created && (
        <SecretDialog
          title={created.webhook.url}
          note={t('openApi.webhookSecretOnce')}
          secret={created.secret}
          testId="webhook-secret"
          onClose={() => setCreated(null)}
        />
      )}
      {shown && <DeliveriesDialog hook={shown} onClose={() => setShown(null)} />}
    </section>
  );
}

/** API keys and webhooks of the open plant API (issue 25). */
export function OpenApiPage({ route }: PageProps) {
  const { t } = useTranslation();
  return (
    <div>
      <PageTitle route={route} spaced />
      <Typography.Paragraph type="secondary">{t('openApi.intro')}</Typography.Paragraph>
      <Button href="/api/docs" target="_blank" rel="noreferrer" style={{ marginBottom: 16 }}>
        {t('openApi.reference')}
      </Button>
      <KeysSection />
      <WebhooksSection />
    </div>
  );
}
