import { PlusOutlined } from '@ant-design/icons';
import {
  BATTERY_LIMITS,
  type BatteryProductFields,
  type BatteryProductRow,
  type BatteryTypeNode,
  type BatteryTypeRef,
} from '@sunward/contracts/battery-firmware';
import { Code } from '@sunward/contracts/codes';
import { isPlainText } from '@sunward/contracts/validators';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Modal, Select, Space, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionsTitle } from '../../../components/VisuallyHidden';
import { ApiCallError } from '../../../lib/api-client';
import { fieldErrors, refusalMessage } from '../api';
import { PagedTable, RowActions } from '../firmware-table';
import { useFirmwareRules } from '../form-rules';
import {
  type BatteryQuery,
  batteryKeys,
  checkBatteryProductName,
  createBatteryProduct,
  deleteBatteryProduct,
  fetchBatteryProducts,
  updateBatteryProduct,
} from './battery-api';

const PAGE_SIZE = 10;

/** "Primary / Secondary", how a secondary type reads everywhere on the page. */
export const typePath = (type: BatteryTypeRef) => `${type.parentName} / ${type.name}`;

/** The secondary types as select options grouped by their primary type. */
export function secondaryTypeOptions(tree: readonly BatteryTypeNode[]) {
  return tree
    .filter((p) => p.children.length > 0)
    .map((p) => ({ label: p.name, title: p.name, options: p.children.map((c) => ({ value: c.id, label: c.name })) }));
}

/** What both battery cards take: the type tree, whether the user may edit, the type picked in the tree. */
export interface BatteryCardProps {
  tree: BatteryTypeNode[];
  canEdit: boolean;
  batteryTypeId: number | undefined;
}

/** A card's page, back to the first when another type is picked in the tree (`onTypeChange` runs then too). */
export function useTypePage(batteryTypeId: number | undefined, onTypeChange?: () => void) {
  const [page, setPage] = useState(1);
  const [lastType, setLastType] = useState(batteryTypeId);
  if (lastType !== batteryTypeId) {
    setLastType(batteryTypeId);
    onTypeChange?.();
    setPage(1);
  }
  return [page, setPage] as const;
}

type Dialog = { kind: 'add' } | { kind: 'edit'; row: BatteryProductRow } | null;

/** Battery products (name, manufacturer, model, secondary type, remark): list with search, add, edit, delete. */
export function BatteryProductsCard({ tree, canEdit, batteryTypeId }: BatteryCardProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState<string>();
  const [page, setPage] = useTypePage(batteryTypeId);
  const [dialog, setDialog] = useState<Dialog>(null);

  const query: BatteryQuery = { page, size: PAGE_SIZE, keyword, batteryTypeId };
  const list = useQuery({
    queryKey: batteryKeys.products(query),
    queryFn: () => fetchBatteryProducts(query),
    placeholderData: keepPreviousData,
  });
  const hasSecondary = tree.some((p) => p.children.length > 0);

  const remove = useMutation({
    mutationFn: (row: BatteryProductRow) => deleteBatteryProduct(row.id),
    onSuccess: () => {
      void message.success(t('firmware.deleted'));
      void queryClient.invalidateQueries({ queryKey: batteryKeys.all });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('firmware.requestFailed')),
  });
  const confirmDelete = (row: BatteryProductRow) =>
    void modal.confirm({
      title: t('batteryFirmware.deleteProductTitle', { name: row.name }),
      content: t('batteryFirmware.deleteProductWarning'),
      okText: t('firmware.delete'),
      cancelText: t('firmware.cancel'),
      okButtonProps: { danger: true, id: 'confirm-delete-product' },
      onOk: () => remove.mutateAsync(row).catch(() => undefined),
    });

  const columns: ColumnsType<BatteryProductRow> = [
    {
      key: 'name',
      title: t('batteryFirmware.colProduct'),
      render: (_, row) => (
        <Typography.Text strong data-testid="battery-product-name">
          {row.name}
        </Typography.Text>
      ),
    },
    { key: 'manufacturer', title: t('firmware.colManufacturer'), render: (_, row) => row.manufacturer },
    { key: 'model', title: t('batteryFirmware.colModel'), render: (_, row) => row.model },
    { key: 'type', title: t('batteryFirmware.colType'), render: (_, row) => typePath(row.batteryType) },
    { key: 'firmware', title: t('batteryFirmware.colFirmwareCount'), align: 'right', width: 90, render: (_, row) => row.firmware },
    { key: 'remark', title: t('batteryFirmware.colRemark'), ellipsis: true, render: (_, row) => row.remark ?? '--' },
    {
      key: 'actions',
      title: <ActionsTitle />,
      fixed: 'right',
      width: 90,
      render: (_, row) => (
        <RowActions
          canEdit={canEdit}
          onEdit={() => setDialog({ kind: 'edit', row })}
          onDelete={() => confirmDelete(row)}
          testPrefix="battery-product"
        />
      ),
    },
  ];

  const filtered = Boolean(keyword || batteryTypeId);
  const emptyTexts = [
    t('batteryFirmware.emptyFiltered'),
    t('batteryFirmware.productsEmptyTitle'),
    hasSecondary ? t('batteryFirmware.productsEmptyHint') : t('batteryFirmware.productsNeedType'),
  ] as const;
  return (
    <Card
      size="small"
      title={t('batteryFirmware.productsTitle')}
      extra={
        <Space>
          <Input.Search
            allowClear
            size="small"
            placeholder={t('batteryFirmware.productSearch')}
            onSearch={(value) => {
              setKeyword(value.trim() || undefined);
              setPage(1);
            }}
            style={{ width: 220 }}
          />
          {canEdit && (
            <Button
              size="small"
              type="primary"
              icon={<PlusOutlined />}
              disabled={!hasSecondary}
              onClick={() => setDialog({ kind: 'add' })}
              data-testid="battery-product-add"
            >
              {t('batteryFirmware.addProduct')}
            </Button>
          )}
        </Space>
      }
    >
      <PagedTable<BatteryProductRow>
        size="small"
        columns={columns}
        query={list}
        scroll={{ x: 800 }}
        paging={{ page, size: PAGE_SIZE, onPage: setPage, hideOnSinglePage: true }}
        empty={{ filtered, testId: 'battery-products-empty', texts: emptyTexts }}
        data-testid="battery-products-table"
      />
      {dialog?.kind === 'add' && <ProductFormModal tree={tree} batteryTypeId={batteryTypeId} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'edit' && <ProductFormModal tree={tree} row={dialog.row} onClose={() => setDialog(null)} />}
    </Card>
  );
}

type ProductValues = { name: string; manufacturer: string; model: string; batteryTypeId?: number; remark?: string };

/** Adds or edits a product; the name is checked live, the type is a secondary type picked by its primary. */
function ProductFormModal({
  tree,
  row,
  batteryTypeId,
  onClose,
}: {
  tree: BatteryTypeNode[];
  row?: BatteryProductRow;
  batteryTypeId?: number;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ProductValues>();
  const [refusal, setRefusal] = useState<string>();
  const secondaryIds = new Set(tree.flatMap((p) => p.children.map((c) => c.id)));

  const { required, selectRequired, max } = useFirmwareRules();
  const taken: Rule = () => ({
    async validator(_, value?: string) {
      const name = value?.trim();
      if (!name || !isPlainText(name)) return;
      try {
        await checkBatteryProductName({ name, id: row?.id });
      } catch (error) {
        if (error instanceof ApiCallError && error.code === Code.BATTERY_PRODUCT_NAME_EXISTS)
          throw new Error(t('batteryFirmware.productNameTaken'));
      }
    },
  });

  const save = useMutation({
    mutationFn: async (values: ProductValues) => {
      const fields: BatteryProductFields = {
        name: values.name.trim(),
        manufacturer: values.manufacturer.trim(),
        model: values.model.trim(),
        batteryTypeId: values.batteryTypeId ?? 0,
        remark: values.remark?.trim() || undefined,
      };
      if (row) await updateBatteryProduct(row.id, fields);
      else await createBatteryProduct(fields);
    },
    onSuccess: () => {
      void message.success(t('firmware.saved'));
      void queryClient.invalidateQueries({ queryKey: batteryKeys.all });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiCallError && error.code === Code.BATTERY_PRODUCT_NAME_EXISTS) {
        form.setFields([{ name: 'name', errors: [t('batteryFirmware.productNameTaken')] }]);
        return;
      }
      const byField = Object.entries(fieldErrors(error)).filter(([field]) =>
        ['name', 'manufacturer', 'model', 'batteryTypeId', 'remark'].includes(field),
      );
      if (byField.length > 0) form.setFields(byField.map(([field, text]) => ({ name: field as keyof ProductValues, errors: [text] })));
      else setRefusal(refusalMessage(error) ?? t('firmware.requestFailed'));
    },
  });

  const submit = async () => {
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    setRefusal(undefined);
    save.mutate(values);
  };

  const initial: Partial<ProductValues> = row
    ? {
        name: row.name,
        manufacturer: row.manufacturer,
        model: row.model,
        batteryTypeId: row.batteryType.id,
        remark: row.remark ?? undefined,
      }
    : { batteryTypeId: batteryTypeId !== undefined && secondaryIds.has(batteryTypeId) ? batteryTypeId : undefined };

  return (
    <Modal
      open
      title={row ? t('batteryFirmware.editProductTitle', { name: row.name }) : t('batteryFirmware.addProductTitle')}
      okText={t('firmware.save')}
      cancelText={t('firmware.cancel')}
      okButtonProps={{ loading: save.isPending, id: 'battery-product-submit' }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      data-testid="battery-product-form"
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" initialValues={initial} validateTrigger="onChange">
        <Form.Item
          name="name"
          label={t('batteryFirmware.fieldProductName')}
          hasFeedback
          rules={[
            required,
            max(BATTERY_LIMITS.productNameMax),
            {
              validator: async (_, value?: string) =>
                value && !isPlainText(value) ? Promise.reject(new Error(t('batteryFirmware.noSpecial'))) : undefined,
            },
            taken,
          ]}
        >
          <Input id="battery-product-name" autoComplete="off" />
        </Form.Item>
        <Form.Item name="batteryTypeId" label={t('batteryFirmware.fieldType')} rules={[selectRequired]}>
          <Select id="battery-product-type" placeholder={t('batteryFirmware.typePlaceholder')} options={secondaryTypeOptions(tree)} />
        </Form.Item>
        <div className="sw-firmware-form-grid">
          <Form.Item name="manufacturer" label={t('firmware.fieldManufacturer')} rules={[required, max(BATTERY_LIMITS.productTextMax)]}>
            <Input id="battery-product-manufacturer" />
          </Form.Item>
          <Form.Item name="model" label={t('batteryFirmware.fieldModel')} rules={[required, max(BATTERY_LIMITS.productTextMax)]}>
            <Input id="battery-product-model" />
          </Form.Item>
        </div>
        <Form.Item name="remark" label={t('batteryFirmware.fieldRemark')} rules={[max(BATTERY_LIMITS.remarkMax)]}>
          <Input.TextArea id="battery-product-remark" rows={2} showCount maxLength={BATTERY_LIMITS.remarkMax} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
