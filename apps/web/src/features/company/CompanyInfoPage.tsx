import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { COMPANY_LIMITS, type CompanyEdit, type CompanyInfo, THEME_COLOR } from '@sunward/contracts/company';
import { DEFAULT_THEME_COLOR } from '@sunward/contracts/limits';
import { isEmail, isPhone, isPlainText } from '@sunward/contracts/validators';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Form, Input, Select, Space, Switch, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { ConfirmPasswordModal } from '../../components/ConfirmPassword';
import { inviteAgent, withdrawAgentInvitation } from '../../components/invitations/api';
import { ReceivedInvitations } from '../../components/invitations/ReceivedInvitations';
import { SentInvitations } from '../../components/invitations/SentInvitations';
import { PageTitle } from '../../components/PageTitle';
import { ActionsTitle } from '../../components/VisuallyHidden';
import { registerTexts } from '../../lib/feature-texts';
import {
  companyKeys,
  editCompany,
  fetchAgents,
  fetchCompanyInfo,
  fetchStaff,
  fieldErrors,
  refusalMessage,
  removeAgent,
  setCompanyLogo,
  setThemeColor,
  transferAdmin,
  uploadCompanyImage,
} from './api';
import { companyTexts } from './company-texts';

registerTexts(companyTexts);

const LOGO_TYPES = ['image/jpeg', 'image/png', 'image/gif'];

/** Company information (spec 01 §2 /enterprise/company): details, logo and theme, administrator transfer, agents. */
export function CompanyInfoPage({ route }: PageProps) {
  const { has, user } = useSession();
  const { t } = useTranslation();
  // A platform administrator (or an owner without a company) has no company to show: say so, ask nothing.
  const inCompany = user?.company != null;
  const info = useQuery({ queryKey: companyKeys.info, queryFn: fetchCompanyInfo, enabled: inCompany });
  const canEdit = has('company.edit');
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="company-info-page">
      <PageTitle route={route} />
      {!inCompany && (
        <Card>
          <Empty description={t('enterprise.noCompany')} data-testid="no-company" />
        </Card>
      )}
      {info.data && (
        <>
          <DetailsCard company={info.data} canEdit={canEdit} />
          <BrandingCard company={info.data} canEdit={canEdit} />
          {canEdit && <TransferCard company={info.data} />}
          <AgentsCard canEdit={canEdit} />
        </>
      )}
    </Space>
  );
}

function DetailsCard({ company, canEdit }: { company: CompanyInfo; canEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CompanyEdit>();
  const save = useMutation({
    mutationFn: (values: CompanyEdit) => editCompany(company.id, values),
    onSuccess: () => {
      void message.success(t('enterprise.saved'));
      void queryClient.invalidateQueries({ queryKey: companyKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['current-user'] });
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      if (Object.keys(fields).length > 0)
        form.setFields(Object.entries(fields).map(([name, text]) => ({ name: name as keyof CompanyEdit, errors: [text] })));
      else form.setFields([{ name: 'name', errors: [refusalMessage(error) ?? t('enterprise.failed')] }]);
    },
  });
  const plain = {
    validator: (_: unknown, v?: string) => (!v || isPlainText(v) ? Promise.resolve() : Promise.reject(new Error(t('enterprise.special')))),
  };
  return (
    <Card title={t('enterprise.details')}>
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 560 }}
        disabled={!canEdit}
        initialValues={{ ...company, requireTwoFactor: company.requireTwoFactor ?? undefined }}
        onFinish={(values) => save.mutate(values)}
      >
        <Form.Item
          name="name"
          htmlFor="company-name"
          label={t('enterprise.name')}
          rules={[{ required: true, whitespace: true, message: t('enterprise.required') }, { max: COMPANY_LIMITS.nameMax }, plain]}
        >
          <Input id="company-name" />
        </Form.Item>
        <Form.Item
          name="contactName"
          htmlFor="company-contact"
          label={t('enterprise.contactName')}
          rules={[{ max: COMPANY_LIMITS.textMax }, plain]}
        >
          <Input id="company-contact" />
        </Form.Item>
        <Form.Item
          name="email"
          htmlFor="company-email"
          label={t('enterprise.email')}
          rules={[
            {
              validator: (_, v?: string) =>
                !v || isEmail(v) ? Promise.resolve() : Promise.reject(new Error(t('enterprise.invalidEmail'))),
            },
          ]}
        >
          <Input id="company-email" />
        </Form.Item>
        <Form.Item
          name="phone"
          htmlFor="company-phone"
          label={t('enterprise.phone')}
          rules={[
            {
              validator: (_, v?: string) =>
                !v || isPhone(v) ? Promise.resolve() : Promise.reject(new Error(t('enterprise.invalidPhone'))),
            },
          ]}
        >
          <Input id="company-phone" />
        </Form.Item>
        <Form.Item name="address" htmlFor="company-address" label={t('enterprise.address')} rules={[{ max: COMPANY_LIMITS.addressMax }]}>
          <Input id="company-address" />
        </Form.Item>
        {company.requireTwoFactor !== null && (
          <Form.Item name="requireTwoFactor" htmlFor="company-2fa" label={t('enterprise.requireTwoFactor')} valuePropName="checked">
            <Switch id="company-2fa" />
          </Form.Item>
        )}
        <Typography.Paragraph type="secondary">
          {t('enterprise.adminLine', {
            admin: company.admin ? `${company.admin.nickname} (${company.admin.account})` : '--',
            count: company.staffCount,
          })}
        </Typography.Paragraph>
        {canEdit && (
          <Button type="primary" htmlType="submit" loading={save.isPending} id="company-save">
            {t('enterprise.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}

function ImageSlot({
  label,
  url,
  guide,
  canEdit,
  testId,
  onChange,
}: {
  label: string;
  url: string | null;
  guide: { width: number; height: number };
  canEdit: boolean;
  testId: string;
  onChange: (url: string | null) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Space direction="vertical" size={4}>
      <Typography.Text strong>{label}</Typography.Text>
      <div className="sw-company-logo-slot" style={{ width: guide.width + 16, height: guide.height + 16 }}>
        {url ? (
          <img src={url} alt={label} style={{ maxWidth: guide.width, maxHeight: guide.height }} data-testid={`${testId}-preview`} />
        ) : (
          <Typography.Text type="secondary">{t('enterprise.noLogo')}</Typography.Text>
        )}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('enterprise.logoHint', { width: guide.width, height: guide.height })}
      </Typography.Text>
      {canEdit && (
        <Space>
          <Upload
            accept=".jpg,.jpeg,.gif,.png"
            showUploadList={false}
            beforeUpload={(file) => {
              if (!LOGO_TYPES.includes(file.type)) void message.error(t('enterprise.logoType'));
              else if (file.size > COMPANY_LIMITS.logoMaxBytes) void message.error(t('enterprise.logoTooBig'));
              else {
                setBusy(true);
                uploadCompanyImage(file)
                  .then(onChange, (error: unknown) => void message.error(refusalMessage(error) ?? t('enterprise.failed')))
                  .finally(() => setBusy(false));
              }
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={busy} data-testid={`${testId}-upload`}>
              {t('enterprise.upload')}
            </Button>
          </Upload>
          {url && (
            <Button icon={<DeleteOutlined />} onClick={() => onChange(null)}>
              {t('enterprise.remove')}
            </Button>
          )}
        </Space>
      )}
    </Space>
  );
}

function BrandingCard({ company, canEdit }: { company: CompanyInfo; canEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [color, setColor] = useState(company.themeColor);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: companyKeys.info });
    // The shell reads logo and colour from the current user: refetching it applies them at once.
    void queryClient.invalidateQueries({ queryKey: ['current-user'] });
  };
  const fail = (error: unknown) => void message.error(refusalMessage(error) ?? t('enterprise.failed'));
  const logo = useMutation({
    mutationFn: (next: { logoUrl: string | null; iconUrl: string | null }) => setCompanyLogo(company.id, next),
    onSuccess: () => {
      void message.success(t('enterprise.saved'));
      refresh();
    },
    onError: fail,
  });
  const theme = useMutation({
    mutationFn: (value: string) => setThemeColor(company.id, value),
    onSuccess: () => {
      void message.success(t('enterprise.saved'));
      refresh();
    },
    onError: fail,
  });
  return (
    <Card title={t('enterprise.branding')}>
      <Space size={48} wrap align="start">
        <ImageSlot
          label={t('enterprise.logo')}
          url={company.logoUrl}
          guide={COMPANY_LIMITS.logoGuide}
          canEdit={canEdit}
          testId="company-logo"
          onChange={(url) => logo.mutate({ logoUrl: url, iconUrl: company.iconUrl })}
        />
        <ImageSlot
          label={t('enterprise.icon')}
          url={company.iconUrl}
          guide={COMPANY_LIMITS.iconGuide}
          canEdit={canEdit}
          testId="company-icon"
          onChange={(url) => logo.mutate({ logoUrl: company.logoUrl, iconUrl: url })}
        />
        <Space direction="vertical" size={4}>
          <Typography.Text strong>{t('enterprise.themeColor')}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('enterprise.themeHint')}
          </Typography.Text>
          <Space>
            {/* The browser's own colour picker: antd's ColorPicker shares colour helpers with the sign-in
                form's button, and the bundler then put the picker on the sign-in page (over its budget). */}
            <input
              type="color"
              className="sw-theme-swatch"
              aria-label={t('enterprise.themeColor')}
              value={/^#[0-9A-Fa-f]{6}$/.test(color) ? color : '#E6002D'}
              disabled={!canEdit}
              onChange={(e) => setColor(e.target.value.toUpperCase())}
              data-testid="theme-color-picker"
            />
            <Input
              value={color}
              onChange={(e) => setColor(e.target.value)}
              style={{ width: 110 }}
              disabled={!canEdit}
              aria-label={t('enterprise.themeColor')}
              id="company-theme-input"
              status={THEME_COLOR.test(color) ? undefined : 'error'}
            />
          </Space>
          {canEdit && (
            <Space>
              <Button
                type="primary"
                id="company-theme-apply"
                disabled={!THEME_COLOR.test(color)}
                loading={theme.isPending}
                onClick={() => theme.mutate(color)}
              >
                {t('enterprise.applyTheme')}
              </Button>
              <Button
                onClick={() => {
                  setColor(DEFAULT_THEME_COLOR);
                  theme.mutate(DEFAULT_THEME_COLOR);
                }}
              >
                {t('enterprise.resetTheme')}
              </Button>
            </Space>
          )}
        </Space>
      </Space>
    </Card>
  );
}

function TransferCard({ company }: { company: CompanyInfo }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const members = useQuery({ queryKey: companyKeys.staff({ size: 100 }), queryFn: () => fetchStaff({ size: 100 }), enabled: open });
  if (company.admin?.id !== user?.id) return null;
  return (
    <Card title={t('enterprise.transfer')}>
      <Typography.Paragraph type="secondary">{t('enterprise.transferHint')}</Typography.Paragraph>
      <Button danger onClick={() => setOpen(true)} data-testid="admin-transfer">
        {t('enterprise.transfer')}
      </Button>
      <ConfirmPasswordModal<{ userId: number }>
        open={open}
        title={t('enterprise.transfer')}
        okText={t('enterprise.transfer')}
        danger
        onCancel={() => setOpen(false)}
        onConfirm={async (values) => {
          await transferAdmin(company.id, values.userId, values.password);
          void message.success(t('enterprise.transferred'));
          // The caller's own permissions changed: the shell reloads them.
          window.location.assign('/');
        }}
        testIds={{ modal: 'admin-transfer-modal' }}
      >
        <Form.Item name="userId" label={t('enterprise.transferTo')} rules={[{ required: true, message: t('enterprise.required') }]}>
          <Select
            showSearch
            optionFilterProp="label"
            options={members.data?.infos.filter((m) => !m.isAdmin).map((m) => ({ value: m.id, label: `${m.nickname} (${m.account})` }))}
          />
        </Form.Item>
      </ConfirmPasswordModal>
    </Card>
  );
}

function AgentsCard({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [account, setAccount] = useState('');
  // A refusal (900, 901, 202, 210) stays under the field until the account is changed: it says what to fix.
  const [refusal, setRefusal] = useState<string>();
  const agents = useQuery({ queryKey: companyKeys.agents, queryFn: fetchAgents });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: companyKeys.agents });
  // Every account gets the same answer (issue 15.4): the invitation waits for the account to accept.
  const add = useMutation({
    mutationFn: () => inviteAgent(account.trim()),
    onSuccess: () => {
      setAccount('');
      void message.success(t('invitations.sent'));
      refresh();
    },
    onError: (error) => setRefusal(refusalMessage(error) ?? t('enterprise.failed')),
  });
  const remove = useMutation({ mutationFn: removeAgent, onSuccess: refresh });
  const principals = agents.data?.principals ?? [];
  return (
    <Card title={t('enterprise.agents')} data-testid="agents-card">
      <Typography.Paragraph type="secondary">{t('enterprise.agentsHint')}</Typography.Paragraph>
      {/* Invitations to this company's administrator to become another company's agent. */}
      <div style={{ marginBottom: 12 }}>
        <ReceivedInvitations kinds={['agent']} />
      </div>
      {principals.length > 0 && (
        <Typography.Paragraph data-testid="company-principals">
          {t('enterprise.agentOf', { names: principals.map((p) => p.companyName).join(', ') })}
        </Typography.Paragraph>
      )}
      {canEdit && (
        <Space style={{ marginBottom: 12 }}>
          <Input
            placeholder={t('enterprise.agentAccount')}
            value={account}
            onChange={(e) => {
              setAccount(e.target.value);
              setRefusal(undefined);
            }}
            onPressEnter={() => account.trim() !== '' && add.mutate()}
            status={refusal ? 'error' : undefined}
            style={{ width: 260 }}
            id="agent-account"
          />
          <Button type="primary" disabled={account.trim() === ''} loading={add.isPending} onClick={() => add.mutate()} id="agent-add">
            {t('invitations.inviteAgent')}
          </Button>
        </Space>
      )}
      {refusal && (
        <Typography.Paragraph type="danger" data-testid="agent-refusal">
          {refusal}
        </Typography.Paragraph>
      )}
      <SentInvitations
        rows={agents.data?.invitations ?? []}
        canEdit={canEdit}
        withdraw={withdrawAgentInvitation}
        onChanged={refresh}
        testId="agent-invitations"
      />
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={agents.data?.agents ?? []}
        // antd's placeholder grey is too faint on white (WCAG AA): the text brings its own colour.
        locale={{ emptyText: <Typography.Text type="secondary">{t('enterprise.noAgents')}</Typography.Text> }}
        columns={[
          { key: 'account', title: t('enterprise.account'), render: (_, r) => `${r.nickname} (${r.account})` },
          { key: 'company', title: t('enterprise.agentCompany'), render: (_, r) => r.companyName ?? '--' },
          { key: 'since', title: t('enterprise.since'), render: (_, r) => new Date(r.createdAt).toLocaleDateString() },
          {
            key: 'actions',
            title: <ActionsTitle />,
            render: (_, r) =>
              canEdit && (
                <Button
                  size="small"
                  type="link"
                  danger
                  onClick={() =>
                    modal.confirm({
                      title: t('enterprise.removeAgentTitle', { account: r.account }),
                      okText: t('enterprise.remove'),
                      cancelText: t('enterprise.cancel'),
                      okButtonProps: { danger: true },
                      onOk: () => remove.mutateAsync(r.id),
                    })
                  }
                >
                  {t('enterprise.remove')}
                </Button>
              ),
          },
        ]}
      />
    </Card>
  );
}
