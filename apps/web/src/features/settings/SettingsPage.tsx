import type {
  SettingPair,
  SettingsDeviceRow,
  SettingsFamily,
  SettingsGroup,
  SettingsScope,
  WritableParam,
} from '@sunward/contracts/commands';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Drawer,
  Empty,
  Form,
  type FormRule,
  InputNumber,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { usePasswordPrompt } from '../../components/ConfirmPassword';
import { ListSearch, useListState } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { StatusTag } from '../../components/StatusTag';
import { ApiCallError } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { fetchSettingsDevices, settingsKeys, writeSettings } from './api';
import { settingsTexts } from './settings-texts';

registerTexts(settingsTexts);

/** While a write settles, the list follows the device's reports this often. */
const REFRESH_MS = 4000;

/** A family's text key: its path with the slashes as underscores. */
const familyKey = (family: SettingsFamily) => `settings.family.${family.replace(/\//g, '_')}` as const;

/** A setting's value as people read it: its choice's name, or the number with its unit. */
function shown(param: WritableParam, value: number | null | undefined, notReported: string): string {
  if (value === null || value === undefined) return notReported;
  const option = param.options?.find((o) => o.value === value);
  if (option) return option.label;
  return param.unit ? `${value} ${param.unit}` : String(value);
}

/**
 * The setting pages (spec 01 §2: /device/setting, /device/batt-setting and their plant forms under /plants):
 * the devices of the caller's plants whose protocol carries a settings family of the page's kind, with their
 * current settings; each family's form is generated from the protocol's group (ranges, units, choices), so a
 * protocol created in the console with a group shows its form without code. A write asks for the password
 * again, is refused while the device is offline or upgrading, and is shown once the device confirms it.
 */
function SettingsPage({ route, scope }: PageProps & { scope: SettingsScope }) {
  const { t } = useTranslation();
  const { has } = useSession();
  const allowed = has('inverter.setting');
  const list = useListState();
  const plantId = list.number('plantId');
  const keyword = list.text('keyword');
  const query = { scope, page: list.page, size: list.size, ...(plantId ? { plantId } : {}), ...(keyword ? { keyword } : {}) };
  const devices = useQuery({
    queryKey: settingsKeys.list(query),
    queryFn: () => fetchSettingsDevices(query),
    refetchInterval: REFRESH_MS,
    enabled: allowed,
  });
  const [openSn, setOpenSn] = useState<string | null>(null);
  const open = devices.data?.infos.find((d) => d.sn === openSn);
  const notReported = t('settings.notReported');
  const plantName = plantId ? devices.data?.infos[0]?.plantName : undefined;

  return (
    <div className="sw-settings-page" data-testid={`settings-page-${scope}`}>
      <PageTitle route={route} spaced />
      {!allowed && <Alert type="info" showIcon message={t('settings.readOnly')} style={{ marginBottom: 16 }} />}
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <ListSearch list={list} placeholder={t('settings.search')} testId="settings-search" />
          {plantId !== undefined && (
            <Space>
              <Tag>{plantName ? t('settings.plantOnly', { name: plantName }) : t('settings.plant')}</Tag>
              <Button type="link" onClick={() => list.update({ plantId: undefined })}>
                {t('settings.showAll')}
              </Button>
            </Space>
          )}
        </Space>
        <Table<SettingsDeviceRow>
          rowKey="sn"
          size="middle"
          loading={devices.isLoading}
          dataSource={devices.data?.infos ?? []}
          pagination={list.pagination(devices.data?.total, (total) => t('settings.total', { count: total }))}
          locale={{ emptyText: <Empty description={t('settings.empty')} /> }}
          scroll={{ x: 900 }}
          columns={[
            {
              title: t('settings.device'),
              key: 'device',
              width: 200,
              render: (_, row) => (
                <Space direction="vertical" size={0}>
                  <Typography.Text strong>{row.alias ?? row.sn}</Typography.Text>
                  {row.alias && <Typography.Text type="secondary">{row.sn}</Typography.Text>}
                </Space>
              ),
            },
            { title: t('settings.plant'), dataIndex: 'plantName', key: 'plant', width: 180, render: (name: string | null) => name ?? '—' },
            {
              title: t('settings.status'),
              dataIndex: 'status',
              key: 'status',
              width: 110,
              render: (status: number) => <StatusTag status={status} />,
            },
            {
              title: t('settings.current'),
              key: 'current',
              render: (_, row) => (
                <div data-testid={`settings-current-${row.sn}`}>
                  {row.groups.map((group) => (
                    <div key={group.family}>
                      <Typography.Text type="secondary">{t(familyKey(group.family))}: </Typography.Text>
                      {group.params.map((p) => `${p.label} ${shown(p, p.value, notReported)}`).join(' · ')}
                    </div>
                  ))}
                </div>
              ),
            },
            {
              title: t('settings.actions'),
              key: 'actions',
              width: 130,
              render: (_, row) => (
                <Button
                  onClick={() => setOpenSn(row.sn)}
                  aria-label={t('settings.openFor', { name: row.alias ?? row.sn })}
                  data-testid={`settings-open-${row.sn}`}
                >
                  {t('settings.open')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      <Drawer
        open={open !== undefined}
        onClose={() => setOpenSn(null)}
        width={560}
        title={open ? t('settings.openFor', { name: open.alias ?? open.sn }) : ''}
        destroyOnHidden
      >
        {open && <DeviceSettings device={open} />}
      </Drawer>
    </div>
  );
}

function DeviceSettings({ device }: { device: SettingsDeviceRow }) {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="settings-drawer">
      <StatusTag status={device.status} />
      <Typography.Text type="secondary">
        {device.lastReportAt ? t('settings.lastReport', { time: exactTime(device.lastReportAt, locale) }) : t('settings.noReport')}
      </Typography.Text>
      {!device.canWrite && <Alert type="info" showIcon message={t('settings.readOnly')} />}
      {device.groups.map((group) => (
        <GroupForm key={group.family} device={device} group={group} />
      ))}
    </Space>
  );
}

/**
 * Spec 02 §5, checked before anything is sent (the server checks the same, 4430): a paired value the user
 * changed is a positive integer, and a pair with a half changed is in order: open above closed for an
 * over-limit, closed above open for an under-limit. The message goes on the closed value.
 */
function pairRules(
  param: WritableParam,
  group: SettingsGroup,
  t: (key: 'settings.positiveInteger' | 'settings.pairAbove' | 'settings.pairBelow', params?: Record<string, unknown>) => string,
): FormRule[] {
  const pair = group.pairs.find((p) => p.open === param.id || p.closed === param.id);
  if (!pair) return [];
  const reported = (id: string) => group.params.find((p) => p.id === id)?.value;
  const rules: FormRule[] = [
    {
      validator: async (_, value: unknown) => {
        if (typeof value === 'number' && value !== param.value && !(Number.isInteger(value) && value > 0))
          throw new Error(t('settings.positiveInteger'));
      },
    },
  ];
  if (param.id === pair.closed)
    rules.push(({ getFieldValue }) => ({
      validator: async (_, closed: unknown) => {
        const open: unknown = getFieldValue(pair.open);
        if (typeof open !== 'number' || typeof closed !== 'number') return;
        if (open === reported(pair.open) && closed === reported(pair.closed)) return;
        if (pair.trip === 'above' ? open <= closed : closed <= open)
          throw new Error(t(pair.trip === 'above' ? 'settings.pairAbove' : 'settings.pairBelow', { open, closed }));
      },
    }));
  return rules;
}

/** The form's rows: a paired limit's open and closed values side by side, every other point on its own. */
type FormRow = WritableParam | { pair: SettingPair; open: WritableParam; closed: WritableParam };

function formRows(group: SettingsGroup): FormRow[] {
  const byId = new Map(group.params.map((p) => [p.id, p]));
  const closedIds = new Set(group.pairs.map((pair) => pair.closed));
  return group.params.flatMap((param): FormRow[] => {
    const pair = group.pairs.find((p) => p.open === param.id);
    const closed = pair ? byId.get(pair.closed) : undefined;
    if (pair && closed) return [{ pair, open: param, closed }];
    return closedIds.has(param.id) && group.pairs.some((p) => p.closed === param.id && byId.has(p.open)) ? [] : [param];
  });
}

/** One family's form, generated from the protocol's group: a choice list for enumerations, a number within range else. */
function GroupForm({ device, group }: { device: SettingsDeviceRow; group: SettingsGroup }) {
  const { t } = useTranslation();
  const { has } = useSession();
  const queryClient = useQueryClient();
  const askPassword = usePasswordPrompt();
  const [form] = Form.useForm<Record<string, number | null>>();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const notReported = t('settings.notReported');
  const writable = device.canWrite && has('inverter.setting');

  // The device's values fill the form when they arrive, never over what the user is typing.
  useEffect(() => {
    if (!form.isFieldsTouched()) form.setFieldsValue(Object.fromEntries(group.params.map((p) => [p.id, p.value])));
  }, [group.params, form]);

  const write = useMutation({
    mutationFn: async (values: Record<string, number>) => {
      const password = await askPassword(t('settings.confirmTitle', { name: device.alias ?? device.sn }), t('settings.confirmText'));
      if (password === undefined) return undefined;
      return { values, result: await writeSettings(group.family, { sn: device.sn, values, password }) };
    },
    onSuccess: (done) => {
      if (!done) return;
      const confirmed = Object.entries(done.result.values ?? done.values)
        .flatMap(([id, value]) => {
          const param = group.params.find((p) => p.id === id);
          return param && typeof value === 'number' ? [`${param.label} ${shown(param, value, notReported)}`] : [];
        })
        .join(', ');
      setOutcome(
        done.result.message ? { ok: false, text: done.result.message } : { ok: true, text: t('settings.confirmed', { values: confirmed }) },
      );
      form.resetFields();
      form.setFieldsValue({ ...Object.fromEntries(group.params.map((p) => [p.id, p.value])), ...done.values });
      void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    },
    onError: (error) => setOutcome({ ok: false, text: error instanceof ApiCallError ? error.message : String(error) }),
  });

  /** A point's field: a choice list for enumerations, a number within its range (and its pair's rules) else. */
  const item = (p: WritableParam, options: { dependencies?: string[]; hint?: string } = {}) => {
    const range = p.options || (p.min === null && p.max === null) ? undefined : t('settings.range', { min: p.min ?? '', max: p.max ?? '' });
    return (
      <Form.Item
        key={p.id}
        name={p.id}
        label={p.unit ? `${p.label} (${p.unit})` : p.label}
        extra={options.hint && range ? `${options.hint} ${range}` : (options.hint ?? range)}
        dependencies={options.dependencies}
        rules={[
          {
            type: 'number',
            min: p.min ?? undefined,
            max: p.max ?? undefined,
            message: t('settings.range', { min: p.min ?? '', max: p.max ?? '' }),
          },
          ...pairRules(p, group, t),
        ]}
      >
        {p.options ? (
          <Select options={p.options} data-testid={`setting-${p.id}`} />
        ) : (
          // No min/max on the box: a value outside the range stays as typed and the rule explains it.
          <InputNumber style={{ width: '100%' }} data-testid={`setting-${p.id}`} />
        )}
      </Form.Item>
    );
  };

  const familyTitle = t(familyKey(group.family));
  return (
    <Card size="small" title={familyTitle} data-testid={`settings-group-${group.family}`}>
      <Form
        form={form}
        layout="vertical"
        disabled={!writable || write.isPending}
        onFinish={(values) => {
          // Only what the user changed is written.
          const changed = Object.fromEntries(
            Object.entries(values).filter(
              (e): e is [string, number] => typeof e[1] === 'number' && group.params.find((p) => p.id === e[0])?.value !== e[1],
            ),
          );
          if (Object.keys(changed).length === 0) {
            setOutcome({ ok: false, text: t('settings.nothingChanged') });
            return;
          }
          setOutcome(null);
          write.mutate(changed);
        }}
      >
        {formRows(group).map((row) =>
          'pair' in row ? (
            <Row key={row.open.id} gutter={12} data-testid={`setting-pair-${row.open.id}`}>
              <Col span={12}>{item(row.open)}</Col>
              <Col span={12}>
                {item(row.closed, {
                  dependencies: [row.open.id],
                  hint: t(row.pair.trip === 'above' ? 'settings.closesBelow' : 'settings.closesAbove'),
                })}
              </Col>
            </Row>
          ) : (
            item(row)
          ),
        )}
        {outcome && (
          <Alert
            type={outcome.ok ? 'success' : 'error'}
            showIcon
            message={outcome.text}
            style={{ marginBottom: 12 }}
            data-testid={outcome.ok ? 'settings-confirmed' : 'settings-refused'}
          />
        )}
        <Button type="primary" htmlType="submit" loading={write.isPending} data-testid={`settings-write-${group.family}`}>
          {t('settings.write')}
        </Button>
      </Form>
    </Card>
  );
}

/** /device/setting and /plants/device/setting: inverters, heat pumps, switches and every non-battery family. */
export function DeviceSettingsPage(props: PageProps) {
  return <SettingsPage {...props} scope="device" />;
}

/** /device/batt-setting and /plants/batt-setting: battery packs and the storage settings of hybrid inverters. */
export function BatterySettingsPage(props: PageProps) {
  return <SettingsPage {...props} scope="battery" />;
}
