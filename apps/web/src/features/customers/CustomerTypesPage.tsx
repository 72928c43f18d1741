import { PlusOutlined } from '@ant-design/icons';
import { CUSTOMER_LIMITS, type CustomerType } from '@sunward/contracts/customers';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { PageTitle } from '../../components/PageTitle';
import { fieldErrors, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { createType, customerKeys, deleteType, fetchTypeTree, updateType } from './api';
import { customerTexts } from './customer-texts';

registerTexts(customerTexts);

type Row = CustomerType & { children?: CustomerType[] };

/** Customer types (spec 01 §2 /customer/type): primary labels with secondary labels under them. */
export function CustomerTypesPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { has } = useSession();
  const canEdit = has('customer.type.edit');
  const queryClient = useQueryClient();
  const tree = useQuery({ queryKey: customerKeys.tree, queryFn: fetchTypeTree });
  const [dialog, setDialog] = useState<{ type?: CustomerType; parentId?: number | null } | null>(null);
  const remove = useMutation({
    mutationFn: deleteType,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: customerKeys.all }),
    onError: (error) => void message.error(refusalMessage(error) ?? t('customers.failed')),
  });
  const rows: Row[] = (tree.data ?? []).map((p) => ({ ...p, children: p.children.length > 0 ? p.children : undefined }));
  // Primary labels are open unless the user closed them, so a secondary label just added shows at once.
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const expandedRowKeys = rows.filter((r) => r.children && !collapsed.has(r.id)).map((r) => r.id);
  return (
    <Card className="sw-page-card" data-testid="customer-types-page">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <PageTitle route={route} />
        {canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ parentId: null })} data-testid="type-add">
            {t('customers.addPrimary')}
          </Button>
        )}
      </Space>
      <Table<Row>
        rowKey="id"
        data-testid="types-table"
        loading={tree.isFetching}
        pagination={false}
        expandable={{
          expandedRowKeys,
          onExpand: (open, row) =>
            setCollapsed((current) => {
              const next = new Set(current);
              if (open) next.delete(row.id);
              else next.add(row.id);
              return next;
            }),
        }}
        dataSource={rows}
        locale={{ emptyText: t('customers.emptyTypes') }}
        columns={[
          { key: 'name', title: t('customers.typeName'), render: (_, r) => r.name },
          { key: 'remark', title: t('customers.remark'), render: (_, r) => r.remark ?? '--' },
          { key: 'count', title: t('customers.customerCount'), render: (_, r) => r.customerCount },
          {
            key: 'actions',
            title: t('customers.actions'),
            render: (_, r) =>
              canEdit && (
                <Space size={0}>
                  {r.parentId === null && (
                    <Button type="link" size="small" onClick={() => setDialog({ parentId: r.id })}>
                      {t('customers.addSecondary')}
                    </Button>
                  )}
                  <Button type="link" size="small" onClick={() => setDialog({ type: r, parentId: r.parentId })}>
                    {t('customers.edit')}
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() =>
                      modal.confirm({
                        title: t('customers.deleteTypeTitle', { name: r.name }),
                        okText: t('customers.delete'),
                        cancelText: t('customers.cancel'),
                        okButtonProps: { danger: true },
                        onOk: () => remove.mutateAsync(r.id).catch(() => undefined),
                      })
                    }
                  >
                    {t('customers.delete')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {dialog && (
        <TypeModal
          type={dialog.type}
          parentId={dialog.parentId ?? null}
          primaries={(tree.data ?? []).filter((p) => p.id !== dialog.type?.id)}
          isParent={(tree.data ?? []).some((p) => p.id === dialog.type?.id && p.children.length > 0)}
          onClose={() => setDialog(null)}
        />
      )}
    </Card>
  );
}

function TypeModal({
  type,
  parentId,
  primaries,
  isParent,
  onClose,
}: {
  type?: CustomerType;
  parentId: number | null;
  primaries: CustomerType[];
  isParent: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ name: string; remark?: string; parentId: number | null }>();
  const save = useMutation({
    mutationFn: (values: { name: string; remark?: string; parentId: number | null }) =>
      type ? updateType(type.id, values) : createType(values).then(() => null),
    onSuccess: () => {
      void message.success(t('customers.saved'));
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
      onClose();
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      form.setFields([
        {
          name: fields.parentId ? 'parentId' : 'name',
          errors: [fields.parentId ?? fields.name ?? refusalMessage(error) ?? t('customers.failed')],
        },
      ]);
    },
  });
  return (
    <Modal
      open
      title={
        type ? t('customers.editTitle', { name: type.name }) : parentId === null ? t('customers.addPrimary') : t('customers.addSecondary')
      }
      okText={t('customers.save')}
      cancelText={t('customers.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      okButtonProps={{ id: 'type-submit' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ name: type?.name, remark: type?.remark ?? undefined, parentId }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item
          name="name"
          label={t('customers.typeName')}
          rules={[{ required: true, whitespace: true, message: t('customers.required') }, { max: CUSTOMER_LIMITS.typeNameMax }]}
        >
          <Input id="type-name" />
        </Form.Item>
        <Form.Item name="parentId" label={t('customers.parent')}>
          <Select
            id="type-parent"
            disabled={isParent}
            options={[{ value: null, label: t('customers.parentNone') }, ...primaries.map((p) => ({ value: p.id, label: p.name }))]}
          />
        </Form.Item>
        <Form.Item name="remark" label={t('customers.remark')} rules={[{ max: CUSTOMER_LIMITS.remarkMax }]}>
          <Input id="type-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
