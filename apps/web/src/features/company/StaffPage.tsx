import { PlusOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import type { StaffRow } from '@sunward/contracts/company';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { AccountField, ContactFields, NewPasswordField } from '../../components/AccountFields';
import { FormDialog } from '../../components/FormDialog';
import { LinkActions, useRemoval } from '../../components/LinkActions';
import { ListPage, ListSearch, useListState } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { addStaff, checkStaffAccount, companyKeys, deleteStaff, editStaff, fetchRoles, fetchStaff, refusalCode } from './api';
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
  const { has, user } = useSession();
  const canEdit = has('company.user.edit');
  const list = useListState();
  const [dialog, setDialog] = useState<{ row?: StaffRow } | null>(null);
  const query = { page: list.page, size: list.size, keyword: list.text('keyword') };
  const staff = useQuery({ queryKey: companyKeys.staff(query), queryFn: () => fetchStaff(query), placeholderData: keepPreviousData });
  const remove = useRemoval(deleteStaff, companyKeys.all);

  return (
    <ListPage
      testId="staff-page"
      title={<PageTitle route={route} />}
      tools={
        <>
          <ListSearch list={list} placeholder={t('enterprise.search')} />
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="staff-add">
              {t('enterprise.addMember')}
            </Button>
          )}
        </>
      }
    >
      <Table<StaffRow>
        rowKey="id"
        data-testid="staff-table"
        loading={staff.isFetching}
        dataSource={staff.data?.infos ?? []}
        pagination={list.pagination(staff.data?.total, (count) => t('enterprise.total', { count }))}
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
                <LinkActions
                  actions={[
                    { key: 'edit', label: t('enterprise.edit'), onClick: () => setDialog({ row: r }) },
                    !r.isAdmin &&
                      r.id !== user?.id && {
                        key: 'delete',
                        label: t('enterprise.deleteMember'),
                        danger: true,
                        confirm: {
                          title: t('enterprise.deleteMemberTitle', { name: r.nickname }),
                          content: t('enterprise.deleteMemberText'),
                        },
                        onClick: () => remove.mutateAsync(r.id),
                      },
                  ]}
                />
              ),
          },
        ]}
      />
      {dialog && <MemberModal row={dialog.row} onClose={() => setDialog(null)} />}
    </ListPage>
  );
}

function MemberModal({ row, onClose }: { row?: StaffRow; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<MemberForm>();
  const roles = useQuery({ queryKey: companyKeys.roles, queryFn: fetchRoles });
  const choices = (roles.data ?? []).filter((r) => r.key !== 'company_admin' || row?.isAdmin);
  return (
    <FormDialog<MemberForm>
      form={form}
      title={row ? t('enterprise.editMember', { name: row.nickname }) : t('enterprise.addMember')}
      okId="staff-submit"
      testId="staff-form"
      initialValues={row ? { ...row, email: row.email ?? undefined, phone: row.phone ?? undefined } : undefined}
      save={(values) =>
        row
          ? editStaff(row.id, { nickname: values.nickname, email: values.email, phone: values.phone, roleId: values.roleId })
          : addStaff(values)
      }
      invalidate={[companyKeys.all]}
      fieldOf={(error) => {
        const code = refusalCode(error);
        return code === Code.ACCOUNT_EXISTS || code === Code.ACCOUNT_HAS_COMPANY ? 'account' : 'roleId';
      }}
      onClose={onClose}
    >
      <AccountField id="staff-account" editing={row !== undefined} check={checkStaffAccount} />
      {!row && <NewPasswordField id="staff-password" label={t('enterprise.initialPassword')} required />}
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
      <ContactFields idPrefix="staff" />
    </FormDialog>
  );
}
