import '../../../lib/texts/plants';
import { ArrowLeftOutlined, ArrowRightOutlined, CheckOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import type { PlantCreate } from '@sunward/contracts/plants';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiCallError } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { createPlant, validationIssues } from '../form/api';
import { DetailsFields, PlantFieldsLayout } from '../form/DetailsFields';
import { showIssues } from '../form/form-errors';
import { GatewayRows, useGatewayChecks } from '../form/GatewayRows';
import { isCheckedOk } from '../form/gateway-checks';
import { LocationFields, useBrowserTimeZone } from '../form/LocationFields';
import '../form/plant-form.css';
import { PageTitle } from '../../../components/PageTitle';
import {
  defaultPlantFieldValues,
  defaultTariffValues,
  type FieldIssue,
  type GatewayRowValues,
  toGatewayBindings,
  toPlantFields,
  toTariff,
  type WizardValues,
  wizardStepOf,
} from '../form/plant-form-values';
import { TariffFields } from '../form/TariffFields';
import { useUnsavedGuard } from '../form/useUnsavedGuard';

type Step = 0 | 1 | 2;

const INITIAL: WizardValues = {
  gateways: [{ sn: '', key: '' }],
  tariff: defaultTariffValues(),
  ...defaultPlantFieldValues(),
};

/** /plant-add: the three-step creation wizard (spec 02 §2): bind devices, revenue, location and details. */
export function PlantWizardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<WizardValues>();
  const checks = useGatewayChecks(form);
  const browserZone = useBrowserTimeZone();
  const [step, setStep] = useState<Step>(0);
  const [reached, setReached] = useState<Step>(0);
  const [errorSteps, setErrorSteps] = useState<ReadonlySet<number>>(new Set());
  const [dirty, setDirty] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const gateways = Form.useWatch<GatewayRowValues[] | undefined>('gateways', form);
  const checkedCount = (gateways ?? []).filter((row) => isCheckedOk(checks.states, row)).length;

  useUnsavedGuard(dirty && !submitting);

  // A new plant is in the user's own time zone until a place or a choice says otherwise.
  useEffect(() => {
    if (browserZone && !form.getFieldValue('timezone')) form.setFieldValue('timezone', browserZone);
  }, [browserZone, form]);

  const go = (next: Step) => {
    setStep(next);
    setReached((r) => (next > r ? next : r));
    setNotice(null);
    window.scrollTo({ top: 0 });
  };

  const refreshErrorSteps = () => {
    const steps = new Set<number>();
    for (const field of form.getFieldsError()) if (field.errors.length) steps.add(wizardStepOf(field.name.join('.')));
    setErrorSteps(steps);
  };

  /** Shows the problems and opens the step holding the first one. */
  const showProblems = (issues: readonly FieldIssue[]) => {
    const fields = showIssues(form, issues);
    refreshErrorSteps();
    const first = fields[0];
    if (first !== undefined) go(wizardStepOf(first));
    setNotice(t('wizard.fixErrors'));
  };

  const leaveDevices = () => {
    const rows = (form.getFieldValue('gateways') as GatewayRowValues[] | undefined) ?? [];
    const unchecked = rows
      .map((row, index) => ({ row, index }))
      .filter(({ row }) => (row?.sn || row?.key) && !isCheckedOk(checks.states, row));
    if (unchecked.length) {
      form.setFields(unchecked.map(({ index }) => ({ name: ['gateways', index, 'sn'], errors: [t('plantform.gatewayMustCheck')] })));
      refreshErrorSteps();
      return;
    }
    if (checkedCount > 0) go(1);
  };

  const leaveRevenue = async () => {
    try {
      await form.validateFields([['tariff']], { recursive: true });
    } catch {
      refreshErrorSteps();
      return;
    }
    const tariff = toTariff(form.getFieldValue('tariff') ?? {}, currentLanguage());
    if (!tariff.ok) {
      // The time-of-use problem is already shown under the periods; others go beside their field.
      showIssues(
        form,
        tariff.issues.filter((i) => !i.field.startsWith('tariff.segments')),
      );
      if (tariff.issues.every((i) => i.field.startsWith('tariff.segments'))) setNotice(t('wizard.fixErrors'));
      return;
    }
    go(2);
  };

  const submit = async () => {
    try {
      await form.validateFields();
    } catch {
      refreshErrorSteps();
      const first = form.getFieldsError().find((f) => f.errors.length);
      if (first) go(wizardStepOf(first.name.join('.')));
      return;
    }
    const values = form.getFieldsValue(true) as WizardValues;
    const language = currentLanguage();
    const fields = toPlantFields(values, language);
    const tariff = toTariff(values.tariff ?? {}, language);
    const issues = [...(fields.ok ? [] : fields.issues), ...(tariff.ok ? [] : tariff.issues)];
    if (!fields.ok || !tariff.ok) return showProblems(issues);
    const plant: PlantCreate = { ...fields.value, tariff: tariff.value, gateways: toGatewayBindings(values.gateways) };
    setSubmitting(true);
    try {
      const { id } = await createPlant(plant);
      await queryClient.invalidateQueries({ queryKey: ['plants'] });
      setDirty(false);
      void message.success(t('wizard.created', { name: plant.name }));
      void navigate(`/plants/overview/${id}/${plant.plantType}`);
    } catch (error) {
      setSubmitting(false);
      if (!(error instanceof ApiCallError)) return;
      if (error.code === Code.COORDINATES_INVALID)
        return showProblems([
          { field: 'latitude', message: error.message },
          { field: 'longitude', message: error.message },
        ]);
      const found = validationIssues(error);
      if (found.length) return showProblems(found);
      // A gateway refused at the last moment (bound elsewhere meanwhile): check the rows again to show which.
      go(0);
      setNotice(error.message);
      const rows = values.gateways ?? [];
      for (const [index, row] of rows.entries()) if (row?.sn || row?.key) void checks.check(index);
    }
  };

  const cancel = () => {
    if (!dirty) return navigate('/plants');
    modal.confirm({
      title: t('wizard.leaveTitle'),
      content: t('wizard.leaveText'),
      okText: t('wizard.leave'),
      cancelText: t('wizard.stay'),
      okButtonProps: { danger: true },
      onOk: () => {
        setDirty(false);
        void navigate('/plants');
      },
    });
  };

  const stepStatus = (index: Step) => (errorSteps.has(index) && index !== step ? 'error' : undefined);

  return (
    <Card className="sw-page-card sw-pf-wizard">
      <PageTitle spaced>{t('wizard.title')}</PageTitle>
      <Steps
        current={step}
        className="sw-pf-steps"
        data-testid="wizard-steps"
        onChange={(next) => {
          if (next <= reached) go(next as Step);
        }}
        items={[
          { title: t('wizard.stepDevices'), content: t('wizard.stepDevicesHint'), status: stepStatus(0) },
          { title: t('wizard.stepRevenue'), content: t('wizard.stepRevenueHint'), status: stepStatus(1), disabled: reached < 1 },
          { title: t('wizard.stepLocation'), content: t('wizard.stepLocationHint'), status: stepStatus(2), disabled: reached < 2 },
        ]}
      />
      {notice && <Alert type="error" showIcon title={notice} className="sw-pf-notice" data-testid="wizard-notice" />}
      <Form
        form={form}
        layout="vertical"
        initialValues={INITIAL}
        requiredMark
        onValuesChange={() => setDirty(true)}
        onFieldsChange={refreshErrorSteps}
        data-testid="plant-wizard"
        data-step={step}
      >
        <section hidden={step !== 0} className="sw-pf-step" data-testid="wizard-step-devices">
          <Typography.Paragraph type="secondary">{t('wizard.devicesIntro')}</Typography.Paragraph>
          <GatewayRows form={form} checks={checks} />
        </section>
        <section hidden={step !== 1} className="sw-pf-step sw-pf-step-narrow" data-testid="wizard-step-revenue">
          <TariffFields form={form} />
        </section>
        <section hidden={step !== 2} className="sw-pf-step" data-testid="wizard-step-location">
          <PlantFieldsLayout location={<LocationFields form={form} />} details={<DetailsFields />} />
        </section>
      </Form>
      <div className="sw-pf-footer">
        <Button onClick={cancel} data-testid="wizard-cancel">
          {t('wizard.cancel')}
        </Button>
        <div className="sw-pf-footer-right">
          {step === 0 && checkedCount === 0 && (
            <Typography.Text type="secondary" data-testid="wizard-need-check">
              {t('wizard.needChecked')}
            </Typography.Text>
          )}
          {step > 0 && (
            <Button icon={<ArrowLeftOutlined />} onClick={() => go((step - 1) as Step)} data-testid="wizard-previous">
              {t('wizard.previous')}
            </Button>
          )}
          {step === 0 && (
            <Button type="primary" disabled={checkedCount === 0} onClick={leaveDevices} data-testid="wizard-next">
              {t('wizard.next')} <ArrowRightOutlined />
            </Button>
          )}
          {step === 1 && (
            <Button type="primary" onClick={() => void leaveRevenue()} data-testid="wizard-next">
              {t('wizard.next')} <ArrowRightOutlined />
            </Button>
          )}
          {step === 2 && (
            <Button type="primary" icon={<CheckOutlined />} loading={submitting} onClick={() => void submit()} data-testid="wizard-submit">
              {t('wizard.submit')}
            </Button>
          )}
        </div>
      </div>
    </Card>
  );
}
