import { PlusOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { CUSTOMER_LIMITS, type CustomerRow } from '@sunward/contracts/customers';
import { isEmail, isPhone, isRegistrationPassword } from '@sunward/contracts/validators';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, List, Modal, Select, Space, Table, Tag, TreeSelect, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { fetchCustomerInvitations, invitationKeys, withdrawCustomerInvitation } from '../../components/invitations/api';
import { SentInvitations } from '../../components/invitations/SentInvitations';
import { PageTitle } from '../../components/PageTitle';
import { fieldErrors, refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { usePageSize } from '../../lib/personalized';
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
  const pageSize = usePageSize();
  const { message, modal } = App.useApp();
  const { has } = useSession();
  const canEdit = has('customer.edit');
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState<string>();
  const [typeId, setTypeId] = useState<number>();
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<{ row?: CustomerRow } | null>(null);
  const [permissionsOf, setPermissionsOf] = useState<CustomerRow>();
  const types = useTypeOptions();
  const query = { page, size: pageSize, keyword, typeId };
  const list = useQuery({ queryKey: customerKeys.page(query), queryFn: () => fetchCustomers(query), placeholderData: keepPreviousData });
  const remove = useMutation({
    mutationFn: (row: CustomerRow) => deleteCustomer(row.companyId, row.masterId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: customerKeys.all }),
    onError: (error) => void message.error(refusalMessage(error) ?? t('customers.failed')),
  });
  // Existing accounts are invited (issue 15.4): they join the list once they accept.
  const invitations = useQuery({ queryKey: invitationKeys.customerSent, queryFn: fetchCustomerInvitations });
  return (
    <Card className="sw-page-card" data-testid="customers-page">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <PageTitle route={route} />
        <Space wrap>
          <TreeSelect
            aria-label={t('customers.allTypes')}
            allowClear
            placeholder={t('customers.allTypes')}
            treeData={types}
            treeDefaultExpandAll
            style={{ width: 200 }}
            value={typeId}
            onChange={(v?: number) => {
              setTypeId(v);
              setPage(1);
            }}
          />
          <Input.Search
            allowClear
            placeholder={t('customers.search')}
            onSearch={(v) => {
              setKeyword(v || undefined);
              setPage(1);
            }}
            style={{ width: 220 }}
          />
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="customer-add">
              {t('customers.add')}
            </Button>
          )}
        </Space>
      </Space>
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
        loading={list.isFetching}
        dataSource={list.data?.infos ?? []}
        locale={{ emptyText: t('customers.empty') }}
        pagination={{
          current: page,
          pageSize: pageSize,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showTotal: (count) => t('customers.total', { count }),
        }}
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
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setPermissionsOf(r)}>
                  {t('customers.permissions')}
                </Button>
                {canEdit && (
                  <>
                    <Button type="link" size="small" onClick={() => setDialog({ row: r })}>
                      {t('customers.edit')}
                    </Button>
                    <Button
                      type="link"
                      size="small"
                      danger
                      onClick={() =>
                        modal.confirm({
                          title: t('customers.deleteTitle', { name: r.name }),
                          content: t('customers.deleteText'),
                          okText: t('customers.delete'),
                          cancelText: t('customers.cancel'),
                          okButtonProps: { danger: true },
                          onOk: () => remove.mutateAsync(r).catch(() => undefined),
                        })
                      }
                    >
                      {t('customers.delete')}
                    </Button>
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
      {dialog && <CustomerModal row={dialog.row} onClose={() => setDialog(null)} />}
      {permissionsOf && <PermissionsModal row={permissionsOf} onClose={() => setPermissionsOf(undefined)} />}
    </Card>
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
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CustomerForm>();
  const [exists, setExists] = useState<boolean>();
  const types = useTypeOptions();
  const plants = useQuery({ queryKey: customerKeys.plants, queryFn: fetchPlantOptions });
  const save = useMutation({
    mutationFn: (values: CustomerForm) => {
      const fields = { name: values.name, typeId: values.typeId ?? null, remark: values.remark, plantIds: values.plantIds ?? [] };
      return row
        ? editCustomer(row.customerId, row.companyId, fields)
        : addCustomer({ ...fields, account: values.account, password: values.password });
    },
    onSuccess: (result) => {
      void message.success(result?.invitationId ? t('invitations.sent') : t('customers.saved'));
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
      void queryClient.invalidateQueries({ queryKey: invitationKeys.customerSent });
      onClose();
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      const code = refusalCode(error);
      if (code === Code.CUSTOMER_EXISTS || code === Code.INVITATION_PENDING || code === Code.ACCOUNT_EXISTS)
        form.setFields([{ name: 'account', errors: [refusalMessage(error) ?? ''] }]);
      else if (Object.keys(fields).length > 0)
        form.setFields(Object.entries(fields).map(([name, text]) => ({ name: name as keyof CustomerForm, errors: [text] })));
      else void message.error(refusalMessage(error) ?? t('customers.failed'));
    },
  });
  return (
    <Modal
      open
      width={560}
      title={row ? t('customers.editTitle', { name: row.name }) : t('customers.add')}
      okText={t('customers.save')}
      cancelText={t('customers.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      okButtonProps={{ id: 'customer-submit' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="customer-form"
        initialValues={row ? { ...row, remark: row.remark ?? undefined, plantIds: row.plants.map((p) => p.id) } : { plantIds: [] }}
        onFinish={(values) => save.mutate(values)}
      >
        <Form.Item
          name="account"
          label={t('customers.account')}
          validateDebounce={400}
          extra={
            row ? undefined : exists === true ? t('customers.existingAccount') : exists === false ? t('customers.newAccount') : undefined
          }
          rules={[
            { required: true, message: t('customers.required') },
            {
              validator: async (_, v?: string) => {
                if (row || !v) return;
                if (!isEmail(v) && !isPhone(v)) throw new Error(t('customers.invalidAccount'));
                const answer = await checkCustomer(v).catch((error: unknown) => {
                  setExists(undefined);
                  throw new Error(refusalMessage(error) ?? t('customers.failed'));
                });
                setExists(answer.exists);
              },
            },
          ]}
        >
          <Input id="customer-account" disabled={row !== undefined} autoComplete="off" />
        </Form.Item>
        {!row && exists !== true && (
          <Form.Item
            name="password"
            label={t('customers.password')}
            extra={t('customers.passwordRule')}
            rules={[
              {
                validator: (_, v?: string) =>
                  !v || isRegistrationPassword(v) ? Promise.resolve() : Promise.reject(new Error(t('customers.passwordRule'))),
              },
            ]}
          >
            <Input.Password id="customer-password" autoComplete="new-password" />
          </Form.Item>
        )}
        <Form.Item
          name="name"
          label={t('customers.name')}
          rules={[{ required: true, whitespace: true, message: t('customers.required') }, { max: CUSTOMER_LIMITS.nameMax }]}
        >
          <Input id="customer-name" />
        </Form.Item>
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
      </Form>
    </Modal>
  );
}
