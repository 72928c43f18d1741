import { PoweroffOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { type CommandResult, CommandResultSchema, type WritableParam, WritableParamSchema } from '@sunward/contracts/commands';
import type { DeviceRow } from '@sunward/contracts/devices';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Descriptions, Form, Input, InputNumber, Row, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useSession } from '../../../app/session';
import { usePasswordPrompt } from '../../../components/ConfirmPassword';
import { ApiCallError, apiRequest } from '../../../lib/api-client';
import { deviceKeys } from '../api';
import { DeviceUpgrade } from './UpgradePanel';

/** Codes a command's screen explains itself (offline, upgrading, wrong password, cap, timeout, range). */
const COMMAND_REFUSALS = [1, 4, 135, 601, 603, 604, 708, 709];

const newKey = () => crypto.randomUUID();

function sendCommand(sn: string, path: string, body: Record<string, unknown>) {
  return apiRequest(`/api/v1/inverter/${encodeURIComponent(sn)}/${path}`, {
    method: 'POST',
    json: body,
    schema: CommandResultSchema,
    tolerate: COMMAND_REFUSALS,
  });
}

/**
 * Remote control of an inverter (spec 01 §7): boot and shutdown, its writable parameters read and
 * written (confirmed by the device), and a raw Modbus debug console. Each command has its own
 * idempotency key, so a double click or a retry runs it once; refusals are shown as the server words them.
 */
export function RemoteControl({ device }: { device: DeviceRow }) {
  const { t } = useTranslation();
  const { has } = useSession();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const askPassword = usePasswordPrompt();
  const [last, setLast] = useState<{ result?: CommandResult; error?: string } | null>(null);
  const canOperate = device.access !== 'view';

  const command = useMutation({
    mutationFn: async ({ path, body, destructive }: { path: string; body: Record<string, unknown>; destructive: boolean }) => {
      const password = destructive ? await askPassword(t('devices.confirmTitle'), t('devices.confirmPassword')) : undefined;
      if (destructive && password === undefined) return undefined;
      return sendCommand(device.sn, path, { ...body, idempotencyKey: newKey(), ...(password === undefined ? {} : { password }) });
    },
    onSuccess: (result) => {
      if (!result) return;
      setLast({ result });
      void message.success(result.message ?? t('devices.commandDone'));
      void queryClient.invalidateQueries({ queryKey: deviceKeys.realtime('inverter', device.sn) });
    },
    onError: (error) => setLast({ error: error instanceof ApiCallError ? error.message : t('devices.saveFailed') }),
  });

  if (!has('inverter.control') && !has('inverter.setting') && !has('inverter.debug') && !has('inverter.upgrade')) return null;
  return (
    <Card title={t('devices.remoteTitle')} data-testid="remote-control">
      {!canOperate && <Alert type="info" showIcon message={t('devices.remoteReadOnly')} style={{ marginBottom: 12 }} />}
      <Row gutter={[24, 16]}>
        {has('inverter.control') && (
          <Col xs={24} lg={8}>
            <Typography.Title level={5}>{t('devices.power')}</Typography.Title>
            <Space>
              <Button
                icon={<ThunderboltOutlined />}
                disabled={!canOperate}
                loading={command.isPending && command.variables?.path === 'boot'}
                onClick={() => command.mutate({ path: 'boot', body: {}, destructive: false })}
                data-testid="command-boot"
              >
                {t('devices.boot')}
              </Button>
              <Button
                danger
                icon={<PoweroffOutlined />}
                disabled={!canOperate}
                loading={command.isPending && command.variables?.path === 'shutdown'}
                onClick={() => command.mutate({ path: 'shutdown', body: {}, destructive: true })}
                data-testid="command-shutdown"
              >
                {t('devices.shutdown')}
              </Button>
            </Space>
          </Col>
        )}
        {has('inverter.setting') && (
          <Col xs={24} lg={16}>
            <ParamsForm
              sn={device.sn}
              disabled={!canOperate || command.isPending}
              onWrite={(params) => command.mutate({ path: 'custom/params', body: { params }, destructive: true })}
            />
          </Col>
        )}
        {has('inverter.upgrade') && (
          <Col xs={24}>
            <DeviceUpgrade target="inverter" sn={device.sn} canOperate={canOperate} busy={command.isPending} embedded />
          </Col>
        )}
        {has('inverter.debug') && (
          <Col xs={24}>
            <DebugConsole
              disabled={!canOperate || command.isPending}
              onSend={(body, write) => command.mutate({ path: 'debug', body, destructive: write })}
            />
          </Col>
        )}
      </Row>
      {last && (
        <div className="sw-command-result" data-testid="command-result">
          {last.error ? (
            <Alert type="error" showIcon message={last.error} />
          ) : last.result ? (
            <Descriptions size="small" column={1} bordered>
              <Descriptions.Item label={t('devices.commandStatus')}>{t(`devices.commandStatus.${last.result.status}`)}</Descriptions.Item>
              {last.result.hex && (
                <Descriptions.Item label={t('devices.registers')}>{last.result.hex.match(/.{4}/g)?.join(' ')}</Descriptions.Item>
              )}
              {last.result.values && (
                <Descriptions.Item label={t('devices.decoded')}>
                  {Object.entries(last.result.values)
                    .map(([k, v]) => `${k} = ${v}`)
                    .join(', ')}
                </Descriptions.Item>
              )}
            </Descriptions>
          ) : null}
        </div>
      )}
    </Card>
  );
}

function ParamsForm({ sn, disabled, onWrite }: { sn: string; disabled: boolean; onWrite(params: Record<string, number>): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, number | null>>();
  const params = useQuery({
    queryKey: ['devices', 'inverter', 'params', sn],
    queryFn: () => apiRequest(`/api/v1/inverter/${encodeURIComponent(sn)}/custom/params`, { schema: z.array(WritableParamSchema) }),
  });
  const list: WritableParam[] = params.data ?? [];
  // The device's values fill the form when they arrive, never over what the user is typing.
  useEffect(() => {
    if (params.data && !form.isFieldsTouched()) form.setFieldsValue(Object.fromEntries(params.data.map((p) => [p.id, p.value])));
  }, [params.data, form]);
  return (
    <>
      <Typography.Title level={5}>{t('devices.parameters')}</Typography.Title>
      <Form
        form={form}
        layout="vertical"
        className="sw-params-form"
        onFinish={(values) => {
          // Only what the user changed is written.
          const changed = Object.fromEntries(
            Object.entries(values).filter(
              (e): e is [string, number] => typeof e[1] === 'number' && list.find((p) => p.id === e[0])?.value !== e[1],
            ),
          );
          if (Object.keys(changed).length > 0) onWrite(changed);
        }}
      >
        {list.map((p) => (
          <Form.Item
            key={p.id}
            name={p.id}
            label={p.unit ? `${p.label} (${p.unit})` : p.label}
            rules={[
              {
                type: 'number',
                min: p.min ?? undefined,
                max: p.max ?? undefined,
                message: t('devices.range', { min: p.min ?? '', max: p.max ?? '' }),
              },
            ]}
          >
            {p.options ? (
              <Select disabled={disabled} options={p.options} data-testid={`param-${p.id}`} />
            ) : (
              <InputNumber
                disabled={disabled}
                min={p.min ?? undefined}
                max={p.max ?? undefined}
                style={{ width: '100%' }}
                data-testid={`param-${p.id}`}
              />
            )}
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" disabled={disabled || list.length === 0} data-testid="params-write">
          {t('devices.writeParams')}
        </Button>
      </Form>
    </>
  );
}

function DebugConsole({ disabled, onSend }: { disabled: boolean; onSend(body: Record<string, unknown>, write: boolean): void }) {
  const { t } = useTranslation();
  const [fc, setFc] = useState(3);
  const [addr, setAddr] = useState<number | null>(40000);
  const [count, setCount] = useState<number | null>(1);
  const [hex, setHex] = useState('');
  const write = fc >= 5;
  const hexValid = /^([0-9a-fA-F]{4})+$/.test(hex);
  return (
    <>
      <Typography.Title level={5}>{t('devices.debugTitle')}</Typography.Title>
      <Space wrap align="end">
        <Select
          aria-label={t('devices.debugTitle')}
          value={fc}
          onChange={setFc}
          style={{ width: 240 }}
          options={[1, 2, 3, 4, 5, 6, 15, 16].map((code) => ({ value: code, label: t(`devices.fc.${code}`) }))}
          data-testid="debug-fc"
        />
        <InputNumber
          value={addr}
          onChange={setAddr}
          min={0}
          max={65535}
          addonBefore={t('devices.address')}
          aria-label={t('devices.address')}
          data-testid="debug-addr"
        />
        {write ? (
          <Input
            value={hex}
            onChange={(e) => setHex(e.target.value.trim())}
            status={hex && !hexValid ? 'error' : undefined}
            placeholder="00320064"
            addonBefore={t('devices.hexValues')}
            aria-label={t('devices.hexValues')}
            style={{ width: 260 }}
            data-testid="debug-hex"
          />
        ) : (
          <InputNumber
            value={count}
            onChange={setCount}
            min={1}
            max={125}
            addonBefore={t('devices.count')}
            aria-label={t('devices.count')}
            data-testid="debug-count"
          />
        )}
        <Button
          type="primary"
          disabled={disabled || addr === null || (write ? !hexValid : count === null)}
          onClick={() => onSend(write ? { fc, addr, hex } : { fc, addr, count }, write)}
          data-testid="debug-send"
        >
          {t('devices.send')}
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('devices.debugHint')}
      </Typography.Paragraph>
    </>
  );
}
