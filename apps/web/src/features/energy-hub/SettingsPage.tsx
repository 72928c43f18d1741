import type { Enrollment, OpenAdrSettingsBody, ResponseSettings } from '@sunward/contracts/energy-hub';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Card, Checkbox, Descriptions, Empty, Form, Input, InputNumber, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { GuardedButton, mayOperate } from './access';
import { fetchEnrollments, hubFieldErrors, hubKeys, NOT_ENABLED_CODES, saveOpenAdr, saveSettings } from './api';
import { energyHubTexts } from './energy-hub-texts';
import { HubNotEnabled } from './HubNotEnabled';

registerTexts(energyHubTexts);

/**
 * Response settings (issue 23): per live enrollment, the SOC every battery keeps, which batteries take part and the
 * most one discharges; and the programme's OpenADR 2.0b server (docs/openadr.md).
 */
export function SettingsPage({ route }: PageProps) {
  const { t } = useTranslation();
  const enrollments = useQuery({ queryKey: hubKeys.enrollments, queryFn: fetchEnrollments, retry: false });
  const [chosen, setChosen] = useState<number | undefined>();
  const code = refusalCode(enrollments.error);
  if (code !== undefined && NOT_ENABLED_CODES.includes(code)) return <HubNotEnabled route={route} />;
  const live = (enrollments.data?.infos ?? []).filter((e) => e.state === 'pending' || e.state === 'accepted');
  const enrollment = live.find((e) => e.id === chosen) ?? live[0];
  return (
    <Card className="sw-page-card" data-testid="energy-hub-settings-page">
      <PageTitle route={route} spaced />
      {live.length > 1 && (
        <Form.Item label={t('energyHub.enrollment')} htmlFor="eh-settings-enrollment">
          <Select
            id="eh-settings-enrollment"
            value={enrollment?.id}
            onChange={setChosen}
            options={live.map((e) => ({ value: e.id, label: `${e.plantName} · ${e.programId}` }))}
            style={{ maxWidth: 400 }}
          />
        </Form.Item>
      )}
      {enrollment ? (
        <>
          <ResponseForm key={`r${enrollment.id}`} enrollment={enrollment} />
          <OpenAdrForm key={`o${enrollment.id}`} enrollment={enrollment} />
        </>
      ) : (
        !enrollments.isLoading && <Empty description={t('energyHub.noEnrollment')} />
      )}
    </Card>
  );
}

function ResponseForm({ enrollment }: { enrollment: Enrollment }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ResponseSettings>();
  const save = useMutation({
    mutationFn: (values: ResponseSettings) => saveSettings(enrollment.id, { ...values, maxDischargeW: values.maxDischargeW ?? null }),
    onSuccess: () => {
      void message.success(t('energyHub.saved'));
      void queryClient.invalidateQueries({ queryKey: hubKeys.all });
    },
    onError: (error) => {
      const fields = Object.entries(hubFieldErrors(error));
      if (fields.length > 0)
        form.setFields(fields.map(([field, errors]) => ({ name: field.split('.')[0] as 'devices', errors: [errors] })));
      else void message.error(refusalMessage(error) ?? t('energyHub.requestFailed'));
    },
  });
  return (
    <Form<ResponseSettings>
      form={form}
      layout="vertical"
      initialValues={enrollment.settings}
      onFinish={(values) => save.mutate(values)}
      style={{ maxWidth: 520 }}
      data-testid="energy-hub-response-form"
    >
      <Form.Item name="minSocPct" label={t('energyHub.minSoc')} htmlFor="eh-min-soc" rules={[{ required: true }]}>
        <InputNumber id="eh-min-soc" min={0} max={100} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="maxDischargeW" label={t('energyHub.maxDischarge')} extra={t('energyHub.maxDischargeHint')} htmlFor="eh-max-w">
        <InputNumber id="eh-max-w" min={1} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="devices" label={t('energyHub.participating')}>
        <Checkbox.Group options={enrollment.devices.map((d) => ({ value: d.sn, label: d.sn }))} />
      </Form.Item>
      <GuardedButton
        allowed={mayOperate(enrollment.access)}
        why={t('energyHub.needsOperate')}
        type="primary"
        htmlType="submit"
        loading={save.isPending}
        data-testid="energy-hub-settings-save"
      >
        {t('energyHub.save')}
      </GuardedButton>
    </Form>
  );
}

function OpenAdrForm({ enrollment }: { enrollment: Enrollment }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ vtnUrl: string; venName: string }>();
  const save = useMutation({
    mutationFn: (values: { vtnUrl: string; venName: string }) => {
      const body: OpenAdrSettingsBody = { vtnUrl: values.vtnUrl.trim() === '' ? null : values.vtnUrl.trim(), venName: values.venName };
      return saveOpenAdr(enrollment.id, body);
    },
    onSuccess: () => {
      void message.success(t('energyHub.saved'));
      void queryClient.invalidateQueries({ queryKey: hubKeys.all });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('energyHub.requestFailed')),
  });
  const language = LANGUAGE_TAGS[currentLanguage()];
  return (
    <Card
      size="small"
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('energyHub.openadr')}</h2>}
      style={{ marginTop: 24, maxWidth: 640 }}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ vtnUrl: enrollment.openadr.vtnUrl ?? '', venName: enrollment.openadr.venName }}
        onFinish={(values) => save.mutate(values)}
      >
        <Form.Item name="vtnUrl" label={t('energyHub.vtnUrl')} htmlFor="eh-vtn" rules={[{ type: 'url' }]}>
          <Input id="eh-vtn" placeholder="https://vtn.example.com/OpenADR2/Simple/2.0b" />
        </Form.Item>
        <Form.Item name="venName" label={t('energyHub.venName')} htmlFor="eh-ven" rules={[{ required: true }]}>
          <Input id="eh-ven" maxLength={100} />
        </Form.Item>
        <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
          <Descriptions.Item label={t('energyHub.venId')}>{enrollment.openadr.venId ?? t('energyHub.notRegistered')}</Descriptions.Item>
          <Descriptions.Item label={t('energyHub.lastPoll')}>
            {enrollment.openadr.lastPollAt ? exactTime(enrollment.openadr.lastPollAt, language) : '—'}
          </Descriptions.Item>
        </Descriptions>
        <GuardedButton allowed={mayOperate(enrollment.access)} why={t('energyHub.needsOperate')} htmlType="submit" loading={save.isPending}>
          {t('energyHub.save')}
        </GuardedButton>
      </Form>
    </Card>
  );
}
