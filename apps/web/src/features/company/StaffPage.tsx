import { PlusOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import type { StaffRow } from '@sunward/contracts/company';
import { isEmail, isPhone, isRegistrationPassword } from '@sunward/contracts/validators';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { usePageSize } from '../../lib/personalized';
import {
  addStaff,
  checkStaffAccount,
  companyKeys,
  deleteStaff,
  editStaff,
  fetchRoles,
  fetchStaff,
  fieldErrors,
  refusalCode,
  refusalMessage,
} from './api';
import { companyTexts } from './company-texts';

registerTexts(companyTexts);

interface MemberForm {
  account: string;
  password: string;
  nickname: string;
  email?: string;
  phone?: string;
  roleId: number;
}

/** Company members (spec 01 §2 /enterprise/user): list, add with one role, edit, delete. */
export function StaffPage({ route }: PageProps) {
  const { t } = useTranslation();
  const pageSize = usePageSize();
  const { message, modal } = App.useApp();
  const { has, user } = useSession();
  const canEdit = has('company.user.edit');
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState<string>();
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<{ row?: StaffRow } | null>(null);
  const query = { page, size: pageSize, keyword };
  const list = useQuery({ queryKey: companyKeys.staff(query), queryFn: () => fetchStaff(query), placeholderData: keepPreviousData });
  const remove = useMutation({
    mutationFn: deleteStaff,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: companyKeys.all }),
    onError: (error) => void message.error(refusalMessage(error) ?? t('enterprise.failed')),
  });

  return (
    <Card className="sw-page-card" data-testid="staff-page">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <PageTitle route={route} />
        <Space>
          <Input.Search
            allowClear
            placeholder={t('enterprise.search')}
            onSearch={(v) => {
              setKeyword(v || undefined);
              setPage(1);
            }}
            style={{ width: 240 }}
          />
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="staff-add">
              {t('enterprise.addMember')}
            </Button>
          )}
        </Space>
      </Space>
      <Table<StaffRow>
        rowKey="id"
        data-testid="staff-table"
        loading={list.isFetching}
        dataSource={list.data?.infos ?? []}
        pagination={{
          current: page,
          pageSize: pageSize,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showTotal: (count) => t('enterprise.total', { count }),
        }}
        columns={[
          { key: 'account', title: t('enterprise.account'), render: (_, r) => r.account },
          {
            key: 'nickname',
            title: t('enterprise.nickname'),
            render: (_, r) => (
              <Space size={4}>
                {r.nickname}
                {r.id === user?.id && <Tag>{t('enterprise.you')}</Tag>}
              </Space>
            ),
          },
          { key: 'role', title: t('enterprise.role'), render: (_, r) => <Tag color={r.isAdmin ? 'gold' : undefined}>{r.roleName}</Tag> },
          { key: 'email', title: t('enterprise.email'), render: (_, r) => r.email ?? '--' },
          { key: 'phone', title: t('enterprise.phone'), render: (_, r) => r.phone ?? '--' },
          { key: 'created', title: t('enterprise.created'), render: (_, r) => new Date(r.createdAt).toLocaleDateString() },
          {
            key: 'actions',
            title: t('enterprise.actions'),
            render: (_, r) =>
              canEdit && (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => setDialog({ row: r })}>
                    {t('enterprise.edit')}
                  </Button>
                  {!r.isAdmin && r.id !== user?.id && (
                    <Button
                      type="link"
                      size="small"
                      danger
                      onClick={() =>
                        modal.confirm({
                          title: t('enterprise.deleteMemberTitle', { name: r.nickname }),
                          content: t('enterprise.deleteMemberText'),
                          okText: t('enterprise.deleteMember'),
                          cancelText: t('enterprise.cancel'),
                          okButtonProps: { danger: true },
                          onOk: () => remove.mutateAsync(r.id).catch(() => undefined),
                        })
                      }
                    >
                      {t('enterprise.deleteMember')}
                    </Button>
                  )}
                </Space>
              ),
          },
        ]}
      />
      {dialog && <MemberModal row={dialog.row} onClose={() => setDialog(null)} />}
    </Card>
  );
}

function MemberModal({ row, onClose }: { row?: StaffRow; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<MemberForm>();
  const roles = useQuery({ queryKey: companyKeys.roles, queryFn: fetchRoles });
  const choices = (roles.data ?? []).filter((r) => r.key !== 'company_admin' || row?.isAdmin);
  const save = useMutation({
    mutationFn: (values: MemberForm) =>
      row
        ? editStaff(row.id, { nickname: values.nickname, email: values.email, phone: values.phone, roleId: values.roleId })
        : addStaff(values),
    onSuccess: () => {
      void message.success(t('enterprise.saved'));
      void queryClient.invalidateQueries({ queryKey: companyKeys.all });
      onClose();
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      const code = refusalCode(error);
      if (code === Code.ACCOUNT_EXISTS || code === Code.ACCOUNT_HAS_COMPANY)
        form.setFields([{ name: 'account', errors: [refusalMessage(error) ?? ''] }]);
      else if (Object.keys(fields).length > 0)
        form.setFields(Object.entries(fields).map(([name, text]) => ({ name: name as keyof MemberForm, errors: [text] })));
      else form.setFields([{ name: 'roleId', errors: [refusalMessage(error) ?? t('enterprise.failed')] }]);
    },
  });
  return (
    <Modal
      open
      title={row ? t('enterprise.editMember', { name: row.nickname }) : t('enterprise.addMember')}
      okText={t('enterprise.save')}
      cancelText={t('enterprise.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      okButtonProps={{ id: 'staff-submit' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="staff-form"
        initialValues={row ? { ...row, email: row.email ?? undefined, phone: row.phone ?? undefined } : undefined}
        onFinish={(values) => save.mutate(values)}
      >
        <Form.Item
          name="account"
          label={t('enterprise.account')}
          validateDebounce={400}
          rules={[
            { required: true, message: t('enterprise.required') },
            {
              validator: async (_, v?: string) => {
                if (row || !v) return;
                if (!isEmail(v) && !isPhone(v)) throw new Error(t('enterprise.invalidAccount'));
                await checkStaffAccount(v).catch((error: unknown) => {
                  throw new Error(refusalMessage(error) ?? t('enterprise.failed'));
                });
              },
            },
          ]}
        >
          <Input id="staff-account" disabled={row !== undefined} autoComplete="off" />
        </Form.Item>
        {!row && (
          <Form.Item
            name="password"
            label={t('enterprise.initialPassword')}
            extra={t('enterprise.passwordRule')}
            rules={[
              { required: true, message: t('enterprise.required') },
              {
                validator: (_, v?: string) =>
                  !v || isRegistrationPassword(v) ? Promise.resolve() : Promise.reject(new Error(t('enterprise.passwordRule'))),
              },
            ]}
          >
            <Input.Password id="staff-password" autoComplete="new-password" />
          </Form.Item>
        )}
        <Form.Item
          name="nickname"
          label={t('enterprise.nickname')}
          rules={[{ required: true, whitespace: true, message: t('enterprise.required') }, { max: 32 }]}
        >
          <Input id="staff-nickname" />
        </Form.Item>
        <Form.Item name="roleId" label={t('enterprise.role')} rules={[{ required: true, message: t('enterprise.required') }]}>
          <Select id="staff-role" disabled={row?.isAdmin} options={choices.map((r) => ({ value: r.id, label: r.name }))} />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('enterprise.email')}
          rules={[
            {
              validator: (_, v?: string) =>
                !v || isEmail(v) ? Promise.resolve() : Promise.reject(new Error(t('enterprise.invalidEmail'))),
            },
          ]}
        >
          <Input id="staff-email" />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('enterprise.phone')}
          rules={[
            {
              validator: (_, v?: string) =>
                !v || isPhone(v) ? Promise.resolve() : Promise.reject(new Error(t('enterprise.invalidPhone'))),
            },
          ]}
        >
          <Input id="staff-phone" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
