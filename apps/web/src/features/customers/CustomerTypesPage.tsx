import { PlusOutlined } from '@ant-design/icons';
import { CUSTOMER_LIMITS, type CustomerType } from '@sunward/contracts/customers';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Select, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { FormDialog, TextField } from '../../components/FormDialog';
import { LinkActions, useRemoval } from '../../components/LinkActions';
import { ListPage } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { createType, customerKeys, deleteType, fetchTypeTree, updateType } from './api';
import { customerTexts } from './customer-texts';

registerTexts(customerTexts);

type Row = CustomerType & { children?: CustomerType[] };

/** Customer types (spec 01 §2 /customer/type): primary labels with secondary labels under them. */
export function CustomerTypesPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const canEdit = has('customer.type.edit');
  const tree = useQuery({ queryKey: customerKeys.tree, queryFn: fetchTypeTree });
  const [dialog, setDialog] = useState<{ type?: CustomerType; parentId?: number | null } | null>(null);
  const remove = useRemoval(deleteType, customerKeys.all);
  const rows: Row[] = (tree.data ?? []).map((p) => ({ ...p, children: p.children.length > 0 ? p.children : undefined }));
  // Primary labels are open unless the user closed them, so a secondary label just added shows at once.
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const expandedRowKeys = rows.filter((r) => r.children && !collapsed.has(r.id)).map((r) => r.id);
  return (
    <ListPage
      testId="customer-types-page"
      title={<PageTitle route={route} />}
      tools={
        canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ parentId: null })} data-testid="type-add">
            {t('customers.addPrimary')}
          </Button>
        )
      }
    >
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
                <LinkActions
                  actions={[
                    r.parentId === null && {
                      key: 'secondary',
                      label: t('customers.addSecondary'),
                      onClick: () => setDialog({ parentId: r.id }),
                    },
                    { key: 'edit', label: t('customers.edit'), onClick: () => setDialog({ type: r, parentId: r.parentId }) },
                    {
                      key: 'delete',
                      label: t('customers.delete'),
                      danger: true,
                      confirm: { title: t('customers.deleteTypeTitle', { name: r.name }), okText: t('customers.delete') },
                      onClick: () => remove.mutateAsync(r.id),
                    },
                  ]}
                />
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
    </ListPage>
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
  const [form] = Form.useForm<{ name: string; remark?: string; parentId: number | null }>();
  return (
    <FormDialog<{ name: string; remark?: string; parentId: number | null }>
      form={form}
      title={
        type ? t('customers.editTitle', { name: type.name }) : parentId === null ? t('customers.addPrimary') : t('customers.addSecondary')
      }
      okId="type-submit"
      initialValues={{ name: type?.name, remark: type?.remark ?? undefined, parentId }}
      save={(values) => (type ? updateType(type.id, values) : createType(values).then(() => null))}
      savedText={() => t('customers.saved')}
      invalidate={[customerKeys.all]}
      fieldOf={() => 'name'}
      onClose={onClose}
    >
      <TextField name="name" label={t('customers.typeName')} id="type-name" required max={CUSTOMER_LIMITS.typeNameMax} />
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
    </FormDialog>
  );
}
