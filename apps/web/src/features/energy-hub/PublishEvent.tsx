import { Code } from '@sunward/contracts/codes';
import { ENERGY_HUB_LIMITS, type EventCreate } from '@sunward/contracts/energy-hub';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { mayManage } from './access';
import { fetchEnrollments, hubFieldErrors, hubKeys, publishEvent } from './api';
import { energyHubTexts } from './energy-hub-texts';

registerTexts(energyHubTexts);

interface Values {
  enrollmentId: number;
  eventId: string;
  participationLevel: number;
  /** datetime-local: the browser's local time, minute precision. */
  start: string;
  durationMinutes: number;
  powerKw: number;
}

const LEVELS = [0, 1, 2, 3] as const;

/** A field the server names, as the form's (the power is asked in kW here, in W on the wire). */
const FORM_FIELD: Record<string, keyof Values> = { powerDischargeW: 'powerKw' };
/** Refusals without a field of their own, and where the form shows them. */
const FIELD_OF_CODE: Partial<Record<number, keyof Values>> = {
  [Code.ENERGY_HUB_EVENT_EXISTS]: 'eventId',
  [Code.ENERGY_HUB_ENROLLMENT_STATE]: 'enrollmentId',
  [Code.ENERGY_HUB_ENROLLMENT_NOT_FOUND]: 'enrollmentId',
};

/** A datetime-local value for a moment (the browser's time zone). */
function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * Publishing an event in the console (issue 23, spec 02 "Energy hub"): the programme's side for an accepted enrollment
 * when no VTN sends events: which enrollment, the event's id, level, start, duration and the power asked. Offered only
 * to whom manages the plant (the server's `access`); the server's refusals show beside their field.
 */
export function PublishEvent() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [open, setOpen] = useState(false);
  const enrollments = useQuery({ queryKey: hubKeys.enrollments, queryFn: fetchEnrollments, retry: false });
  const candidates = (enrollments.data?.infos ?? []).filter((e) => e.state === 'accepted' && mayManage(e.access));
  const save = useMutation({
    mutationFn: (values: Values) => {
      const body: EventCreate = {
        eventId: values.eventId.trim(),
        participationLevel: values.participationLevel,
        start: new Date(values.start).toISOString(),
        durationMinutes: values.durationMinutes,
        powerDischargeW: Math.round(values.powerKw * 1000),
      };
      return publishEvent(values.enrollmentId, body);
    },
    onSuccess: (event) => {
      void message.success(t('energyHub.published', { id: event.eventId }));
      void queryClient.invalidateQueries({ queryKey: hubKeys.all });
      form.resetFields();
      setOpen(false);
    },
    onError: (error) => {
      const fields = Object.entries(hubFieldErrors(error));
      const code = refusalCode(error);
      const own = code === undefined ? undefined : FIELD_OF_CODE[code];
      if (fields.length > 0)
        form.setFields(fields.map(([field, errors]) => ({ name: FORM_FIELD[field] ?? (field as keyof Values), errors: [errors] })));
      else if (own) form.setFields([{ name: own, errors: [refusalMessage(error) ?? ''] }]);
      else void message.error(refusalMessage(error) ?? t('energyHub.requestFailed'));
    },
  });

  if (candidates.length === 0) return null;
  if (!open)
    return (
      <Button style={{ marginBottom: 16 }} onClick={() => setOpen(true)} data-testid="energy-hub-publish">
        {t('energyHub.publish')}
      </Button>
    );
  const soon = new Date(Date.now() + 15 * 60_000);
  return (
    <Card
      size="small"
      style={{ marginBottom: 16 }}
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('energyHub.publish')}</h2>}
      data-testid="energy-hub-publish-form"
    >
      <Typography.Paragraph type="secondary">{t('energyHub.publishHint')}</Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          enrollmentId: candidates[0]?.id,
          participationLevel: 1,
          start: localInput(soon),
          durationMinutes: 60,
        }}
        onFinish={(values) => save.mutate(values)}
      >
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item name="enrollmentId" label={t('energyHub.enrollment')} htmlFor="eh-ev-enrollment" rules={[{ required: true }]}>
              <Select id="eh-ev-enrollment" options={candidates.map((e) => ({ value: e.id, label: `${e.plantName} · ${e.programId}` }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item
              name="eventId"
              label={t('energyHub.eventId')}
              htmlFor="eh-ev-id"
              rules={[{ required: true, whitespace: true, message: t('energyHub.eventIdRequired') }]}
            >
              <Input id="eh-ev-id" maxLength={ENERGY_HUB_LIMITS.eventIdMax} />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="participationLevel" label={t('energyHub.level')} htmlFor="eh-ev-level" rules={[{ required: true }]}>
              <Select id="eh-ev-level" options={LEVELS.map((level) => ({ value: level, label: t(`energyHub.levelName.${level}`) }))} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item
              name="start"
              label={t('energyHub.start')}
              htmlFor="eh-ev-start"
              rules={[
                { required: true, message: t('energyHub.startRequired') },
                {
                  // A minute's grace: the form may have been open a while.
                  validator: (_, value: string | undefined) =>
                    !value || new Date(value).getTime() >= Date.now() - 60_000
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('energyHub.startPast'))),
                },
              ]}
            >
              <Input id="eh-ev-start" type="datetime-local" />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item
              name="durationMinutes"
              label={t('energyHub.duration')}
              htmlFor="eh-ev-duration"
              rules={[{ required: true, message: t('energyHub.durationRange', { max: ENERGY_HUB_LIMITS.durationMinutesMax }) }]}
            >
              <InputNumber id="eh-ev-duration" min={1} max={ENERGY_HUB_LIMITS.durationMinutesMax} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item
              name="powerKw"
              label={t('energyHub.power')}
              htmlFor="eh-ev-power"
              rules={[
                { required: true, message: t('energyHub.powerRange', { max: ENERGY_HUB_LIMITS.powerWMax / 1000 }) },
                {
                  validator: (_, value: number | null | undefined) =>
                    value === null || value === undefined || (value > 0 && value * 1000 <= ENERGY_HUB_LIMITS.powerWMax)
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('energyHub.powerRange', { max: ENERGY_HUB_LIMITS.powerWMax / 1000 }))),
                },
              ]}
            >
              <InputNumber id="eh-ev-power" min={0} precision={3} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="energy-hub-publish-submit">
            {t('energyHub.publishSubmit')}
          </Button>
          <Button onClick={() => setOpen(false)}>{t('energyHub.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
