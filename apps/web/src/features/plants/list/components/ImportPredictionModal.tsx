import { App, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { ImportDialog } from '../../../../components/ImportDialog';
import { importPrediction } from '../api';
import { PlantPicker } from './PlantPicker';

interface Props {
  initialPlantId: number | undefined;
  onClose(): void;
}

/** Uploads one Excel file of predicted daily energy for a plant; the server names a bad row. */
export function ImportPredictionModal({ initialPlantId, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <ImportDialog<{ plantId: number }, { imported: number }>
      title={t('plants.importTitle')}
      hint={t('plants.importHint')}
      okText={t('plants.importSubmit')}
      initialValues={{ plantId: initialPlantId }}
      upload={(file, values) => importPrediction(values.plantId, file)}
      onImported={(result) => void message.success(t('plants.importDone', { days: result.imported }))}
      onClose={onClose}
      testIds={{ modal: 'import-modal', refusal: 'import-refusal' }}
    >
      <Form.Item name="plantId" label={t('plants.plant')} rules={[{ required: true, message: t('plants.choosePlant') }]}>
        <PlantPicker />
      </Form.Item>
    </ImportDialog>
  );
}
