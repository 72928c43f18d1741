import { DeleteOutlined, EditOutlined, PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { BATTERY_LIMITS, type BatteryTypeNode } from '@sunward/contracts/battery-firmware';
import { Code } from '@sunward/contracts/codes';
import { isPlainText } from '@sunward/contracts/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Form, Input, Modal, Select, Space, Spin, Tooltip, Tree, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../../lib/api-client';
import { fieldErrors, refusalMessage } from '../api';
import { addBatteryType, batteryKeys, checkBatteryTypeName, deleteBatteryType, moveBatteryType, renameBatteryType } from './battery-api';

/** A type as the tree shows it: a primary (parentId null) or a secondary with its usage. */
interface TypeItem {
  id: number;
  name: string;
  parentId: number | null;
  childCount: number;
  usage?: { products: number; firmware: number };
}

type Dialog = { kind: 'add'; parent?: TypeItem } | { kind: 'rename'; type: TypeItem } | { kind: 'move'; type: TypeItem } | null;

/**
 * The battery type tree: primary types with their secondary types. Add a primary or a secondary type,
 * rename, move a type under another primary (a picker of primaries), delete after a confirmation.
 * Picking a type filters the firmware and product lists.
 */
export function BatteryTypeTree({
  tree,
  loading,
  canEdit,
  selected,
  onSelect,
}: {
  tree: BatteryTypeNode[];
  loading: boolean;
  canEdit: boolean;
  selected: number | undefined;
  onSelect(id: number | undefined): void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  // Primaries are open unless the user closed them, so a new primary or a new subtype shows at once.
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());

  const remove = useMutation({
    mutationFn: (type: TypeItem) => deleteBatteryType(type.id),
    onSuccess: () => {
      void message.success(t('firmware.deleted'));
      void queryClient.invalidateQueries({ queryKey: batteryKeys.all });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('firmware.requestFailed')),
  });

  const confirmDelete = (type: TypeItem) =>
    void modal.confirm({
      title: t('batteryFirmware.deleteTypeTitle', { name: type.name }),
      content: t('batteryFirmware.deleteTypeWarning'),
      okText: t('firmware.delete'),
      cancelText: t('firmware.cancel'),
      okButtonProps: { danger: true, id: 'confirm-delete-type' },
      onOk: () => remove.mutateAsync(type).catch(() => undefined),
    });

  const action = (label: string, icon: ReactNode, onClick: () => void, testId: string, danger = false) => (
    <Tooltip title={label}>
      <Button
        size="small"
        type="text"
        danger={danger}
        icon={icon}
        aria-label={label}
        data-testid={testId}
        onClick={(event) => {
          // The click acts on the button, not on the node's selection.
          event.stopPropagation();
          onClick();
        }}
      />
    </Tooltip>
  );

  const title = (type: TypeItem) => (
    <span className="sw-battery-type-node" data-testid="battery-type-node">
      <span className="sw-battery-type-name">{type.name}</span>
      <span className="sw-battery-type-actions">
        {type.usage && (
          <Tooltip title={t('batteryFirmware.typeUsageHint', { products: type.usage.products, firmware: type.usage.firmware })}>
            <Typography.Text type="secondary" className="sw-battery-type-usage">
              {type.usage.products} · {type.usage.firmware}
            </Typography.Text>
          </Tooltip>
        )}
        {canEdit && (
          <>
            {type.parentId === null &&
              action(
                t('batteryFirmware.addSecondaryTo', { name: type.name }),
                <PlusOutlined />,
                () => setDialog({ kind: 'add', parent: type }),
                'battery-type-add-secondary',
              )}
            {action(
              t('batteryFirmware.renameType', { name: type.name }),
              <EditOutlined />,
              () => setDialog({ kind: 'rename', type }),
              'battery-type-rename',
            )}
            {type.childCount === 0 &&
              action(
                t('batteryFirmware.moveType', { name: type.name }),
                <SwapOutlined />,
                () => setDialog({ kind: 'move', type }),
                'battery-type-move',
              )}
            {action(
              t('batteryFirmware.deleteType', { name: type.name }),
              <DeleteOutlined />,
              () => confirmDelete(type),
              'battery-type-delete',
              true,
            )}
          </>
        )}
      </span>
    </span>
  );

  const treeData = tree.map((primary) => {
    const item: TypeItem = { id: primary.id, name: primary.name, parentId: null, childCount: primary.children.length };
    return {
      key: primary.id,
      title: title(item),
      children: primary.children.map((child) => ({
        key: child.id,
        isLeaf: true,
        title: title({
          id: child.id,
          name: child.name,
          parentId: child.parentId,
          childCount: 0,
          usage: { products: child.products, firmware: child.firmware },
        }),
      })),
    };
  });

  return (
    <Card
      size="small"
      title={t('batteryFirmware.typesTitle')}
      extra={
        <Space size={4}>
          {selected !== undefined && (
            <Button size="small" type="link" onClick={() => onSelect(undefined)} data-testid="battery-type-show-all">
              {t('batteryFirmware.showAll')}
            </Button>
          )}
          {canEdit && (
            <Button size="small" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'add' })} data-testid="battery-type-add-primary">
              {t('batteryFirmware.addPrimary')}
            </Button>
          )}
        </Space>
      }
      data-testid="battery-type-tree"
    >
      {loading ? (
        <Spin />
      ) : tree.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <Space direction="vertical" size={4}>
              <Typography.Text strong>{t('batteryFirmware.typesEmptyTitle')}</Typography.Text>
              <Typography.Text type="secondary">{t('batteryFirmware.typesEmptyHint')}</Typography.Text>
            </Space>
          }
          data-testid="battery-types-empty"
        />
      ) : (
        <>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
            {t('batteryFirmware.typesHint')}
          </Typography.Paragraph>
          <Tree
            blockNode
            treeData={treeData}
            expandedKeys={tree.filter((p) => !collapsed.has(p.id)).map((p) => p.id)}
            onExpand={(keys) => {
              const open = new Set(keys.map(Number));
              setCollapsed(new Set(tree.filter((p) => !open.has(p.id)).map((p) => p.id)));
            }}
            selectedKeys={selected === undefined ? [] : [selected]}
            onSelect={(keys) => onSelect(keys.length > 0 ? Number(keys[0]) : undefined)}
          />
        </>
      )}
      {dialog?.kind === 'add' && <TypeNameModal parent={dialog.parent} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'rename' && <TypeNameModal type={dialog.type} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'move' && <MoveTypeModal type={dialog.type} tree={tree} onClose={() => setDialog(null)} />}
    </Card>
  );
}

/** Adds a primary type, a secondary type under `parent`, or renames `type`; the name is checked live among its siblings. */
function TypeNameModal({ parent, type, onClose }: { parent?: TypeItem; type?: TypeItem; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ name: string }>();
  const [refusal, setRefusal] = useState<string>();
  const parentId = type ? (type.parentId ?? undefined) : parent?.id;

  const taken: Rule = () => ({
    async validator(_, value?: string) {
      const name = value?.trim();
      if (!name || !isPlainText(name) || name.length > BATTERY_LIMITS.typeNameMax) return;
      try {
        await checkBatteryTypeName({ name, parentId, id: type?.id });
      } catch (error) {
        if (error instanceof ApiCallError && error.code === Code.BATTERY_TYPE_NAME_EXISTS)
          throw new Error(t('batteryFirmware.typeNameTaken'));
      }
    },
  });

  const save = useMutation({
    mutationFn: (name: string) => (type ? renameBatteryType(type.id, name) : addBatteryType({ name, parentId })),
    onSuccess: () => {
      void message.success(t('firmware.saved'));
      void queryClient.invalidateQueries({ queryKey: batteryKeys.all });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiCallError && error.code === Code.BATTERY_TYPE_NAME_EXISTS) {
        form.setFields([{ name: 'name', errors: [t('batteryFirmware.typeNameTaken')] }]);
        return;
      }
      const byField = fieldErrors(error);
      if (byField.name) form.setFields([{ name: 'name', errors: [byField.name] }]);
      else setRefusal(refusalMessage(error) ?? t('firmware.requestFailed'));
    },
  });

  const submit = async () => {
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    setRefusal(undefined);
    save.mutate(values.name.trim());
  };

  const title = type
    ? t('batteryFirmware.renameTitle', { name: type.name })
    : parent
      ? t('batteryFirmware.addSecondaryTitle', { parent: parent.name })
      : t('batteryFirmware.addPrimaryTitle');

  return (
    <Modal
      open
      title={title}
      okText={t('firmware.save')}
      cancelText={t('firmware.cancel')}
      okButtonProps={{ loading: save.isPending, id: 'battery-type-submit' }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="battery-type-form"
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" initialValues={{ name: type?.name }} validateTrigger="onChange" onFinish={() => void submit()}>
        <Form.Item
          name="name"
          label={t('batteryFirmware.typeName')}
          extra={parent ? t('batteryFirmware.secondaryHint') : type ? undefined : t('batteryFirmware.primaryHint')}
          hasFeedback
          rules={[
            { required: true, whitespace: true, message: t('firmware.required') },
            { max: BATTERY_LIMITS.typeNameMax, message: t('firmware.tooLong', { max: BATTERY_LIMITS.typeNameMax }) },
            {
              validator: async (_, value?: string) =>
                value && !isPlainText(value) ? Promise.reject(new Error(t('batteryFirmware.noSpecial'))) : undefined,
            },
            taken,
          ]}
        >
          <Input id="battery-type-name" autoComplete="off" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Moves a type under another primary type, picked from a list (the current parent and the type itself are left out). */
function MoveTypeModal({ type, tree, onClose }: { type: TypeItem; tree: BatteryTypeNode[]; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<number>();
  const [refusal, setRefusal] = useState<string>();
  const targets = tree.filter((p) => p.id !== type.id && p.id !== type.parentId);

  const move = useMutation({
    mutationFn: (parentId: number) => moveBatteryType(type.id, parentId),
    onSuccess: () => {
      void message.success(t('batteryFirmware.moved'));
      void queryClient.invalidateQueries({ queryKey: batteryKeys.all });
      onClose();
    },
    onError: (error) => setRefusal(refusalMessage(error) ?? t('firmware.requestFailed')),
  });

  return (
    <Modal
      open
      title={t('batteryFirmware.moveTitle', { name: type.name })}
      okText={t('batteryFirmware.move')}
      cancelText={t('firmware.cancel')}
      okButtonProps={{ loading: move.isPending, disabled: target === undefined, id: 'battery-type-move-submit' }}
      onOk={() => target !== undefined && move.mutate(target)}
      onCancel={onClose}
      destroyOnHidden
      data-testid="battery-type-move-form"
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} data-testid="battery-type-move-refusal" />}
      {targets.length === 0 ? (
        <Alert type="info" showIcon title={t('batteryFirmware.moveNoTarget')} />
      ) : (
        <Form layout="vertical">
          <Form.Item label={t('batteryFirmware.moveTarget')} extra={t('batteryFirmware.moveHint')} required>
            <Select
              id="battery-type-move-target"
              placeholder={t('batteryFirmware.selectPrimary')}
              value={target}
              onChange={(value: number) => {
                setTarget(value);
                setRefusal(undefined);
              }}
              options={targets.map((p) => ({ value: p.id, label: p.name }))}
              showSearch={{ optionFilterProp: 'label' }}
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
