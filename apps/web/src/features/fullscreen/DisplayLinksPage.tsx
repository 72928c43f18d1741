import {
  DISPLAY_LIMITS,
  type DisplayLinkCreate,
  type DisplayLinkCreated,
  type DisplayLinkRow,
  type DisplayStyle,
} from '@sunward/contracts/fullscreen';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Form, Input, InputNumber, Modal, Popconfirm, Radio, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { FormDialog, TextField } from '../../components/FormDialog';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { fetchPlantOptions, PLANT_OPTIONS_KEY } from '../../lib/plant-options';
import { createDisplayLink, fetchDisplayCompanies, fetchDisplayLinks, fullscreenKeys, revokeDisplayLink } from './api';
import { displayUrl } from './display-params';
import { fullscreenTexts } from './texts';

registerTexts(fullscreenTexts);

const STATE_TAG = { active: 'success', expired: 'default', revoked: 'error' } as const;
const STATE_TEXT = { active: 'fullscreen.stateActive', expired: 'fullscreen.stateExpired', revoked: 'fullscreen.stateRevoked' } as const;
const STYLE_TEXT = { single: 'fullscreen.styleSingle', screens: 'fullscreen.styleScreens', pages: 'fullscreen.stylePages' } as const;

function CreateDialog({
  onClose,
  onCreated,
  inCompany,
  platformAdmin,
}: {
  onClose: () => void;
  onCreated: (c: DisplayLinkCreated) => void;
  inCompany: boolean;
  /** A platform administrator names the company of a company display (the server checks the role). */
  platformAdmin: boolean;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DisplayLinkCreate>();
  const scope = Form.useWatch('scope', form);
  const plants = useQuery({ queryKey: PLANT_OPTIONS_KEY, queryFn: fetchPlantOptions });
  const [keyword, setKeyword] = useState('');
  const companies = useQuery({
    queryKey: fullscreenKeys.companies(keyword),
    queryFn: () => fetchDisplayCompanies(keyword),
    enabled: platformAdmin,
    placeholderData: (previous) => previous,
  });
  return (
    <FormDialog<DisplayLinkCreate, DisplayLinkCreated>
      form={form}
      title={t('fullscreen.newLink')}
      initialValues={{ scope: inCompany ? 'company' : 'plants', expiresInDays: 90, plantIds: [] }}
      save={async (values) => {
        const created = await createDisplayLink({
          ...values,
          plantIds: values.scope === 'plants' ? values.plantIds : [],
          companyId: values.scope === 'company' && platformAdmin ? values.companyId : undefined,
        });
        onCreated(created);
        return created;
      }}
      invalidate={[fullscreenKeys.links]}
      onClose={onClose}
      okId="display-link-save"
      testId="display-link-form"
    >
      <TextField name="name" label={t('fullscreen.name')} id="display-link-name" required max={DISPLAY_LIMITS.nameMax} />
      <Form.Item name="scope" label={t('fullscreen.scope')}>
        <Radio.Group>
          {(inCompany || platformAdmin) && (
            <Radio value="company">{t(platformAdmin ? 'fullscreen.scopeNamedCompany' : 'fullscreen.scopeCompany')}</Radio>
          )}
          <Radio value="plants">{t('fullscreen.scopePlants')}</Radio>
        </Radio.Group>
      </Form.Item>
      {scope === 'company' && platformAdmin && (
        <Form.Item
          name="companyId"
          label={t('fullscreen.company')}
          htmlFor="display-link-company"
          rules={[{ required: true, message: t('shared.required') }]}
        >
          <Select
            id="display-link-company"
            showSearch
            filterOption={false}
            onSearch={setKeyword}
            placeholder={t('fullscreen.companySearch')}
            loading={companies.isFetching}
            options={(companies.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
      )}
      {scope === 'plants' && (
        <Form.Item
          name="plantIds"
          label={t('fullscreen.plants')}
          htmlFor="display-link-plants"
          rules={[{ required: true, message: t('shared.required') }]}
        >
          <Select
            id="display-link-plants"
            mode="multiple"
            maxCount={DISPLAY_LIMITS.plantsMax}
            loading={plants.isPending}
            optionFilterProp="label"
            options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
        </Form.Item>
      )}
      <Form.Item
        name="expiresInDays"
        label={t('fullscreen.validDays')}
        htmlFor="display-link-days"
        rules={[{ required: true, message: t('shared.required') }]}
      >
        <InputNumber id="display-link-days" min={DISPLAY_LIMITS.expiresDaysMin} max={DISPLAY_LIMITS.expiresDaysMax} precision={0} />
      </Form.Item>
    </FormDialog>
  );
}

/** The token, shown this once: the display's address in the chosen style, to copy or open. */
function CreatedDialog({ created, onClose }: { created: DisplayLinkCreated; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [style, setStyle] = useState<DisplayStyle>('single');
  const [seconds, setSeconds] = useState<number>(DISPLAY_LIMITS.rotateSecondsDefault);
  const origin = window.location.origin;
  const urls =
    style === 'screens'
      ? [1, 2, 3].map((screen) => displayUrl(origin, { token: created.token, style, screen }))
      : [displayUrl(origin, { token: created.token, style, ...(style === 'pages' ? { seconds } : {}) })];
  const copy = async (url: string) => {
    await navigator.clipboard.writeText(url).catch(() => undefined);
    void message.success(t('fullscreen.copied'));
  };
  return (
    <Modal open title={created.link.name} onCancel={onClose} footer={<Button onClick={onClose}>{t('fullscreen.done')}</Button>} width={760}>
      <Typography.Paragraph type="warning">{t('fullscreen.createdOnce')}</Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Radio.Group value={style} onChange={(e) => setStyle(e.target.value)} aria-label={t('fullscreen.style')}>
          {(['single', 'screens', 'pages'] as const).map((s) => (
            <Radio.Button key={s} value={s} data-testid={`style-${s}`}>
              {t(STYLE_TEXT[s])}
            </Radio.Button>
          ))}
        </Radio.Group>
        {style === 'pages' && (
          <Space>
            <label htmlFor="display-link-seconds">{t('fullscreen.seconds')}</label>
            <InputNumber
              id="display-link-seconds"
              min={DISPLAY_LIMITS.rotateSecondsMin}
              max={DISPLAY_LIMITS.rotateSecondsMax}
              value={seconds}
              onChange={(v) => setSeconds(v ?? DISPLAY_LIMITS.rotateSecondsDefault)}
            />
          </Space>
        )}
        {urls.map((url, i) => (
          <Space.Compact key={url} style={{ width: '100%' }}>
            <Input
              readOnly
              value={url}
              data-testid="display-link-url"
              aria-label={style === 'screens' ? t('fullscreen.screen', { screen: i + 1, screens: 3 }) : t('fullscreen.linkFor')}
            />
            <Button onClick={() => void copy(url)}>{t('fullscreen.copy')}</Button>
            <Button href={url} target="_blank" rel="noreferrer">
              {t('fullscreen.openLink')}
            </Button>
          </Space.Compact>
        ))}
      </Space>
    </Modal>
  );
}

/** Display links (issue 20): create one for a wall screen, copy its address, revoke it. */
export function DisplayLinksPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has, user } = useSession();
  const { message } = App.useApp();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const queryClient = useQueryClient();
  const links = useQuery({ queryKey: fullscreenKeys.links, queryFn: fetchDisplayLinks });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<DisplayLinkCreated | null>(null);
  const revoke = useMutation({
    mutationFn: revokeDisplayLink,
    onSuccess: () => {
      void message.success(t('fullscreen.revokedDone'));
      void queryClient.invalidateQueries({ queryKey: fullscreenKeys.links });
    },
  });
  const canCreate = has('station.share');
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale) : t('fullscreen.never'));
  return (
    <div>
      <PageTitle route={route} spaced />
      <Typography.Paragraph type="secondary">{t('fullscreen.linksIntro')}</Typography.Paragraph>
      <Space style={{ marginBottom: 16 }}>
        {canCreate && (
          <Button type="primary" onClick={() => setCreating(true)} data-testid="display-link-new">
            {t('fullscreen.newLink')}
          </Button>
        )}
        <Button href={displayUrl(window.location.origin, { style: 'single' })} target="_blank" rel="noreferrer">
          {t('fullscreen.openSignedIn')}
        </Button>
      </Space>
      <Table<DisplayLinkRow>
        rowKey="id"
        loading={links.isPending}
        dataSource={links.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('fullscreen.empty')} /> }}
        columns={[
          { title: t('fullscreen.name'), dataIndex: 'name' },
          {
            title: t('fullscreen.scope'),
            render: (_, r) => (r.scope === 'company' ? (r.companyName ?? t('fullscreen.scopeCompany')) : r.plantNames.join(', ')),
          },
          {
            title: t('fullscreen.state'),
            render: (_, r) => (
              <Tag color={STATE_TAG[r.state]} data-state={r.state}>
                {t(STATE_TEXT[r.state])}
              </Tag>
            ),
          },
          { title: t('fullscreen.expiresAt'), render: (_, r) => date(r.expiresAt) },
          { title: t('fullscreen.lastUsed'), render: (_, r) => date(r.lastUsedAt) },
          { title: t('fullscreen.createdBy'), dataIndex: 'createdBy' },
          {
            title: t('fullscreen.actions'),
            render: (_, r) =>
              r.state === 'active' && canCreate ? (
                <Popconfirm title={t('fullscreen.revokeConfirm')} onConfirm={() => revoke.mutateAsync(r.id)}>
                  <Button danger size="small" data-testid={`revoke-${r.id}`}>
                    {t('fullscreen.revoke')}
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
      {creating && (
        <CreateDialog
          inCompany={!!user?.company}
          platformAdmin={user?.role === 'platform_admin'}
          onClose={() => setCreating(false)}
          onCreated={setCreated}
        />
      )}
      {created && <CreatedDialog created={created} onClose={() => setCreated(null)} />}
    </div>
  );
}
