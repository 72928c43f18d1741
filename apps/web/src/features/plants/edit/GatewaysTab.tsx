import { LinkOutlined, ReloadOutlined } from '@ant-design/icons';
import { type GatewayBinding, PLANT_LIMITS, type PlantGateway } from '@sunward/contracts/plants';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, Empty, Form, Input, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { bindGateway, fetchPlantGateways, plantFormKeys, validationIssues } from '../form/api';
import { gatewayRefusalField } from '../form/gateway-checks';
import { requiredRule, serialRule } from '../form/rules';

function formatMoment(iso: string | null, never: string): string {
  if (!iso) return never;
  return new Intl.DateTimeFormat(currentLanguage() === 'cn' ? 'zh-CN' : undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}

/** The Gateways tab: what is bound (with its state), and binding one more with SN and key. */
export function GatewaysTab({ plantId, readOnly }: { plantId: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const gateways = useQuery({
    queryKey: plantFormKeys.gateways(plantId),
    queryFn: () => fetchPlantGateways(plantId),
    refetchInterval: 30_000,
  });
  const count = gateways.data?.length ?? 0;

  const columns: TableColumnsType<PlantGateway> = [
    { title: t('plantform.colSn'), dataIndex: 'sn', render: (sn: string) => <Typography.Text copyable>{sn}</Typography.Text> },
    { title: t('plantform.alias'), dataIndex: 'alias', render: (alias: string | null) => alias ?? '--' },
    {
      title: t('plantform.colState'),
      dataIndex: 'online',
      render: (online: boolean) => (
        <Badge status={online ? 'success' : 'default'} text={online ? t('plantform.gatewayOnline') : t('plantform.gatewayOffline')} />
      ),
    },
    { title: t('plantform.colDevices'), dataIndex: 'deviceCount', align: 'right' },
    {
      title: t('plantform.colSignal'),
      dataIndex: 'rssi',
      align: 'right',
      render: (rssi: number | null) => (rssi === null ? '--' : `${rssi} dBm`),
    },
    { title: t('plantform.colFirmware'), dataIndex: 'fwVersion', render: (v: string | null) => v ?? '--' },
    {
      title: t('plantform.colLastOnline'),
      dataIndex: 'lastOnlineAt',
      render: (at: string | null) => formatMoment(at, t('plantform.never')),
    },
  ];

  return (
    <div className="sw-pf-gateway-tab">
      <div className="sw-pf-tab-head">
        <Typography.Text type="secondary">{t('plantform.gatewayCount', { count, max: PLANT_LIMITS.gatewaysPerPlantMax })}</Typography.Text>
        <Button icon={<ReloadOutlined />} onClick={() => void gateways.refetch()} loading={gateways.isFetching}>
          {t('plantform.refresh')}
        </Button>
      </div>
      <Table<PlantGateway>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={gateways.data}
        loading={gateways.isPending}
        pagination={false}
        scroll={{ x: 760 }}
        locale={{ emptyText: <Empty description={t('plantform.gatewayListEmpty')} /> }}
        data-testid="plant-gateways"
      />
      {!readOnly && count < PLANT_LIMITS.gatewaysPerPlantMax && <BindGatewayForm plantId={plantId} />}
    </div>
  );
}

function BindGatewayForm({ plantId }: { plantId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<GatewayBinding>();
  const [binding, setBinding] = useState(false);

  const bind = async (values: GatewayBinding) => {
    setBinding(true);
    try {
      await bindGateway(plantId, values);
      void message.success(t('plantform.gatewayBound', { sn: values.sn }));
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: ['plants'] });
    } catch (error) {
      if (!(error instanceof ApiCallError)) return;
      const issues = validationIssues(error);
      form.setFields(
        issues.length
          ? issues.map((i) => ({ name: i.field === 'key' ? 'key' : 'sn', errors: [i.message] }))
          : [{ name: gatewayRefusalField(error.code), errors: [error.message] }],
      );
    } finally {
      setBinding(false);
    }
  };

  return (
    <Card size="small" title={t('plantform.bindTitle')} className="sw-gap-top">
      <Form form={form} layout="inline" onFinish={(values) => void bind(values)} className="sw-pf-bind" data-testid="bind-gateway-form">
        <Form.Item name="sn" rules={[requiredRule(t), serialRule]}>
          <Input placeholder={t('plantform.gatewaySn')} autoComplete="off" data-testid="bind-sn" />
        </Form.Item>
        <Form.Item name="key" rules={[requiredRule(t), serialRule]}>
          <Input placeholder={t('plantform.gatewayKey')} autoComplete="off" data-testid="bind-key" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<LinkOutlined />} loading={binding} data-testid="bind-submit">
            {t('plantform.bindGateway')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
