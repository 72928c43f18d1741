import type { DeviceRow, MeterSettings } from '@sunward/contracts/devices';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, InputNumber, Space, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceKeys, fetchMeterSettings, saveMeterSettings, setMainMeter } from '../api';

/** A meter's main-meter flag (one per plant) and its settings: CT/PT ratio, offsets, period prices, discount. */
export function MeterPanel({ device, canEdit }: { device: DeviceRow; canEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<MeterSettings>();
  const settings = useQuery({ queryKey: deviceKeys.meterSettings(device.sn), queryFn: () => fetchMeterSettings(device.sn) });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: deviceKeys.kind('meter') });
  const main = useMutation({
    mutationFn: (value: boolean) => setMainMeter(device.id, value),
    onSuccess: () => {
      void message.success(t('devices.saved'));
      void refresh();
    },
  });
  const save = useMutation({
    mutationFn: (values: Partial<MeterSettings>) => saveMeterSettings(device.id, completeSettings(values)),
    onSuccess: () => {
      void message.success(t('devices.saved'));
      void refresh();
    },
  });
  const number = (name: (string | number)[], label: string, props: { min: number; max: number; step?: number; precision?: number }) => (
    <Form.Item name={name} label={label} rules={[{ type: 'number', min: props.min, max: props.max, message: t('devices.range', props) }]}>
      <InputNumber style={{ width: '100%' }} disabled={!canEdit} {...props} />
    </Form.Item>
  );
  return (
    <Card title={t('devices.meterSettings')} data-testid="meter-panel">
      <Space style={{ marginBottom: 16 }}>
        <Switch
          checked={device.mainMeter}
          disabled={!canEdit || device.plantId === null}
          loading={main.isPending}
          onChange={(v) => main.mutate(v)}
          data-testid="main-meter-switch"
        />
        <Typography.Text>{t('devices.mainMeterSwitch')}</Typography.Text>
      </Space>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => save.mutate(values)}
        className="sw-meter-form"
        initialValues={settings.data}
      >
        {number(['ctRatio'], t('devices.ctRatio'), { min: 0.001, max: 100_000 })}
        {number(['ptRatio'], t('devices.ptRatio'), { min: 0.001, max: 100_000 })}
        {number(['buyOffsetKwh'], t('devices.buyOffset'), { min: -9_999_999, max: 9_999_999, precision: 2 })}
        {number(['sellOffsetKwh'], t('devices.sellOffset'), { min: -9_999_999, max: 9_999_999, precision: 2 })}
        {(['tip', 'peak', 'flat', 'valley'] as const).map((p) =>
          number(['prices', p], t(`devices.price.${p}`), { min: 0, max: 9999, precision: 2 }),
        )}
        {number(['discount'], t('devices.discount'), { min: 0, max: 1, step: 0.05, precision: 2 })}
        {canEdit && (
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="meter-save">
            {t('devices.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}

/** Empty fields are sent as null (not set), as the server expects every field. */
function completeSettings(v: Partial<MeterSettings>): MeterSettings {
  const p = v.prices;
  return {
    ctRatio: v.ctRatio ?? null,
    ptRatio: v.ptRatio ?? null,
    buyOffsetKwh: v.buyOffsetKwh ?? null,
    sellOffsetKwh: v.sellOffsetKwh ?? null,
    prices: { tip: p?.tip ?? null, peak: p?.peak ?? null, flat: p?.flat ?? null, valley: p?.valley ?? null },
    discount: v.discount ?? null,
  };
}
