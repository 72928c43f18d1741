import { PLANT_LIMITS, type PricingMethodValue } from '@sunward/contracts/plants';
import { useQuery } from '@tanstack/react-query';
import { Col, Form, type FormInstance, InputNumber, Radio, Row, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchDict, plantFormKeys } from './api';
import { moneyRule, priceRule, requiredRule } from './rules';
import { TouEditor } from './TouEditor';
import { initialTouRows, type TouRow } from './tou';

const METHOD_LABELS: Record<PricingMethodValue, { label: string; hint: string }> = {
  constant: { label: 'plantform.pricingConstant', hint: 'plantform.pricingConstantHint' },
  tou: { label: 'plantform.pricingTou', hint: 'plantform.pricingTouHint' },
  generation: { label: 'plantform.pricingGeneration', hint: 'plantform.pricingGenerationHint' },
};

/** Step 2 and the edit page's Revenue tab: currency, pricing method with its prices, total investment. */
export function TariffFields({ form, disabled }: { form: FormInstance; disabled?: boolean }) {
  const { t } = useTranslation();
  const currencies = useQuery({ queryKey: plantFormKeys.dict('currencies'), queryFn: () => fetchDict('currencies'), staleTime: Infinity });
  const method = Form.useWatch<PricingMethodValue | undefined>(['tariff', 'pricingMethod'], form) ?? 'constant';
  const currency = Form.useWatch<string | undefined>(['tariff', 'currency'], form);
  const perKwh = currency ? `${currency}/kWh` : '/kWh';

  return (
    <div className="sw-pf-tariff">
      <Row gutter={24}>
        <Col xs={24} md={10}>
          <Form.Item name={['tariff', 'currency']} label={t('plantform.currency')} rules={[requiredRule(t)]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={currencies.isPending}
              options={currencies.data?.map((c) => ({ value: c.value, label: c.label }))}
              disabled={disabled}
              data-testid="tariff-currency"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={14}>
          <Form.Item name={['tariff', 'totalInvestment']} label={t('plantform.totalInvestment')} rules={[moneyRule]}>
            <InputNumber
              className="sw-pf-num"
              placeholder={t('plantform.optional')}
              step={1000}
              suffix={currency}
              disabled={disabled}
              data-testid="tariff-investment"
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name={['tariff', 'pricingMethod']} label={t('plantform.pricingMethod')} rules={[requiredRule(t)]}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          disabled={disabled}
          data-testid="tariff-method"
          onChange={(event) => {
            // Time-of-use starts from one period covering the whole day.
            const rows = form.getFieldValue(['tariff', 'segments']) as TouRow[] | undefined;
            if (event.target.value === 'tou' && !rows?.length) form.setFieldValue(['tariff', 'segments'], initialTouRows());
          }}
          options={(Object.keys(METHOD_LABELS) as PricingMethodValue[]).map((value) => ({
            value,
            label: t(METHOD_LABELS[value].label),
          }))}
        />
      </Form.Item>
      <Typography.Paragraph type="secondary" className="sw-pf-method-hint">
        {t(METHOD_LABELS[method].hint)}
      </Typography.Paragraph>
      {method === 'constant' && (
        <Form.Item name={['tariff', 'price']} label={t('plantform.price')} rules={[requiredRule(t), priceRule]}>
          <InputNumber
            className="sw-pf-num"
            placeholder="0.00"
            step={0.01}
            suffix={perKwh}
            disabled={disabled}
            data-testid="tariff-price"
          />
        </Form.Item>
      )}
      {method === 'tou' && <TouEditor form={form} disabled={disabled} />}
      {method === 'generation' && (
        <Row gutter={24}>
          <Col xs={24} md={12}>
            <Form.Item
              name={['tariff', 'feedInPrice']}
              label={t('plantform.feedInPrice')}
              tooltip={t('plantform.feedInHelp')}
              rules={[requiredRule(t), priceRule]}
            >
              <InputNumber
                className="sw-pf-num"
                placeholder="0.00"
                step={0.01}
                suffix={perKwh}
                disabled={disabled}
                data-testid="tariff-feedin"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name={['tariff', 'selfUsePrice']}
              label={t('plantform.selfUsePrice')}
              tooltip={t('plantform.selfUseHelp')}
              rules={[requiredRule(t), priceRule]}
            >
              <InputNumber
                className="sw-pf-num"
                placeholder="0.00"
                step={0.01}
                suffix={perKwh}
                disabled={disabled}
                data-testid="tariff-selfuse"
              />
            </Form.Item>
          </Col>
        </Row>
      )}
      <Typography.Text type="secondary" className="sw-pf-hint">
        {t('plantform.priceRules', { max: PLANT_LIMITS.priceMax.toLocaleString(), total: PLANT_LIMITS.valueMax.toLocaleString() })}
      </Typography.Text>
    </div>
  );
}
