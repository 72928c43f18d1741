import { PlusOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { HARDWARE_KINDS, type HardwareKind, type HardwareModel, type HardwareSave } from '@sunward/contracts/hardware';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { FormDialog } from '../../components/FormDialog';
import { LinkActions } from '../../components/LinkActions';
import { ListPage, ListSearch, useListState } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { fieldErrors, refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { createHardware, deleteHardware, fetchHardwarePage, hardwareKeys, updateHardware } from './api';
import { hardwareTexts } from './hardware-texts';

registerTexts(hardwareTexts);

/**
 * The hardware list (issue 19, platform administrators): the device models the platform knows, with their
 * protocol and the firmware versions they can run, and how many devices report each on their nameplate.
 */
export function HardwarePage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const canEdit = has('firmware.edit');
  const list = useListState();
  const keyword = list.text('keyword');
  const [dialog, setDialog] = useState<{ row?: HardwareModel } | null>(null);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const kindLabel = (kind: HardwareKind) => (kind === 'gateway' ? t('hardware.kindGateway') : t(`hardware.kind_${kind}`));
  const page = useQuery({
    queryKey: hardwareKeys.page(keyword, list.page, list.size),
    queryFn: () => fetchHardwarePage(keyword, list.page, list.size),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (row: HardwareModel) => deleteHardware(row.id).then(() => row),
    onSuccess: (row) => {
      void message.success(t('hardware.deleted', { model: row.model }));
      void queryClient.invalidateQueries({ queryKey: hardwareKeys.all });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('hardware.requestFailed')),
  });

  return (
    <ListPage
      testId="hardware-page"
      title={<PageTitle route={route} />}
      tools={
        <>
          <ListSearch list={list} placeholder={t('hardware.search')} testId="hardware-search" />
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="hardware-add">
              {t('hardware.add')}
            </Button>
          )}
        </>
      }
    >
      <Table<HardwareModel>
        rowKey="id"
        data-testid="hardware-table"
        loading={page.isFetching}
        dataSource={page.data?.infos}
        pagination={list.pagination(page.data?.total, (total) => t('hardware.total', { count: total }))}
        locale={{ emptyText: t('hardware.empty') }}
        scroll={{ x: 900 }}
        columns={[
          { key: 'manufacturer', title: t('hardware.manufacturer'), width: 170, render: (_, r) => r.manufacturer },
          {
            key: 'model',
            title: t('hardware.model'),
            width: 170,
            render: (_, r) => (
              <>
                {r.model} {r.builtIn && <Tag>{t('hardware.builtIn')}</Tag>}
              </>
            ),
          },
          { key: 'kind', title: t('hardware.kind'), width: 150, render: (_, r) => kindLabel(r.kind) },
          {
            key: 'protocol',
            title: t('hardware.protocol'),
            width: 190,
            render: (_, r) => (r.protocolIdentifier ? <code>{r.protocolIdentifier}</code> : '—'),
          },
          {
            key: 'firmware',
            title: t('hardware.firmware'),
            width: 170,
            render: (_, r) => r.firmwareCompatible ?? t('hardware.firmwareAny'),
          },
          { key: 'devices', title: t('hardware.devices'), width: 90, render: (_, r) => r.devices },
          {
            key: 'actions',
            title: t('hardware.actions'),
            width: 150,
            render: (_, r) =>
              canEdit && (
                <LinkActions
                  actions={[
                    { key: 'edit', label: t('hardware.edit'), onClick: () => setDialog({ row: r }), testId: `hardware-edit-${r.id}` },
                    {
                      key: 'delete',
                      label: t('hardware.delete'),
                      danger: true,
                      testId: `hardware-delete-${r.id}`,
                      confirm: {
                        title: t('hardware.deleteTitle', { model: r.model }),
                        content: t('hardware.deleteHint'),
                        okText: t('hardware.delete'),
                      },
                      onClick: () => remove.mutateAsync(r),
                    },
                  ]}
                />
              ),
          },
        ]}
      />
      {dialog && <ModelDialog row={dialog.row} kindLabel={kindLabel} onClose={() => setDialog(null)} />}
    </ListPage>
  );
}

type Values = { manufacturer: string; model: string; kind: HardwareKind; protocolIdentifier?: string; firmwareCompatible?: string };

function ModelDialog({ row, kindLabel, onClose }: { row?: HardwareModel; kindLabel(kind: HardwareKind): string; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const required = [{ required: true, whitespace: true, message: t('hardware.required') }];
  const save = (values: Values) => {
    const body: HardwareSave = {
      manufacturer: values.manufacturer.trim(),
      model: values.model.trim(),
      kind: values.kind,
      protocolIdentifier: values.protocolIdentifier?.trim() || null,
      firmwareCompatible: values.firmwareCompatible?.trim() || null,
    };
    return row ? updateHardware(row.id, body) : createHardware(body);
  };
  return (
    <FormDialog<Values>
      form={form}
      title={row ? t('hardware.editTitle', { model: row.model }) : t('hardware.addTitle')}
      okId="hardware-submit"
      testId="hardware-form"
      width={560}
      initialValues={{
        manufacturer: row?.manufacturer ?? '',
        model: row?.model ?? '',
        kind: row?.kind ?? 'inverter',
        protocolIdentifier: row?.protocolIdentifier ?? '',
        firmwareCompatible: row?.firmwareCompatible ?? '',
      }}
      save={save}
      invalidate={[hardwareKeys.all]}
      onRefusal={(error) => {
        const byField = Object.entries(fieldErrors(error));
        if (byField.length > 0) {
          form.setFields(byField.map(([name, text]) => ({ name: name as keyof Values, errors: [text] })));
          return true;
        }
        if (refusalCode(error) === Code.HARDWARE_MODEL_EXISTS) {
          form.setFields([{ name: 'model', errors: [refusalMessage(error) ?? ''] }]);
          return true;
        }
        return false;
      }}
      onClose={onClose}
    >
      <Form.Item name="manufacturer" label={t('hardware.manufacturer')} rules={[...required, { max: 64 }]}>
        <Input id="hardware-manufacturer" />
      </Form.Item>
      <Form.Item name="model" label={t('hardware.model')} rules={[...required, { max: 64 }]}>
        <Input id="hardware-model" />
      </Form.Item>
      <Form.Item name="kind" label={t('hardware.kind')} rules={[{ required: true, message: t('hardware.required') }]}>
        <Select id="hardware-kind" options={HARDWARE_KINDS.map((kind) => ({ value: kind, label: kindLabel(kind) }))} />
      </Form.Item>
      <Form.Item name="protocolIdentifier" label={t('hardware.protocol')} rules={[{ max: 40 }]}>
        <Input id="hardware-protocol" />
      </Form.Item>
      <Form.Item name="firmwareCompatible" label={t('hardware.firmware')} extra={t('hardware.firmwareHint')} rules={[{ max: 100 }]}>
        <Input id="hardware-firmware" />
      </Form.Item>
    </FormDialog>
  );
}
