import {
  ClockCircleOutlined,
  DeleteOutlined,
  DisconnectOutlined,
  LinkOutlined,
  PlusOutlined,
  PoweroffOutlined,
  SettingOutlined,
  ThunderboltOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import type { AcSwitchImportResult, AcSwitchRow, AcSwitchState } from '@sunward/contracts/ac-switches';
import { AC_SWITCH_LIMITS } from '@sunward/contracts/ac-switches';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, InputNumber, Modal, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PageProps } from '../../../app/page-props';
import { useSession } from '../../../app/session';
import { AppNotEnabled } from '../../../components/AppNotEnabled';
import { usePasswordPrompt } from '../../../components/ConfirmPassword';
import { ImportDialog } from '../../../components/ImportDialog';
import { FilterSelect, ListPage, ListSearch, useListState } from '../../../components/ListPage';
import { PageTitle } from '../../../components/PageTitle';
import { ApiCallError, refusalCode } from '../../../lib/api-client';
import { registerTexts } from '../../../lib/feature-texts';
import { fetchPlantOptions, PLANT_OPTIONS_KEY } from '../../../lib/plant-options';
import { acSwitchTexts } from './ac-switch-texts';
import {
  acSwitchKeys,
  addAcSwitch,
  bindAcSwitch,
  deleteAcSwitch,
  fetchAcSwitchCustomers,
  fetchAcSwitchPage,
  importAcSwitches,
  setAcSwitchAssociate,
  setAcSwitchFrequency,
  switchAcSwitch,
  unbindAcSwitch,
} from './api';
import { SwitchTasksDrawer } from './SwitchTasksDrawer';

registerTexts(acSwitchTexts);

const STATE_TEXT: Record<AcSwitchState, string> = {
  on: 'acSwitch.stateOn',
  off: 'acSwitch.stateOff',
  tripped: 'acSwitch.stateTripped',
  fault: 'acSwitch.stateFault',
};
const STATE_COLOUR: Record<AcSwitchState, string> = { on: 'green', off: 'default', tripped: 'orange', fault: 'red' };

const messageOf = (error: unknown, fallback: string) => (error instanceof ApiCallError && error.message ? error.message : fallback);

/**
 * /device/acSwitch: smart AC switches (issue 22 part 1). The list (optionally one plant's) with each switch's
 * confirmed state, switching on and off with the password again (the switch confirms over the gateway
 * protocol; one switched off locally is only switched on at the switch), import and add, binding to a plant
 * by SN and key, unbinding, upload frequency, associated user and deletion.
 */
export function AcSwitchListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const askPassword = usePasswordPrompt();
  const list = useListState();
  const [dialog, setDialog] = useState<'import' | 'add' | 'bind' | { frequency: AcSwitchRow } | { associate: AcSwitchRow } | null>(null);
  const [rowError, setRowError] = useState<{ id: number; text: string } | null>(null);
  const [tasksOf, setTasksOf] = useState<AcSwitchRow | null>(null);
  const plantId = list.number('plantId');
  const query = { page: list.page, size: list.size, keyword: list.text('keyword'), plantId };
  const page = useQuery({ queryKey: acSwitchKeys.page(query), queryFn: () => fetchAcSwitchPage(query), refetchInterval: 10_000 });
  const plants = useQuery({ queryKey: PLANT_OPTIONS_KEY, queryFn: fetchPlantOptions });
  const canEdit = has('smart.acSwitch.edit');
  const canControl = has('smart.acSwitch.control');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: acSwitchKeys.all });

  const power = useMutation({
    mutationFn: async ({ row, on }: { row: AcSwitchRow; on: boolean }) => {
      const password = await askPassword(t('acSwitch.confirmTitle'), t('acSwitch.confirmPassword'));
      if (password === undefined) return undefined;
      return switchAcSwitch(row.id, on, password);
    },
    onSuccess: (result) => {
      if (!result) return;
      setRowError(null);
      void message.success(t('acSwitch.confirmed', { state: t(STATE_TEXT[result.state]) }));
      refresh();
    },
    onError: (error, { row }) => setRowError({ id: row.id, text: messageOf(error, t('acSwitch.offline')) }),
  });

  const remove = (row: AcSwitchRow, action: 'unbind' | 'delete') =>
    void modal.confirm({
      title: t(action === 'unbind' ? 'acSwitch.unbindConfirm' : 'acSwitch.deleteConfirm'),
      okButtonProps: { danger: true, id: `ac-switch-confirm-${action}` },
      okText: t(action === 'unbind' ? 'acSwitch.unbind' : 'acSwitch.delete'),
      cancelText: t('acSwitch.cancel'),
      onOk: async () => {
        try {
          await (action === 'unbind' ? unbindAcSwitch(row.id) : deleteAcSwitch(row.id));
          void message.success(t('acSwitch.saved'));
          refresh();
        } catch (error) {
          void message.error(messageOf(error, t('acSwitch.offline')));
        }
      },
    });

  // The company has not enabled the smart switch app (application centre): say so and where, not an empty list.
  if (refusalCode(page.error) === 4400) return <AppNotEnabled route={route} />;

  const columns = [
    {
      key: 'sn',
      title: t('acSwitch.colSn'),
      render: (_: unknown, row: AcSwitchRow) => (
        <Space direction="vertical" size={0}>
          <span data-testid={`ac-switch-sn-${row.sn}`}>{row.sn}</span>
          {row.alias && <Typography.Text type="secondary">{row.alias}</Typography.Text>}
        </Space>
      ),
    },
    {
      key: 'master',
      title: t('acSwitch.colMaster'),
      render: (_: unknown, row: AcSwitchRow) => (row.masterSn ? row.masterSn : <Tag>{t('acSwitch.master')}</Tag>),
    },
    { key: 'plant', title: t('acSwitch.colPlant'), render: (_: unknown, row: AcSwitchRow) => row.plantName ?? '—' },
    {
      key: 'state',
      title: t('acSwitch.colState'),
      render: (_: unknown, row: AcSwitchRow) => (
        <Space direction="vertical" size={0}>
          <span data-testid={`ac-switch-state-${row.sn}`} data-state={row.state ?? 'none'}>
            {row.state ? <Tag color={STATE_COLOUR[row.state]}>{t(STATE_TEXT[row.state])}</Tag> : <Tag>{t('acSwitch.stateUnknown')}</Tag>}
            {row.state && !row.online && <Tag>{t('acSwitch.offline')}</Tag>}
          </span>
          {row.offLocally && <Typography.Text type="warning">{t('acSwitch.offLocally')}</Typography.Text>}
          {rowError?.id === row.id && (
            <Typography.Text type="danger" data-testid={`ac-switch-error-${row.sn}`}>
              {rowError.text}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      key: 'power',
      title: t('acSwitch.colPower'),
      render: (_: unknown, row: AcSwitchRow) => (row.powerW === null ? '—' : `${row.powerW} W`),
    },
    {
      key: 'leak',
      title: t('acSwitch.colLeakage'),
      render: (_: unknown, row: AcSwitchRow) => (row.leakageMa === null ? '—' : `${row.leakageMa} mA`),
    },
    {
      key: 'frequency',
      title: t('acSwitch.colFrequency'),
      render: (_: unknown, row: AcSwitchRow) =>
        canEdit && row.access === 'manage' ? (
          <Button type="link" onClick={() => setDialog({ frequency: row })} data-testid={`ac-switch-frequency-${row.sn}`}>
            {row.frequency} {t('acSwitch.minutes')}
          </Button>
        ) : (
          `${row.frequency} ${t('acSwitch.minutes')}`
        ),
    },
    {
      key: 'associate',
      title: t('acSwitch.colAssociate'),
      render: (_: unknown, row: AcSwitchRow) =>
        canEdit && row.access === 'manage' ? (
          <Button type="link" onClick={() => setDialog({ associate: row })} data-testid={`ac-switch-associate-${row.sn}`}>
            {row.associateAccount ?? t('acSwitch.none')}
          </Button>
        ) : (
          (row.associateAccount ?? '—')
        ),
    },
    {
      key: 'actions',
      title: t('acSwitch.colActions'),
      render: (_: unknown, row: AcSwitchRow) => {
        const reporting = row.gatewaySn !== null;
        const busy = power.isPending && power.variables?.row.id === row.id;
        return (
          <Space wrap>
            {canControl && row.access !== 'view' && (
              <>
                <Tooltip title={reporting ? undefined : t('acSwitch.notReporting')}>
                  <Button
                    size="small"
                    icon={<ThunderboltOutlined />}
                    disabled={!reporting || row.state === 'on' || row.offLocally}
                    loading={busy && power.variables?.on === true}
                    onClick={() => power.mutate({ row, on: true })}
                    data-testid={`ac-switch-on-${row.sn}`}
                  >
                    {t('acSwitch.switchOn')}
                  </Button>
                </Tooltip>
                <Button
                  size="small"
                  danger
                  icon={<PoweroffOutlined />}
                  disabled={!reporting || row.state === 'off'}
                  loading={busy && power.variables?.on === false}
                  onClick={() => power.mutate({ row, on: false })}
                  data-testid={`ac-switch-off-${row.sn}`}
                >
                  {t('acSwitch.switchOff')}
                </Button>
              </>
            )}
            {row.plantId !== null && (
              <Button size="small" icon={<ClockCircleOutlined />} onClick={() => setTasksOf(row)} data-testid={`ac-switch-tasks-${row.sn}`}>
                {t('acSwitchTask.tasks')}
              </Button>
            )}
            {has('inverter.setting') && reporting && row.access !== 'view' && (
              // Limits are the switch's settings family (setting/switch): written and confirmed on the setting page.
              <Link to={`/device/setting?keyword=${encodeURIComponent(row.sn)}`} data-testid={`ac-switch-limits-${row.sn}`}>
                <Button size="small" icon={<SettingOutlined />}>
                  {t('acSwitch.limits')}
                </Button>
              </Link>
            )}
            {canEdit && row.access === 'manage' && row.plantId !== null && (
              <Button
                size="small"
                icon={<DisconnectOutlined />}
                onClick={() => remove(row, 'unbind')}
                data-testid={`ac-switch-unbind-${row.sn}`}
              >
                {t('acSwitch.unbind')}
              </Button>
            )}
            {has('smart.acSwitch.delete') && row.access === 'manage' && (
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('acSwitch.delete')}
                onClick={() => remove(row, 'delete')}
                data-testid={`ac-switch-delete-${row.sn}`}
              />
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <ListPage
      testId="ac-switch-list"
      title={<PageTitle route={route} />}
      tools={
        <>
          <ListSearch list={list} placeholder={t('acSwitch.search')} testId="ac-switch-search" />
          <FilterSelect<number>
            label={t('acSwitch.plant')}
            value={plantId}
            onChange={(value) => list.update({ plantId: value === undefined ? undefined : String(value) })}
            options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            width={200}
            testId="ac-switch-plant-filter"
          />
          {canEdit && (
            <>
              <Button icon={<UploadOutlined />} onClick={() => setDialog('import')} data-testid="ac-switch-import">
                {t('acSwitch.import')}
              </Button>
              <Button icon={<LinkOutlined />} onClick={() => setDialog('bind')} data-testid="ac-switch-bind">
                {t('acSwitch.bind')}
              </Button>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog('add')} data-testid="ac-switch-add">
                {t('acSwitch.add')}
              </Button>
            </>
          )}
        </>
      }
    >
      <Table<AcSwitchRow>
        rowKey="id"
        loading={page.isLoading}
        dataSource={page.data?.infos ?? []}
        columns={columns}
        pagination={list.pagination(page.data?.total)}
        locale={{ emptyText: t(canEdit ? 'acSwitch.emptyHowTo' : 'acSwitch.empty') }}
        scroll={{ x: true }}
        data-testid="ac-switch-table"
      />
      {dialog === 'import' && <ImportSwitchesDialog onClose={() => setDialog(null)} onImported={refresh} />}
      {(dialog === 'add' || dialog === 'bind') && (
        <SwitchFormDialog
          mode={dialog}
          plants={plants.data ?? []}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            void message.success(t('acSwitch.saved'));
            refresh();
          }}
        />
      )}
      {dialog !== null && typeof dialog === 'object' && 'frequency' in dialog && (
        <FrequencyDialog
          row={dialog.frequency}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            refresh();
          }}
        />
      )}
      {dialog !== null && typeof dialog === 'object' && 'associate' in dialog && (
        <AssociateDialog
          row={dialog.associate}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            refresh();
          }}
        />
      )}
      {tasksOf && <SwitchTasksDrawer row={tasksOf} canControl={canControl} onClose={() => setTasksOf(null)} />}
    </ListPage>
  );
}

/** Uploads one .xls/.xlsx switch list, optionally for a customer; the count and the refused rows stay in the dialog. */
function ImportSwitchesDialog({ onClose, onImported }: { onClose(): void; onImported(): void }) {
  const { t } = useTranslation();
  const customers = useQuery({ queryKey: acSwitchKeys.customers, queryFn: fetchAcSwitchCustomers });
  return (
    <ImportDialog<{ customerId?: number }, AcSwitchImportResult>
      width={680}
      title={t('acSwitch.importTitle')}
      hint={t('acSwitch.importHint')}
      okText={t('acSwitch.import')}
      upload={(file, values) => importAcSwitches(file, values.customerId)}
      onImported={onImported}
      renderResult={(result) => (
        <div data-testid="ac-switch-import-result">
          <Alert
            type={result.errors.length === 0 ? 'success' : 'warning'}
            showIcon
            title={<span data-testid="ac-switch-imported-count">{t('acSwitch.importedCount', { count: result.imported })}</span>}
          />
          {result.errors.length > 0 && (
            <>
              <Typography.Paragraph strong>{t('acSwitch.importErrors', { count: result.errors.length })}</Typography.Paragraph>
              <Table
                size="small"
                rowKey={(r) => `${r.row}-${r.sn}`}
                pagination={result.errors.length > 10 ? { pageSize: 10 } : false}
                dataSource={result.errors}
                columns={[
                  { key: 'row', title: t('acSwitch.colRow'), dataIndex: 'row', width: 70 },
                  { key: 'sn', title: t('acSwitch.colSn'), dataIndex: 'sn', width: 180, render: (sn: string) => sn || '—' },
                  { key: 'problem', title: t('acSwitch.colProblem'), dataIndex: 'message' },
                ]}
                data-testid="ac-switch-import-errors"
              />
            </>
          )}
        </div>
      )}
      onClose={onClose}
      testIds={{
        modal: 'ac-switch-import-modal',
        file: 'ac-switch-import-file',
        refusal: 'ac-switch-import-refusal',
        submitId: 'ac-switch-import-submit',
      }}
    >
      {(customers.data ?? []).length > 0 && (
        <Form.Item name="customerId" label={t('acSwitch.customer')}>
          <Select allowClear options={(customers.data ?? []).map((c) => ({ value: c.userId, label: c.name ?? c.account }))} />
        </Form.Item>
      )}
    </ImportDialog>
  );
}

interface SwitchFormValues {
  sn: string;
  key: string;
  masterSn?: string;
  plantId?: number;
}

/** Add one switch (SN, key, master, plant optional) or bind a registered one to a plant by SN and key. */
function SwitchFormDialog({
  mode,
  plants,
  onClose,
  onSaved,
}: {
  mode: 'add' | 'bind';
  plants: readonly { id: number; name: string }[];
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SwitchFormValues>();
  const [refusal, setRefusal] = useState<string>();
  const save = useMutation({
    mutationFn: (values: SwitchFormValues) =>
      mode === 'add'
        ? addAcSwitch({
            sn: values.sn,
            key: values.key,
            ...(values.masterSn ? { masterSn: values.masterSn } : {}),
            ...(values.plantId ? { plantId: values.plantId } : {}),
          })
        : bindAcSwitch({ sn: values.sn, key: values.key, plantId: values.plantId ?? 0 }),
    onSuccess: onSaved,
    onError: (error) => setRefusal(messageOf(error, t('acSwitch.offline'))),
  });
  const required = [{ required: true, message: t('acSwitch.required') }];
  return (
    <Modal
      open
      title={t(mode === 'add' ? 'acSwitch.addTitle' : 'acSwitch.bindTitle')}
      okText={t('acSwitch.save')}
      cancelText={t('acSwitch.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, id: 'ac-switch-form-submit' }}
      data-testid="ac-switch-form"
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} data-testid="ac-switch-form-refusal" />}
      <Form form={form} layout="vertical" onFinish={(values) => save.mutate(values)}>
        <Form.Item name="sn" label={t('acSwitch.colSn')} rules={required}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="key" label={t('acSwitch.key')} rules={required}>
          <Input maxLength={AC_SWITCH_LIMITS.keyMaxLength} />
        </Form.Item>
        {mode === 'add' && (
          <Form.Item name="masterSn" label={t('acSwitch.masterSn')} extra={t('acSwitch.masterHint')}>
            <Input maxLength={32} />
          </Form.Item>
        )}
        <Form.Item name="plantId" label={t('acSwitch.plant')} rules={mode === 'bind' ? required : []}>
          <Select allowClear options={plants.map((p) => ({ value: p.id, label: p.name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function FrequencyDialog({ row, onClose, onSaved }: { row: AcSwitchRow; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [value, setValue] = useState<number | null>(row.frequency);
  // Written to the switch when it reports; else stored only, and the user is told so.
  const save = useMutation({
    mutationFn: (frequency: number) => setAcSwitchFrequency(row.id, frequency),
    onSuccess: (result) => {
      void (result.written ? message.success(t('acSwitch.frequencyWritten')) : message.info(t('acSwitch.frequencyStored'), 8));
      onSaved();
    },
  });
  return (
    <Modal
      open
      title={`${t('acSwitch.frequency')} · ${row.sn}`}
      okText={t('acSwitch.save')}
      cancelText={t('acSwitch.cancel')}
      onCancel={onClose}
      onOk={() => value !== null && save.mutate(value)}
      okButtonProps={{ loading: save.isPending, disabled: value === null }}
    >
      {save.error && <Alert type="error" showIcon title={messageOf(save.error, t('acSwitch.offline'))} />}
      <InputNumber
        aria-label={t('acSwitch.frequency')}
        min={AC_SWITCH_LIMITS.frequencyMin}
        max={AC_SWITCH_LIMITS.frequencyMax}
        precision={0}
        value={value}
        onChange={setValue}
        addonAfter={t('acSwitch.minutes')}
      />
    </Modal>
  );
}

function AssociateDialog({ row, onClose, onSaved }: { row: AcSwitchRow; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const customers = useQuery({ queryKey: acSwitchKeys.customers, queryFn: fetchAcSwitchCustomers });
  const [value, setValue] = useState<number | null>(row.associateUserId);
  const save = useMutation({ mutationFn: (userId: number | null) => setAcSwitchAssociate(row.id, userId), onSuccess: onSaved });
  return (
    <Modal
      open
      title={`${t('acSwitch.associate')} · ${row.sn}`}
      okText={t('acSwitch.save')}
      cancelText={t('acSwitch.cancel')}
      onCancel={onClose}
      onOk={() => save.mutate(value)}
      okButtonProps={{ loading: save.isPending }}
    >
      {save.error && <Alert type="error" showIcon title={messageOf(save.error, t('acSwitch.offline'))} />}
      <Select<number>
        aria-label={t('acSwitch.associate')}
        allowClear
        style={{ width: '100%' }}
        value={value ?? undefined}
        onChange={(next?: number) => setValue(next ?? null)}
        options={(customers.data ?? []).map((c) => ({ value: c.userId, label: c.name ?? c.account }))}
      />
    </Modal>
  );
}
