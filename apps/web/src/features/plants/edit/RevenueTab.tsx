import type { Tariff } from '@sunward/contracts/plants';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../lib/i18n';
import { fetchTariff, plantFormKeys, saveTariff, validationIssues } from '../form/api';
import { showIssues } from '../form/form-errors';
import { type TariffValues, tariffValuesOf, toTariff } from '../form/plant-form-values';
import { TariffFields } from '../form/TariffFields';
import { useUnsavedGuard } from '../form/useUnsavedGuard';
import { SaveFooter } from './SaveFooter';

/** The Revenue tab: the plant's tariff (GET/POST /api/v1/plant/{id}/income). */
export function RevenueTab({ plantId, readOnly }: { plantId: number; readOnly: boolean }) {
  const tariff = useQuery({ queryKey: plantFormKeys.tariff(plantId), queryFn: () => fetchTariff(plantId) });
  if (tariff.isPending) return <Skeleton active />;
  if (tariff.isError) return null;
  return <TariffForm plantId={plantId} tariff={tariff.data} readOnly={readOnly} />;
}

function TariffForm({ plantId, tariff, readOnly }: { plantId: number; tariff: Tariff | null; readOnly: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ tariff: TariffValues }>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  useUnsavedGuard(dirty);

  const save = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const checked = toTariff(form.getFieldValue('tariff') ?? {}, currentLanguage());
    if (!checked.ok)
      return void showIssues(
        form,
        checked.issues.filter((i) => !i.field.startsWith('tariff.segments')),
      );
    setSaving(true);
    try {
      await saveTariff(plantId, checked.value);
      setDirty(false);
      void message.success(t('plantform.saved'));
      await queryClient.invalidateQueries({ queryKey: ['plants'] });
    } catch (error) {
      showIssues(form, validationIssues(error), 'tariff.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ tariff: tariffValuesOf(tariff) }}
      disabled={readOnly}
      onValuesChange={() => setDirty(true)}
      className="sw-pf-step-narrow"
      data-testid="plant-revenue-form"
    >
      {!tariff && !readOnly && <Alert type="info" showIcon title={t('plantform.noTariff')} className="sw-pf-notice" />}
      <TariffFields form={form} disabled={readOnly} />
      {!readOnly && (
        <SaveFooter
          dirty={dirty}
          saving={saving}
          onDiscard={() => {
            form.resetFields();
            setDirty(false);
          }}
          onSave={() => void save()}
          saveTestId="tariff-save"
        />
      )}
    </Form>
  );
}
