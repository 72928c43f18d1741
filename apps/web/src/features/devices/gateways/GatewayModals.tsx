import { GATEWAY_SN_PATTERN } from '@sunward/contracts/gateway-protocol';
import { type GatewayRow, SERVER_HOST_PATTERN } from '@sunward/contracts/gateways';
import { hasSpace, isPlainText, isWifiPassword } from '@sunward/contracts/validators';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exactTime } from '../../../lib/format';
import { fetchServerAddress, gatewayKeys, refusalMessage, replaceGateway, setConnectionPassword, setServerAddress } from './api';

interface ModalProps {
  row: GatewayRow;
  locale: string;
  onClose(): void;
}

/** Sends a setting and keeps the dialog open with the server's words when the gateway refuses or is silent. */
function useSetting<A>(send: (args: A) => Promise<unknown>, done: string, onClose: () => void) {
  const { message } = App.useApp();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string>();
  const mutation = useMutation({
    mutationFn: send,
    onMutate: () => setRefusal(undefined),
    onSuccess: () => {
      void message.success(done);
      void queryClient.invalidateQueries({ queryKey: gatewayKeys.all });
      onClose();
    },
    onError: (error) => setRefusal(refusalMessage(error) ?? t('gateways.requestFailed')),
  });
  return { mutation, refusal };
}

/** The server address the gateway confirmed, and a form to apply another over the protocol. */
export function ServerAddressModal({ row, onClose }: ModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ host: string; port: number }>();
  const current = useQuery({ queryKey: gatewayKeys.serverAddress(row.id), queryFn: () => fetchServerAddress(row.id) });
  const { mutation, refusal } = useSetting(
    (v: { host: string; port: number }) => setServerAddress(row.id, v.host.trim(), v.port),
    t('gateways.applied'),
    onClose,
  );
  return (
    <Modal
      open
      title={t('gateways.serverTitle', { sn: row.sn })}
      okText={t('gateways.apply')}
      cancelText={t('gateways.cancel')}
      okButtonProps={{ loading: mutation.isPending, id: 'server-address-apply' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('gateways.serverHint')}</Typography.Paragraph>
      {refusal && <Alert type="error" showIcon title={refusal} className="sw-gateway-import-alert" data-testid="setting-refusal" />}
      {current.data && (
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ host: current.data.host ?? '', port: current.data.port ?? 1883 }}
          onFinish={(v) => mutation.mutate(v)}
        >
          <Form.Item
            name="host"
            label={t('gateways.host')}
            rules={[{ required: true, pattern: SERVER_HOST_PATTERN, message: t('gateways.hostInvalid') }]}
          >
            <Input placeholder="iot.example.com" data-testid="server-host" />
          </Form.Item>
          <Form.Item
            name="port"
            label={t('gateways.port')}
            rules={[{ required: true, type: 'integer', min: 1, max: 65535, message: t('gateways.portInvalid') }]}
          >
            <InputNumber min={1} max={65535} precision={0} style={{ width: 160 }} data-testid="server-port" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** The Wi-Fi / Bluetooth password: sent to the gateway, never stored; only the time it was set is shown. */
export function ConnectionPasswordModal({ row, locale, onClose }: ModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const { mutation, refusal } = useSetting(
    (v: { password: string }) => setConnectionPassword(row.id, v.password),
    t('gateways.passwordSet'),
    onClose,
  );
  return (
    <Modal
      open
      title={t('gateways.passwordTitle', { sn: row.sn })}
      okText={t('gateways.apply')}
      cancelText={t('gateways.cancel')}
      okButtonProps={{ loading: mutation.isPending, id: 'password-apply' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('gateways.passwordHint')}</Typography.Paragraph>
      {row.connectionPasswordAt && (
        <Typography.Paragraph>{t('gateways.passwordSetAt', { time: exactTime(row.connectionPasswordAt, locale) })}</Typography.Paragraph>
      )}
      {refusal && <Alert type="error" showIcon title={refusal} className="sw-gateway-import-alert" data-testid="setting-refusal" />}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => mutation.mutate(v)}>
        <Form.Item
          name="password"
          label={t('gateways.password')}
          extra={t('gateways.passwordRule')}
          rules={[
            {
              required: true,
              validator: async (_, v: string | undefined) =>
                v && isWifiPassword(v) ? undefined : Promise.reject(new Error(t('gateways.passwordRule'))),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="connection-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Another gateway takes this one's plant, alias and devices (history stays with the devices). */
export function ReplaceGatewayModal({ row, onClose }: ModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ newSn: string; newKey: string }>();
  const [refusal, setRefusal] = useState<string>();
  const replace = useMutation({
    mutationFn: (v: { newSn: string; newKey: string }) => replaceGateway(row.id, v.newSn.trim(), v.newKey),
    onMutate: () => setRefusal(undefined),
    onSuccess: (result) => {
      void message.success(t('gateways.replaced', { sn: result.sn, count: result.movedDevices }));
      void queryClient.invalidateQueries({ queryKey: gatewayKeys.all });
      onClose();
    },
    onError: (error) => setRefusal(refusalMessage(error) ?? t('gateways.requestFailed')),
  });
  return (
    <Modal
      open
      title={t('gateways.replaceTitle', { sn: row.sn })}
      okText={t('gateways.replace')}
      cancelText={t('gateways.cancel')}
      okButtonProps={{ loading: replace.isPending, id: 'replace-apply' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('gateways.replaceHint')}</Typography.Paragraph>
      {refusal && <Alert type="error" showIcon title={refusal} className="sw-gateway-import-alert" data-testid="setting-refusal" />}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => replace.mutate(v)}>
        <Form.Item
          name="newSn"
          label={t('gateways.newSn')}
          rules={[{ required: true, pattern: GATEWAY_SN_PATTERN, message: t('gateways.snRule') }]}
        >
          <Input data-testid="replace-sn" />
        </Form.Item>
        <Form.Item
          name="newKey"
          label={t('gateways.newKey')}
          rules={[
            {
              required: true,
              validator: async (_, v: string | undefined) =>
                v && !hasSpace(v) && isPlainText(v) ? undefined : Promise.reject(new Error(t('gateways.keyRule'))),
            },
          ]}
        >
          <Input data-testid="replace-key" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
