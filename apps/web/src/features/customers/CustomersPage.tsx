import { PlusOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { CUSTOMER_LIMITS, type CustomerRow } from '@sunward/contracts/customers';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, List, Modal, Select, Table, Tag, TreeSelect, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { AccountField, NewPasswordField } from '../../components/AccountFields';
import { FormDialog, TextField } from '../../components/FormDialog';
import { fetchCustomerInvitations, invitationKeys, withdrawCustomerInvitation } from '../../components/invitations/api';
import { SentInvitations } from '../../components/invitations/SentInvitations';
import { LinkActions, useRemoval } from '../../components/LinkActions';
import { ListPage, ListSearch, useListState } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { refusalCode } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import {
  addCustomer,
  checkCustomer,
  customerKeys,
  deleteCustomer,
  editCustomer,
  fetchCustomerPermissions,
  fetchCustomers,
  fetchPlantOptions,
  fetchTypeTree,
} from './api';
import { customerTexts } from './customer-texts';

registerTexts(customerTexts);

interface CustomerForm {
  account: string;
  password?: string;
  name: string;
  typeId?: number | null;
  remark?: string;
  plantIds: number[];
}

/** Type labels for a TreeSelect: primary labels with their secondary labels. */
function useTypeOptions() {
  const tree = useQuery({ queryKey: customerKeys.tree, queryFn: fetchTypeTree });
  return (tree.data ?? []).map((p) => ({ value: p.id, title: p.name, children: p.children.map((c) => ({ value: c.id, title: c.name })) }));
}

/** A company's customers (spec 01 §2 /customer/list): list with type and plants, add, edit, remove, permissions. */
export function CustomersPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const canEdit = has('customer.edit');
  const queryClient = useQueryClient();
  const list = useListState();
  const [dialog, setDialog] = useState<{ row?: CustomerRow } | null>(null);
  const [permissionsOf, setPermissionsOf] = useState<CustomerRow>();
  const types = useTypeOptions();
  const typeId = list.number('typeId');
  const query = { page: list.page, size: list.size, keyword: list.text('keyword'), typeId };
  const customers = useQuery({
    queryKey: customerKeys.page(query),
    queryFn: () => fetchCustomers(query),
    placeholderData: keepPreviousData,
  });
  const remove = useRemoval((row: CustomerRow) => deleteCustomer(row.companyId, row.masterId), customerKeys.all);
  // Existing accounts are invited (issue 15.4): they join the list once they accept.
  const invitations = useQuery({ queryKey: invitationKeys.customerSent, queryFn: fetchCustomerInvitations });
  return (
    <ListPage
      testId="customers-page"
      title={<PageTitle route={route} />}
      tools={
        <>
          <TreeSelect
            aria-label={t('customers.allTypes')}
            allowClear
            placeholder={t('customers.allTypes')}
            treeData={types}
            treeDefaultExpandAll
            style={{ width: 200 }}
            value={typeId}
            onChange={(v?: number) => list.update({ typeId: v === undefined ? undefined : String(v) })}
          />
          <ListSearch list={list} placeholder={t('customers.search')} width={220} />
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="customer-add">
              {t('customers.add')}
            </Button>
          )}
        </>
      }
    >
      <SentInvitations
        rows={invitations.data ?? []}
        canEdit={canEdit}
        withdraw={withdrawCustomerInvitation}
        onChanged={() => void queryClient.invalidateQueries({ queryKey: invitationKeys.customerSent })}
        testId="customer-invitations"
      />
      <Table<CustomerRow>
        rowKey="customerId"
        data-testid="customers-table"
        loading={customers.isFetching}
        dataSource={customers.data?.infos ?? []}
        locale={{ emptyText: t('customers.empty') }}
        pagination={list.pagination(customers.data?.total, (count) => t('customers.total', { count }))}
        columns={[
          { key: 'account', title: t('customers.account'), render: (_, r) => r.account },
          { key: 'name', title: t('customers.name'), render: (_, r) => r.name },
          { key: 'type', title: t('customers.type'), render: (_, r) => (r.typeName ? <Tag>{r.typeName}</Tag> : '--') },
          {
            key: 'plants',
            title: t('customers.plants'),
            render: (_, r) =>
              r.plants.length === 0 ? (
                <Typography.Text type="secondary">{t('customers.noPlants')}</Typography.Text>
              ) : (
                r.plants.map((p) => <Tag key={p.id}>{p.name}</Tag>)
              ),
          },
          { key: 'remark', title: t('customers.remark'), render: (_, r) => r.remark ?? '--' },
          { key: 'created', title: t('customers.created'), render: (_, r) => new Date(r.createdAt).toLocaleDateString() },
          {
            key: 'actions',
            title: t('customers.actions'),
            render: (_, r) => (
              <LinkActions
                actions={[
                  { key: 'permissions', label: t('customers.permissions'), onClick: () => setPermissionsOf(r) },
                  canEdit && { key: 'edit', label: t('customers.edit'), onClick: () => setDialog({ row: r }) },
                  canEdit && {
                    key: 'delete',
                    label: t('customers.delete'),
                    danger: true,
                    confirm: {
                      title: t('customers.deleteTitle', { name: r.name }),
                      content: t('customers.deleteText'),
                      okText: t('customers.delete'),
                    },
                    onClick: () => remove.mutateAsync(r),
                  },
                ]}
              />
            ),
          },
        ]}
      />
      {dialog && <CustomerModal row={dialog.row} onClose={() => setDialog(null)} />}
      {permissionsOf && <PermissionsModal row={permissionsOf} onClose={() => setPermissionsOf(undefined)} />}
    </ListPage>
  );
}

function PermissionsModal({ row, onClose }: { row: CustomerRow; onClose: () => void }) {
  const { t } = useTranslation();
  const permissions = useQuery({
    queryKey: customerKeys.permissions(row.customerId),
    queryFn: () => fetchCustomerPermissions(row.customerId),
  });
  return (
    <Modal open footer={null} onCancel={onClose} title={t('customers.permissionsTitle', { name: row.name })}>
      <List
        size="small"
        loading={permissions.isLoading}
        dataSource={permissions.data ?? []}
        renderItem={(p) => <List.Item>{p.name}</List.Item>}
      />
    </Modal>
  );
}

function CustomerModal({ row, onClose }: { row?: CustomerRow; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CustomerForm>();
  const [exists, setExists] = useState<boolean>();
  const types = useTypeOptions();
  const plants = useQuery({ queryKey: customerKeys.plants, queryFn: fetchPlantOptions });
  return (
    <FormDialog<CustomerForm, { invitationId: number | null } | null>
      form={form}
      width={560}
      title={row ? t('customers.editTitle', { name: row.name }) : t('customers.add')}
      okId="customer-submit"
      testId="customer-form"
      initialValues={row ? { ...row, remark: row.remark ?? undefined, plantIds: row.plants.map((p) => p.id) } : { plantIds: [] }}
      save={(values) => {
        const fields = { name: values.name, typeId: values.typeId ?? null, remark: values.remark, plantIds: values.plantIds ?? [] };
        return row
          ? editCustomer(row.customerId, row.companyId, fields)
          : addCustomer({ ...fields, account: values.account, password: values.password });
      }}
      savedText={(result) => (result?.invitationId ? t('invitations.sent') : t('customers.saved'))}
      invalidate={[customerKeys.all, invitationKeys.customerSent]}
      fieldOf={(error) => {
        const code = refusalCode(error);
        return code === Code.CUSTOMER_EXISTS || code === Code.INVITATION_PENDING || code === Code.ACCOUNT_EXISTS ? 'account' : undefined;
      }}
      onClose={onClose}
    >
      <AccountField
        id="customer-account"
        editing={row !== undefined}
        extra={
          row ? undefined : exists === true ? t('customers.existingAccount') : exists === false ? t('customers.newAccount') : undefined
        }
        check={(account) =>
          checkCustomer(account).then(
            (answer) => setExists(answer.exists),
            (error: unknown) => {
              setExists(undefined);
              throw error;
            },
          )
        }
      />
      {!row && exists !== true && <NewPasswordField id="customer-password" label={t('customers.password')} required={false} />}
      <TextField name="name" label={t('customers.name')} id="customer-name" required max={CUSTOMER_LIMITS.nameMax} />
      <Form.Item name="typeId" label={t('customers.type')}>
        <TreeSelect allowClear treeData={types} treeDefaultExpandAll id="customer-type" />
      </Form.Item>
      <Form.Item name="plantIds" label={t('customers.plants')}>
        <Select
          mode="multiple"
          id="customer-plants"
          optionFilterProp="label"
          options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
      </Form.Item>
      <Form.Item name="remark" label={t('customers.remark')} rules={[{ max: CUSTOMER_LIMITS.remarkMax }]}>
        <Input.TextArea id="customer-remark" rows={2} />
      </Form.Item>
    </FormDialog>
  );
}
