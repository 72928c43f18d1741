import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, DatePicker, Form, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileNameFromDisposition, generationFileName } from '../../../../lib/download';
import { saveBlob } from '../../../../lib/save-blob';
import { downloadGeneration, fetchPlantOptions, plantKeys } from '../api';
import { refusalText } from '../refusal';
import { PlantPicker } from './PlantPicker';

interface Props {
  initialPlantId: number | undefined;
  onClose(): void;
}

interface Values {
  plantId: number;
  range: [Dayjs, Dayjs];
}

/** Daily generation of one plant over chosen dates, as an Excel file (706 when the range is too long). */
export function DownloadGenerationModal({ initialPlantId, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [refusal, setRefusal] = useState<string>();
  const options = useQuery({ queryKey: plantKeys.options, queryFn: fetchPlantOptions, staleTime: 60_000 });
  const plantName = (id: number) => options.data?.find((p) => p.id === id)?.name;

  const download = useMutation({
    mutationFn: async (values: Values) => {
      const from = values.range[0].format('YYYY-MM-DD');
      const to = values.range[1].format('YYYY-MM-DD');
      const file = await downloadGeneration(values.plantId, from, to);
      saveBlob(
        file.blob,
        fileNameFromDisposition(file.disposition) ?? generationFileName(plantName(values.plantId) ?? String(values.plantId), from, to),
      );
    },
    onSuccess: () => {
      void message.success(t('plants.downloadDone'));
      onClose();
    },
    onError: (error) => setRefusal(refusalText(error) ?? t('plants.requestFailed')),
  });

  return (
    <Modal
      open
      title={t('plants.downloadTitle')}
      okText={t('plants.downloadSubmit')}
      cancelText={t('plants.cancel')}
      okButtonProps={{ loading: download.isPending }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="download-modal"
    >
      {refusal && <Alert type="error" showIcon title={refusal} className="sw-modal-alert" data-testid="download-refusal" />}
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ plantId: initialPlantId, range: [dayjs().startOf('month'), dayjs()] }}
        onValuesChange={() => setRefusal(undefined)}
        onFinish={(values) => download.mutate(values)}
      >
        <Form.Item name="plantId" label={t('plants.plant')} rules={[{ required: true, message: t('plants.choosePlant') }]}>
          <PlantPicker />
        </Form.Item>
        <Form.Item name="range" label={t('plants.dateRange')} rules={[{ required: true, message: t('plants.dateRangeRequired') }]}>
          <DatePicker.RangePicker style={{ width: '100%' }} disabledDate={(day) => day.isAfter(dayjs(), 'day')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
