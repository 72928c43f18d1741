import { useMutation } from '@tanstack/react-query';
import { Alert, App, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SpreadsheetPicker } from '../../../../components/SpreadsheetPicker';
import { importPrediction } from '../api';
import { refusalText } from '../refusal';
import { PlantPicker } from './PlantPicker';

interface Props {
  initialPlantId: number | undefined;
  onClose(): void;
}

interface Values {
  plantId: number;
}

/** Uploads one Excel file of predicted daily energy for a plant; the server names a bad row. */
export function ImportPredictionModal({ initialPlantId, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const [refusal, setRefusal] = useState<string>();

  const upload = useMutation({
    mutationFn: ({ plantId, chosen }: { plantId: number; chosen: File }) => importPrediction(plantId, chosen),
    onSuccess: (result) => {
      void message.success(t('plants.importDone', { days: result.imported }));
      onClose();
    },
    onError: (error) => setRefusal(refusalText(error) ?? t('plants.requestFailed')),
  });

  const submit = (values: Values) => {
    if (!file) {
      setFileError(t('plants.fileRequired'));
      return;
    }
    setRefusal(undefined);
    upload.mutate({ plantId: values.plantId, chosen: file });
  };

  return (
    <Modal
      open
      title={t('plants.importTitle')}
      okText={t('plants.importSubmit')}
      cancelText={t('plants.cancel')}
      okButtonProps={{ loading: upload.isPending }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="import-modal"
    >
      <Typography.Paragraph type="secondary">{t('plants.importHint')}</Typography.Paragraph>
      {refusal && <Alert type="error" showIcon title={refusal} className="sw-modal-alert" data-testid="import-refusal" />}
      <Form<Values> form={form} layout="vertical" requiredMark={false} initialValues={{ plantId: initialPlantId }} onFinish={submit}>
        <Form.Item name="plantId" label={t('plants.plant')} rules={[{ required: true, message: t('plants.choosePlant') }]}>
          <PlantPicker />
        </Form.Item>
        <Form.Item label={t('plants.file')} validateStatus={fileError ? 'error' : undefined} help={fileError}>
          <SpreadsheetPicker
            file={file}
            onPick={(chosen) => {
              setFile(chosen);
              setFileError(undefined);
              setRefusal(undefined);
            }}
            onWrongType={() => setFileError(t('plants.fileWrongType'))}
            onRemove={() => setFile(undefined)}
            dropText={t('plants.fileDrop')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
