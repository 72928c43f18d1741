import { Code } from '@sunward/contracts/codes';
import {
  ENERGY_HUB_LIMITS,
  type Enrollment,
  type EnrollmentBody,
  type EnrollmentState,
  ENERGY_HUB_WRITE_KEY as WRITE_KEY,
} from '@sunward/contracts/energy-hub';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Divider, Form, Input, InputNumber, Popconfirm, Row, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { PageTitle } from '../../components/PageTitle';
import { refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { fetchPlantOptions, PLANT_OPTIONS_KEY } from '../../lib/plant-options';
import { GuardedButton, mayManage, mayOperate } from './access';
import { enroll, fetchBatteries, fetchEnrollments, hubFieldErrors, hubKeys, NOT_ENABLED_CODES, reviewEnrollment, unenroll } from './api';
import { energyHubTexts } from './energy-hub-texts';
import { HubNotEnabled } from './HubNotEnabled';

registerTexts(energyHubTexts);

/** An enrollment's state in colour and in words. */
export const ENROLLMENT_COLOURS: Record<EnrollmentState, string> = {
  pending: 'warning',
  accepted: 'success',
  rejected: 'error',
  unenrolled: 'default',
};

/** A field path the server names (`devices.1.sn`) as the form's name path. */
const pathOf = (field: string): (string | number)[] => field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/** Refusals without a field of their own, and where the form shows them. */
const FIELD_OF_CODE: Partial<Record<number, string>> = {
  [Code.ENERGY_HUB_CUSTOMER_BOUND]: 'plantId',
  [Code.PLANT_NOT_FOUND]: 'plantId',
};

/**
 * The enrollment plan (issue 23, spec 02 "Energy hub"): the plants enrolled in a demand-response programme with their
 * state (pending the programme's answer, accepted, rejected, unenrolled), and the form to enrol one: the programme,
 * the account numbers, the contact and both addresses, and the plant's batteries. Refusals show beside their field.
 */
export function EnrollmentPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const enrollments = useQuery({ queryKey: hubKeys.enrollments, queryFn: fetchEnrollments, retry: false });
  const [adding, setAdding] = useState(false);
  // Enrolling asks for the right to edit plants (and operate on the plant, which the server checks on the chosen one).
  const mayEnrol = useSession().has(WRITE_KEY);
  const change = useMutation({
    mutationFn: ({ id, to }: { id: number; to: 'accept' | 'reject' | 'unenroll' }) =>
      to === 'unenroll' ? unenroll(id) : reviewEnrollment(id, to === 'accept'),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: hubKeys.all }),
    onError: (error) => void message.error(refusalMessage(error) ?? t('energyHub.requestFailed')),
  });

  const code = refusalCode(enrollments.error);
  if (code !== undefined && NOT_ENABLED_CODES.includes(code)) return <HubNotEnabled route={route} />;
  const language = LANGUAGE_TAGS[currentLanguage()];

  return (
    <Card className="sw-page-card" data-testid="energy-hub-enrollment-page">
      <PageTitle route={route} spaced />
      {!adding && (
        <GuardedButton
          allowed={mayEnrol}
          why={t('energyHub.needsEdit')}
          type="primary"
          style={{ marginBottom: 16 }}
          onClick={() => setAdding(true)}
          data-testid="energy-hub-enrol"
        >
          {t('energyHub.enrol')}
        </GuardedButton>
      )}
      {adding && <EnrollmentForm onDone={() => setAdding(false)} />}
      <Table<Enrollment>
        rowKey="id"
        loading={enrollments.isLoading}
        dataSource={enrollments.data?.infos ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('energyHub.noEnrollment') }}
        columns={[
          { title: t('energyHub.plant'), dataIndex: 'plantName' },
          { title: t('energyHub.programId'), dataIndex: 'programId' },
          { title: t('energyHub.utilityAccount'), dataIndex: 'utilityAccountNumber' },
          { title: t('energyHub.devices'), render: (_, e) => e.devices.map((d) => d.sn).join(', ') },
          {
            title: t('energyHub.state'),
            render: (_, e) => (
              <Tag color={ENROLLMENT_COLOURS[e.state]} data-testid="energy-hub-enrollment-state">
                {t(`energyHub.state.${e.state}`)}
              </Tag>
            ),
          },
          { title: t('energyHub.createdAt'), render: (_, e) => exactTime(e.createdAt, language) },
          {
            title: t('energyHub.actions'),
            render: (_, e) => (
              <Space>
                {/* The programme's side: only for who manages the plant (others never see it; the server refuses them). */}
                {e.state === 'pending' && mayManage(e.access) && (
                  <>
                    <Button
                      type="link"
                      size="small"
                      onClick={() => change.mutate({ id: e.id, to: 'accept' })}
                      data-testid="energy-hub-accept"
                    >
                      {t('energyHub.accept')}
                    </Button>
                    <Button
                      type="link"
                      size="small"
                      onClick={() => change.mutate({ id: e.id, to: 'reject' })}
                      data-testid="energy-hub-reject"
                    >
                      {t('energyHub.reject')}
                    </Button>
                  </>
                )}
                {(e.state === 'pending' || e.state === 'accepted') &&
                  (mayOperate(e.access) ? (
                    <Popconfirm title={t('energyHub.unenrollConfirm')} onConfirm={() => change.mutate({ id: e.id, to: 'unenroll' })}>
                      <Button type="link" size="small" danger>
                        {t('energyHub.unenroll')}
                      </Button>
                    </Popconfirm>
                  ) : (
                    <GuardedButton allowed={false} why={t('energyHub.needsOperate')} type="link" size="small" danger>
                      {t('energyHub.unenroll')}
                    </GuardedButton>
                  ))}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

type FormValues = EnrollmentBody;
const ADDRESS_FIELDS = ['country', 'region', 'locality', 'street', 'postalCode'] as const;

function EnrollmentForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const plants = useQuery({ queryKey: PLANT_OPTIONS_KEY, queryFn: fetchPlantOptions });
  const plantId = Form.useWatch('plantId', form);
  const batteries = useQuery({
    queryKey: hubKeys.batteries(plantId ?? 0),
    queryFn: () => fetchBatteries(plantId ?? 0),
    enabled: typeof plantId === 'number',
  });
  const save = useMutation({
    mutationFn: enroll,
    onSuccess: () => {
      void message.success(t('energyHub.enrolled'));
      void queryClient.invalidateQueries({ queryKey: hubKeys.all });
      onDone();
    },
    onError: (error) => {
      const fields = Object.entries(hubFieldErrors(error));
      const code = refusalCode(error);
      const own = code === undefined ? undefined : FIELD_OF_CODE[code];
      if (fields.length > 0) form.setFields(fields.map(([field, errors]) => ({ name: pathOf(field) as never, errors: [errors] })));
      else if (own) form.setFields([{ name: own as never, errors: [refusalMessage(error) ?? ''] }]);
      else void message.error(refusalMessage(error) ?? t('energyHub.requestFailed'));
    },
  });

  const address = (prefix: 'serviceAddress' | 'mailingAddress') => (
    <Row gutter={12}>
      {ADDRESS_FIELDS.map((field) => (
        <Col xs={24} sm={12} md={8} key={field}>
          <Form.Item name={[prefix, field]} label={t(`energyHub.${field}`)} htmlFor={`eh-${prefix}-${field}`} rules={[{ required: true }]}>
            <Input id={`eh-${prefix}-${field}`} maxLength={ENERGY_HUB_LIMITS.addressFieldMax} />
          </Form.Item>
        </Col>
      ))}
    </Row>
  );

  return (
    <Card size="small" style={{ marginBottom: 16 }} data-testid="energy-hub-enrollment-form">
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{ devices: [] }}
        onFinish={(values) => save.mutate(values)}
        onValuesChange={(changed: Partial<FormValues>) => {
          // A plant picked: its batteries fill the device list (the manufacturer and model the devices report).
          if (changed.plantId === undefined) return;
          void fetchBatteries(changed.plantId).then((list) =>
            form.setFieldValue(
              'devices',
              list.infos.map((b) => ({ sn: b.sn, manufacturer: b.manufacturer ?? '', model: b.model ?? '' })),
            ),
          );
        }}
      >
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item name="plantId" label={t('energyHub.plant')} htmlFor="eh-plant" rules={[{ required: true }]}>
              <Select
                id="eh-plant"
                showSearch
                optionFilterProp="label"
                options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="programId" label={t('energyHub.programId')} htmlFor="eh-program" rules={[{ required: true }]}>
              <Input id="eh-program" maxLength={ENERGY_HUB_LIMITS.programIdMax} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item
              name="sourceAccountNumber"
              label={t('energyHub.sourceAccount')}
              extra={t('energyHub.sourceAccountHint')}
              htmlFor="eh-source"
              rules={[{ required: true }]}
            >
              <Input id="eh-source" inputMode="numeric" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="utilityAccountNumber"
              label={t('energyHub.utilityAccount')}
              extra={t('energyHub.utilityAccountHint')}
              htmlFor="eh-utility"
              rules={[{ required: true }]}
            >
              <Input id="eh-utility" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item name="firstName" label={t('energyHub.firstName')} htmlFor="eh-first" rules={[{ required: true }]}>
              <Input id="eh-first" maxLength={ENERGY_HUB_LIMITS.nameMax} autoComplete="given-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="lastName" label={t('energyHub.lastName')} htmlFor="eh-last" rules={[{ required: true }]}>
              <Input id="eh-last" maxLength={ENERGY_HUB_LIMITS.nameMax} autoComplete="family-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="email" label={t('energyHub.email')} htmlFor="eh-email" rules={[{ required: true, type: 'email' }]}>
              <Input id="eh-email" maxLength={ENERGY_HUB_LIMITS.emailMax} autoComplete="email" />
            </Form.Item>
          </Col>
        </Row>
        <Divider>{t('energyHub.serviceAddress')}</Divider>
        {address('serviceAddress')}
        <Divider>{t('energyHub.mailingAddress')}</Divider>
        {address('mailingAddress')}
        <Divider>{t('energyHub.devices')}</Divider>
        <Form.List name="devices">
          {(items, { add, remove }) => (
            <>
              {items.map((item) => (
                <Row gutter={8} key={item.key} data-testid="energy-hub-device-row">
                  <Col xs={24} sm={12} md={4}>
                    <Form.Item
                      name={[item.name, 'sn']}
                      label={t('energyHub.sn')}
                      htmlFor={`eh-sn-${item.key}`}
                      rules={[{ required: true }]}
                    >
                      <Input id={`eh-sn-${item.key}`} list="eh-batteries" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12} md={4}>
                    <Form.Item
                      name={[item.name, 'manufacturer']}
                      label={t('energyHub.manufacturer')}
                      htmlFor={`eh-make-${item.key}`}
                      rules={[{ required: true }]}
                    >
                      <Input id={`eh-make-${item.key}`} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12} md={3}>
                    <Form.Item
                      name={[item.name, 'model']}
                      label={t('energyHub.model')}
                      htmlFor={`eh-model-${item.key}`}
                      rules={[{ required: true }]}
                    >
                      <Input id={`eh-model-${item.key}`} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12} md={4}>
                    <Form.Item
                      name={[item.name, 'installDate']}
                      label={t('energyHub.installDate')}
                      htmlFor={`eh-date-${item.key}`}
                      rules={[{ required: true }]}
                    >
                      <Input id={`eh-date-${item.key}`} type="date" />
                    </Form.Item>
                  </Col>
                  <Col xs={12} sm={8} md={3}>
                    <Form.Item
                      name={[item.name, 'storageCapacityKwh']}
                      label={t('energyHub.storageCapacity')}
                      htmlFor={`eh-storage-${item.key}`}
                      rules={[{ required: true }]}
                    >
                      <InputNumber id={`eh-storage-${item.key}`} min={0.1} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col xs={12} sm={8} md={3}>
                    <Form.Item
                      name={[item.name, 'chargeCapacityKw']}
                      label={t('energyHub.chargeCapacity')}
                      htmlFor={`eh-charge-${item.key}`}
                      rules={[{ required: true }]}
                    >
                      <InputNumber id={`eh-charge-${item.key}`} min={0.1} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={8} md={3} style={{ display: 'flex', alignItems: 'center' }}>
                    <Button onClick={() => remove(item.name)} danger>
                      {t('energyHub.removeDevice')}
                    </Button>
                  </Col>
                </Row>
              ))}
              <Button onClick={() => add({})} disabled={items.length >= ENERGY_HUB_LIMITS.devicesMax} style={{ marginBottom: 16 }}>
                {t('energyHub.addDevice')}
              </Button>
            </>
          )}
        </Form.List>
        <datalist id="eh-batteries">
          {(batteries.data?.infos ?? []).map((b) => (
            <option key={b.sn} value={b.sn} />
          ))}
        </datalist>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="energy-hub-submit">
            {t('energyHub.submit')}
          </Button>
          <Button onClick={onDone}>{t('energyHub.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
