import { DeleteOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { isMessageKey, translate } from '@sunward/contracts/messages';
import {
  RULE_LIMITS,
  type RuleAction,
  type RuleDeviceKind,
  type SmartRule,
  type SmartRuleInput,
  type SmartRuleRun,
} from '@sunward/contracts/smart-home';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEnabledApps } from '../../app/enabled-apps';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { AppNotEnabled } from '../../components/AppNotEnabled';
import { PageTitle } from '../../components/PageTitle';
import { fieldErrors, refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import {
  deleteRule,
  enableRule,
  fetchPlantLights,
  fetchPlantSwitches,
  fetchRulePlants,
  fetchRuleRuns,
  fetchRules,
  previewRule,
  ruleKeys,
  saveRule,
} from './api';
import { smartTexts } from './smart-texts';

registerTexts(smartTexts);

interface FormValues {
  plantId: number;
  name: string;
  surplusW?: number | null;
  surplusMinutes?: number | null;
  socAbove?: number | null;
  windowFrom?: string;
  windowTo?: string;
  minIntervalMinutes: number;
  /** `device` is the kind and id together ("light:3", "switch:7"): one picker offers bulbs and AC switches. */
  actions: { device?: string; on: boolean; brightness?: number | null }[];
  password?: string;
}

const deviceValue = (kind: RuleDeviceKind, id: number) => `${kind}:${id}`;
const kindOf = (device: string | undefined): RuleDeviceKind => (device?.startsWith('switch:') ? 'switch' : 'light');
const idOf = (device: string | undefined) => Number(device?.slice(device.indexOf(':') + 1));

const toInput = (v: FormValues): SmartRuleInput => ({
  plantId: v.plantId,
  name: v.name,
  conditions: {
    ...(v.surplusW == null ? {} : { pvSurplus: { aboveW: v.surplusW, minutes: v.surplusMinutes ?? 0 } }),
    ...(v.socAbove == null ? {} : { socAbove: v.socAbove }),
    ...(v.windowFrom && v.windowTo ? { timeWindow: { from: v.windowFrom, to: v.windowTo } } : {}),
  },
  actions: v.actions.map(
    (a): RuleAction => ({
      kind: kindOf(a.device),
      deviceId: idOf(a.device),
      on: a.on,
      // An AC switch is on or off: brightness is for bulbs only.
      ...(kindOf(a.device) === 'light' && a.on && a.brightness != null ? { brightness: a.brightness } : {}),
    }),
  ),
  minIntervalMinutes: v.minIntervalMinutes,
  ...(v.password ? { password: v.password } : {}),
});

const fromRule = (r: SmartRule): FormValues => ({
  plantId: r.plantId,
  name: r.name,
  surplusW: r.conditions.pvSurplus?.aboveW ?? null,
  surplusMinutes: r.conditions.pvSurplus?.minutes ?? null,
  socAbove: r.conditions.socAbove ?? null,
  windowFrom: r.conditions.timeWindow?.from,
  windowTo: r.conditions.timeWindow?.to,
  minIntervalMinutes: r.minIntervalMinutes,
  actions: r.actions.map((a) => ({ device: deviceValue(a.kind, a.deviceId), on: a.on, brightness: a.brightness ?? null })),
});

/**
 * Smart rules (issue 22): per plant, conditions on its live data and actions on its bulbs and AC switches (switches
 * with the saver's password, since the rule switches them for the saver); runs and a dry run.
 */
export function RulesPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const rules = useQuery({ queryKey: ruleKeys.list, queryFn: fetchRules, retry: false, refetchInterval: 5000 });
  const [editing, setEditing] = useState<{ rule?: SmartRule } | null>(null);
  const [preview, setPreview] = useState<SmartRule | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ruleKeys.all });
  const failed = (error: unknown) => void message.error(refusalMessage(error) ?? t('smart.requestFailed'));
  const toggle = useMutation({ mutationFn: (r: SmartRule) => enableRule(r.id, !r.enabled), onSuccess: refresh, onError: failed });
  const remove = useMutation({ mutationFn: (r: SmartRule) => deleteRule(r.id), onSuccess: refresh, onError: failed });

  if (refusalCode(rules.error) === Code.APP_NOT_ENABLED) return <AppNotEnabled route={route} />;

  return (
    <Card className="sw-page-card" data-testid="rules-page">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <PageTitle route={route} />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="rule-add">
          {t('smart.rules.add')}
        </Button>
      </Space>
      <Table<SmartRule>
        rowKey="id"
        loading={rules.isLoading}
        dataSource={rules.data ?? []}
        pagination={false}
        locale={{ emptyText: t('smart.rules.empty') }}
        expandable={{ expandedRowRender: (rule) => <RuleRuns id={rule.id} /> }}
        columns={[
          { title: t('smart.rules.name'), dataIndex: 'name' },
          { title: t('smart.rules.plant'), dataIndex: 'plantName' },
          {
            title: t('smart.rules.enabled'),
            render: (_, rule) => (
              <Space>
                <Switch
                  checked={rule.enabled}
                  onChange={() => toggle.mutate(rule)}
                  aria-label={`${t('smart.rules.enabled')}: ${rule.name}`}
                  data-testid={`rule-enabled-${rule.id}`}
                />
                {rule.active && <Tag color="processing">{t('smart.rules.active')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('smart.rules.lastFired'),
            render: (_, rule) => (
              <span data-testid={`rule-last-${rule.id}`}>
                {rule.lastFiredAt ? new Date(rule.lastFiredAt).toLocaleString() : t('smart.rules.never')}
              </span>
            ),
          },
          {
            title: '',
            render: (_, rule) => (
              <Space>
                <Button size="small" onClick={() => setPreview(rule)} data-testid={`rule-preview-${rule.id}`}>
                  {t('smart.rules.preview')}
                </Button>
                <Button size="small" onClick={() => setEditing({ rule })}>
                  {t('smart.rules.edit')}
                </Button>
                <Popconfirm title={t('smart.rules.deleteTitle', { name: rule.name })} onConfirm={() => remove.mutate(rule)}>
                  <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('smart.rules.delete')} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <RuleDialog
          rule={editing.rule}
          onClose={(saved) => {
            setEditing(null);
            if (saved) {
              void message.success(t('smart.saved'));
              refresh();
            }
          }}
        />
      )}
      {preview && <PreviewDialog rule={preview} onClose={() => setPreview(null)} />}
    </Card>
  );
}

function RuleRuns({ id }: { id: number }) {
  const { t } = useTranslation();
  const runs = useQuery({ queryKey: ruleKeys.runs(id), queryFn: () => fetchRuleRuns(id), refetchInterval: 5000 });
  const colour = { ok: 'success', partial: 'warning', failed: 'error' } as const;
  return (
    <Table<SmartRuleRun>
      size="small"
      rowKey="id"
      dataSource={runs.data ?? []}
      pagination={false}
      locale={{ emptyText: t('smart.rules.noRuns') }}
      data-testid={`rule-runs-${id}`}
      columns={[
        { title: t('smart.rules.runs'), render: (_, run) => new Date(run.at).toLocaleString() },
        { title: '', render: (_, run) => <Tag color={colour[run.outcome]}>{t(`smart.rules.outcome.${run.outcome}`)}</Tag> },
        {
          title: '',
          render: (_, run) =>
            t('smart.rules.values', { surplus: run.values.pvSurplusW ?? '–', soc: run.values.soc ?? '–', time: run.values.localTime }),
        },
        { title: '', render: (_, run) => refusalOf(run) },
      ]}
    />
  );
}

/** A run's first refusal, in the reader's language where its code is known (older runs kept the English text only). */
function refusalOf(run: SmartRuleRun): string {
  const failed = run.results.find((r) => !r.ok);
  if (!failed) return '';
  const key = `code.${failed.code ?? ''}`;
  return isMessageKey(key) ? translate(currentLanguage(), key) : (failed.message ?? '');
}

function PreviewDialog({ rule, onClose }: { rule: SmartRule; onClose: () => void }) {
  const { t } = useTranslation();
  const preview = useQuery({ queryKey: ['smartRules', 'preview', rule.id], queryFn: () => previewRule(rule.id) });
  return (
    <Modal open title={`${t('smart.rules.preview')}: ${rule.name}`} onCancel={onClose} footer={null}>
      {preview.data && (
        <div data-testid="rule-preview">
          <p>
            {t('smart.rules.values', {
              surplus: preview.data.values.pvSurplusW ?? '–',
              soc: preview.data.values.soc ?? '–',
              time: preview.data.values.localTime,
            })}
          </p>
          <Alert
            type={preview.data.wouldFire ? 'success' : 'info'}
            message={t(preview.data.wouldFire ? 'smart.rules.wouldFire' : 'smart.rules.wouldNotFire')}
          />
        </div>
      )}
    </Modal>
  );
}

function RuleDialog({ rule, onClose }: { rule?: SmartRule; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const plants = useQuery({ queryKey: ruleKeys.plants, queryFn: fetchRulePlants });
  const plantId = Form.useWatch('plantId', form);
  const actions = Form.useWatch('actions', form);
  const { has } = useSession();
  const switchesOffered = useEnabledApps().has('smart_switch') && has('smart.acSwitch');
  const lights = useQuery({
    queryKey: ['lights', 'plant', plantId],
    queryFn: () => fetchPlantLights(plantId),
    enabled: plantId !== undefined,
  });
  const switches = useQuery({
    queryKey: ['acSwitches', 'plant', plantId],
    queryFn: () => fetchPlantSwitches(plantId),
    enabled: plantId !== undefined && switchesOffered,
  });
  const switching = (actions ?? []).some((a) => kindOf(a?.device) === 'switch');
  const save = useMutation({
    mutationFn: (values: FormValues) => saveRule(rule?.id, toInput(values)),
    onSuccess: () => onClose(true),
    onError: (error) => {
      const code = refusalCode(error);
      if (code === Code.SMART_RULE_NAME_EXISTS) form.setFields([{ name: 'name', errors: [t('smart.rules.nameTaken')] }]);
      else if (code === Code.CONFIRM_PASSWORD_WRONG || code === Code.TOO_MANY_ATTEMPTS)
        form.setFields([{ name: 'password', errors: [refusalMessage(error) ?? t('smart.requestFailed')] }]);
      else {
        const fields = Object.entries(fieldErrors(error));
        if (fields.length === 0) form.setFields([{ name: 'actions', errors: [refusalMessage(error) ?? t('smart.requestFailed')] }]);
      }
    },
  });
  const initial: Partial<FormValues> = rule
    ? fromRule(rule)
    : { minIntervalMinutes: 5, surplusMinutes: 0, actions: [{ on: true, brightness: 80 }] };
  const noDevices = plantId !== undefined && lights.data?.length === 0 && (switches.data ?? []).length === 0 && !switches.isFetching;
  const deviceOptions = [
    { label: t('smart.rules.bulbs'), options: (lights.data ?? []).map((l) => ({ value: deviceValue('light', l.id), label: l.name })) },
    ...(switches.data?.length
      ? [
          {
            label: t('smart.rules.switches'),
            options: switches.data.map((w) => ({ value: deviceValue('switch', w.id), label: w.alias ? `${w.alias} (${w.sn})` : w.sn })),
          },
        ]
      : []),
  ];
  return (
    <Modal
      open
      title={rule ? rule.name : t('smart.rules.add')}
      onCancel={() => onClose(false)}
      okText={t('smart.rules.save')}
      cancelText={t('smart.rules.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      okButtonProps={{ id: 'rule-save' }}
      width={640}
    >
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={(values) => save.mutate(values)}>
        <Form.Item
          name="name"
          label={t('smart.rules.name')}
          rules={[{ required: true, whitespace: true, message: t('smart.rules.required') }]}
        >
          <Input maxLength={RULE_LIMITS.nameMax} id="rule-name" />
        </Form.Item>
        <Form.Item name="plantId" label={t('smart.rules.plant')} rules={[{ required: true, message: t('smart.rules.required') }]}>
          <Select
            id="rule-plant"
            disabled={rule !== undefined}
            options={(plants.data ?? []).map((p) => ({ value: p.plantId, label: p.plantName }))}
          />
        </Form.Item>
        {noDevices && <Alert type="warning" showIcon message={t('smart.rules.noDevices')} style={{ marginBottom: 12 }} />}
        <fieldset>
          <legend>{t('smart.rules.when')}</legend>
          <Space wrap>
            <Form.Item name="surplusW" label={t('smart.rules.surplusAbove')}>
              <InputNumber id="rule-surplus" min={0} max={RULE_LIMITS.surplusMaxW} precision={0} />
            </Form.Item>
            <Form.Item name="surplusMinutes" label={t('smart.rules.forMinutes')}>
              <InputNumber id="rule-surplus-minutes" min={0} max={RULE_LIMITS.holdMinutesMax} precision={0} />
            </Form.Item>
            <Form.Item name="socAbove" label={t('smart.rules.socAbove')}>
              <InputNumber id="rule-soc" min={0} max={100} precision={0} />
            </Form.Item>
          </Space>
          <Space wrap>
            <Form.Item name="windowFrom" label={t('smart.rules.between')}>
              <Input type="time" id="rule-from" />
            </Form.Item>
            <Form.Item name="windowTo" label=" ">
              <Input type="time" id="rule-to" aria-label={t('smart.rules.between')} />
            </Form.Item>
          </Space>
        </fieldset>
        <fieldset>
          <legend>{t('smart.rules.then')}</legend>
          <Form.List name="actions">
            {(fields, { add, remove }) => (
              <>
                {fields.map((field) => (
                  <Space key={field.key} align="baseline" wrap>
                    <Form.Item
                      name={[field.name, 'device']}
                      label={t('smart.rules.device')}
                      rules={[{ required: true, message: t('smart.rules.required') }]}
                    >
                      <Select style={{ minWidth: 200 }} id={`rule-device-${field.name}`} options={deviceOptions} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'on']} label=" ">
                      <Select
                        style={{ minWidth: 120 }}
                        aria-label={t('smart.rules.turnOn')}
                        options={[
                          { value: true, label: t('smart.rules.turnOn') },
                          { value: false, label: t('smart.rules.turnOff') },
                        ]}
                      />
                    </Form.Item>
                    {kindOf(actions?.[field.name]?.device) === 'light' && (
                      <Form.Item name={[field.name, 'brightness']} label={t('smart.brightness')}>
                        <InputNumber id={`rule-brightness-${field.name}`} min={0} max={100} precision={0} />
                      </Form.Item>
                    )}
                    {fields.length > 1 && (
                      <Button
                        type="text"
                        icon={<MinusCircleOutlined />}
                        aria-label={t('smart.rules.remove')}
                        onClick={() => remove(field.name)}
                      />
                    )}
                  </Space>
                ))}
                {fields.length < RULE_LIMITS.actionsMax && (
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ on: true, brightness: 80 })}>
                    {t('smart.rules.addAction')}
                  </Button>
                )}
              </>
            )}
          </Form.List>
        </fieldset>
        <Form.Item name="minIntervalMinutes" label={t('smart.rules.minInterval')} style={{ marginTop: 12 }}>
          <InputNumber id="rule-interval" min={RULE_LIMITS.minIntervalMinutesMin} max={RULE_LIMITS.minIntervalMinutesMax} precision={0} />
        </Form.Item>
        {switching && (
          <Form.Item
            name="password"
            label={t('smart.rules.password')}
            extra={t('smart.rules.passwordHint')}
            rules={[{ required: true, message: t('smart.rules.required') }]}
          >
            <Input.Password id="rule-password" autoComplete="current-password" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
