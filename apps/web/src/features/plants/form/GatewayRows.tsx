import { CheckCircleFilled, DeleteOutlined, PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { type GatewayBinding, PLANT_LIMITS } from '@sunward/contracts/plants';
import { Badge, Button, Form, type FormInstance, Input, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../../lib/api-client';
import { checkGateway, validationIssues } from './api';
import { checkKey, type GatewayCheckState, gatewayRefusalField } from './gateway-checks';
import type { GatewayRowValues } from './plant-form-values';

import { requiredRule, serialRule } from './rules';

/** Live gateway checks of the wizard's first step. */
export function useGatewayChecks(form: FormInstance) {
  const [states, setStates] = useState<Record<string, GatewayCheckState>>({});

  const check = useCallback(
    async (rowName: number) => {
      const namePath = (field: 'sn' | 'key') => ['gateways', rowName, field];
      try {
        await form.validateFields([namePath('sn'), namePath('key')]);
      } catch {
        return false;
      }
      const row = form.getFieldValue(['gateways', rowName]) as GatewayRowValues;
      const binding: GatewayBinding = { sn: row.sn ?? '', key: row.key ?? '' };
      const id = checkKey(binding);
      setStates((s) => ({ ...s, [id]: { status: 'checking' } }));
      try {
        const result = await checkGateway(binding);
        setStates((s) => ({ ...s, [id]: { status: 'ok', ...result } }));
        return true;
      } catch (error) {
        if (!(error instanceof ApiCallError)) {
          setStates(({ [id]: _, ...rest }) => rest);
          return false;
        }
        const issues = validationIssues(error);
        const message = issues[0]?.message ?? error.message;
        setStates((s) => ({ ...s, [id]: { status: 'refused', message } }));
        form.setFields(
          issues.length
            ? issues.map((issue) => ({ name: namePath(issue.field === 'key' ? 'key' : 'sn'), errors: [issue.message] }))
            : [{ name: namePath(gatewayRefusalField(error.code)), errors: [message] }],
        );
        return false;
      }
    },
    [form],
  );

  return { states, check };
}

export type GatewayChecks = ReturnType<typeof useGatewayChecks>;

function RowStatus({ state }: { state: GatewayCheckState | undefined }) {
  const { t } = useTranslation();
  if (state?.status === 'ok') {
    return (
      <div className="sw-pf-gw-status" data-testid="gateway-check-ok">
        <CheckCircleFilled className="sw-pf-ok-icon" />
        <Typography.Text>{t('plantform.gatewayReady')}</Typography.Text>
        <Badge
          status={state.online ? 'success' : 'default'}
          text={state.online ? t('plantform.gatewayOnline') : t('plantform.gatewayOffline')}
          data-online={state.online}
        />
        <Typography.Text type="secondary">{t('plantform.deviceCount', { count: state.deviceCount })}</Typography.Text>
      </div>
    );
  }
  if (state?.status === 'checking' || state?.status === 'refused') return null;
  return (
    <Typography.Text type="secondary" className="sw-pf-gw-status">
      {t('plantform.gatewayUnchecked')}
    </Typography.Text>
  );
}

/** Step 1: gateway serial number and key rows, each checked live against the registry. */
export function GatewayRows({ form, checks }: { form: FormInstance; checks: GatewayChecks }) {
  const { t } = useTranslation();
  const rows = Form.useWatch<GatewayRowValues[] | undefined>('gateways', form);

  return (
    <Form.List name="gateways">
      {(fields, { add, remove }) => (
        <div className="sw-pf-gateways" data-testid="gateway-rows">
          {fields.map((field, index) => {
            const row = rows?.[field.name];
            const state = row?.sn && row.key ? checks.states[checkKey(row)] : undefined;
            return (
              <div key={field.key} className="sw-pf-gw-row" data-testid={`gateway-row-${index}`}>
                <div className="sw-pf-gw-inputs">
                  <Form.Item
                    name={[field.name, 'sn']}
                    label={t('plantform.gatewaySn')}
                    rules={[
                      requiredRule(t),
                      serialRule,
                      ({ getFieldValue }) => ({
                        validator: (_, value: string | undefined) => {
                          const all = (getFieldValue('gateways') ?? []) as GatewayRowValues[];
                          const duplicate = value && all.some((other, i) => i !== field.name && other?.sn === value);
                          return duplicate ? Promise.reject(new Error(t('plantform.gatewayDuplicate'))) : Promise.resolve();
                        },
                      }),
                    ]}
                    className="sw-pf-gw-sn"
                  >
                    <Input placeholder={t('plantform.gatewaySnPlaceholder')} autoComplete="off" data-testid="gateway-sn" />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'key']}
                    label={t('plantform.gatewayKey')}
                    rules={[requiredRule(t), serialRule]}
                    className="sw-pf-gw-key"
                  >
                    <Input
                      placeholder={t('plantform.gatewayKeyPlaceholder')}
                      autoComplete="off"
                      data-testid="gateway-key"
                      onPressEnter={(event) => {
                        event.preventDefault();
                        void checks.check(field.name);
                      }}
                    />
                  </Form.Item>
                  <Form.Item label=" " colon={false} className="sw-pf-gw-actions">
                    <Button
                      icon={<SafetyCertificateOutlined />}
                      loading={state?.status === 'checking'}
                      onClick={() => void checks.check(field.name)}
                      data-testid="gateway-check"
                    >
                      {t('plantform.check')}
                    </Button>
                    {fields.length > 1 && (
                      <Button
                        type="text"
                        icon={<DeleteOutlined />}
                        aria-label={t('plantform.removeGateway')}
                        title={t('plantform.removeGateway')}
                        onClick={() => remove(field.name)}
                      />
                    )}
                  </Form.Item>
                </div>
                <RowStatus state={state} />
              </div>
            );
          })}
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            onClick={() => add({ sn: '', key: '' })}
            disabled={fields.length >= PLANT_LIMITS.gatewaysPerPlantMax}
            data-testid="gateway-add"
          >
            {t('plantform.addGateway')}
          </Button>
          {fields.length >= PLANT_LIMITS.gatewaysPerPlantMax && (
            <Typography.Text type="secondary" className="sw-pf-hint">
              {t('plantform.gatewayLimit', { max: PLANT_LIMITS.gatewaysPerPlantMax })}
            </Typography.Text>
          )}
        </div>
      )}
    </Form.List>
  );
}
