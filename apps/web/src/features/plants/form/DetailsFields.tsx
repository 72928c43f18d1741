import { PLANT_LIMITS } from '@sunward/contracts/plants';
import { useQuery } from '@tanstack/react-query';
import { Col, DatePicker, Divider, Form, Input, InputNumber, Radio, Row, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchDict, plantFormKeys } from './api';
import { PictureUpload } from './PictureUpload';
import { capacityRule, phoneRule, plainTextRules, plantNameRule, requiredRule } from './rules';

const DATE = 'YYYY-MM-DD';

/** The plant's own fields beside the location: name, size, type, date, picture, contacts, metering. */
export function DetailsFields({ disabled }: { disabled?: boolean }) {
  const { t } = useTranslation();
  const plantTypes = useQuery({ queryKey: plantFormKeys.dict('plantTypes'), queryFn: () => fetchDict('plantTypes'), staleTime: Infinity });

  return (
    <div className="sw-pf-details">
      <Form.Item name="name" label={t('plantform.name')} rules={[requiredRule(t), plantNameRule]} hasFeedback>
        <Input
          placeholder={t('plantform.namePlaceholder')}
          maxLength={PLANT_LIMITS.nameMax + 8}
          showCount={{ formatter: ({ count }) => `${count}/${PLANT_LIMITS.nameMax}` }}
          disabled={disabled}
          data-testid="plant-name"
        />
      </Form.Item>
      <Form.Item name="alias" label={t('plantform.alias')} rules={plainTextRules(PLANT_LIMITS.nameMax)}>
        <Input placeholder={t('plantform.optional')} disabled={disabled} data-testid="plant-alias" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="capacityKwp" label={t('plantform.capacity')} rules={[requiredRule(t), capacityRule]}>
            <InputNumber className="sw-pf-num" placeholder="100" step={1} suffix="kWp" disabled={disabled} data-testid="plant-capacity" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="plantType" label={t('plantform.plantType')} rules={[requiredRule(t)]}>
            <Select
              loading={plantTypes.isPending}
              options={plantTypes.data?.map((p) => ({ value: Number(p.value), label: p.label }))}
              disabled={disabled}
              data-testid="plant-type"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="gridDate"
            label={t('plantform.gridDate')}
            getValueProps={(value: string | null | undefined) => ({ value: value ? dayjs(value, DATE) : null })}
            normalize={(value: Dayjs | null) => (value ? value.format(DATE) : null)}
          >
            <DatePicker className="sw-pf-num" disabled={disabled} data-testid="plant-grid-date" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="meteringTopology"
            label={t('plantform.metering')}
            tooltip={t('plantform.meteringHelp')}
            rules={[requiredRule(t)]}
          >
            <Radio.Group
              optionType="button"
              disabled={disabled}
              options={[
                { value: 'gross', label: t('plantform.meteringGross') },
                { value: 'net', label: t('plantform.meteringNet') },
              ]}
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="picture" label={t('plantform.picture')}>
        <PictureUpload disabled={disabled} />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        {t('plantform.sectionContacts')}
      </Divider>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="contactName" label={t('plantform.contactName')} rules={plainTextRules()}>
            <Input disabled={disabled} data-testid="plant-contact-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="contactPhone" label={t('plantform.contactPhone')} rules={[phoneRule]}>
            <Input disabled={disabled} inputMode="tel" data-testid="plant-contact-phone" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="installer" label={t('plantform.installer')} rules={plainTextRules()}>
            <Input disabled={disabled} data-testid="plant-installer" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="ownerName" label={t('plantform.ownerName')} rules={plainTextRules()}>
            <Input disabled={disabled} data-testid="plant-owner-name" />
          </Form.Item>
        </Col>
      </Row>
    </div>
  );
}

/** Step 3 and the Basic tab: location on one side, the plant's fields on the other. */
export function PlantFieldsLayout({ location, details }: { location: ReactNode; details: ReactNode }) {
  return (
    <Row gutter={32}>
      <Col xs={24} xl={12}>
        {location}
      </Col>
      <Col xs={24} xl={12}>
        {details}
      </Col>
    </Row>
  );
}
