import { Code } from '@sunward/contracts/codes';
import type { PlantDetail } from '@sunward/contracts/plants';
import { useQueryClient } from '@tanstack/react-query';
import { App, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { updatePlant, validationIssues } from '../form/api';
import { DetailsFields, PlantFieldsLayout } from '../form/DetailsFields';
import { showIssues } from '../form/form-errors';
import { LocationFields } from '../form/LocationFields';
import { type PlantFieldValues, plantFieldValuesOf, toPlantFields } from '../form/plant-form-values';
import { useUnsavedGuard } from '../form/useUnsavedGuard';
import { SaveFooter } from './SaveFooter';

/** The Basic information tab: the wizard's third step, saved with POST /api/v1/plant/{id}. */
export function BasicTab({ plant, readOnly }: { plant: PlantDetail; readOnly: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PlantFieldValues>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  useUnsavedGuard(dirty);

  const save = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const fields = toPlantFields(form.getFieldsValue(true) as PlantFieldValues, currentLanguage());
    if (!fields.ok) return void showIssues(form, fields.issues);
    setSaving(true);
    try {
      await updatePlant(plant.id, fields.value);
      setDirty(false);
      void message.success(t('plantform.saved'));
      await queryClient.invalidateQueries({ queryKey: ['plants'] });
    } catch (error) {
      if (!(error instanceof ApiCallError)) return;
      if (error.code === Code.COORDINATES_INVALID)
        showIssues(form, [
          { field: 'latitude', message: error.message },
          { field: 'longitude', message: error.message },
        ]);
      else showIssues(form, validationIssues(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={plantFieldValuesOf(plant)}
      disabled={readOnly}
      onValuesChange={() => setDirty(true)}
      data-testid="plant-basic-form"
    >
      <PlantFieldsLayout location={<LocationFields form={form} disabled={readOnly} />} details={<DetailsFields disabled={readOnly} />} />
      {!readOnly && (
        <SaveFooter
          dirty={dirty}
          saving={saving}
          onDiscard={() => {
            form.resetFields();
            setDirty(false);
          }}
          onSave={() => void save()}
          saveTestId="plant-save"
        />
      )}
    </Form>
  );
}
