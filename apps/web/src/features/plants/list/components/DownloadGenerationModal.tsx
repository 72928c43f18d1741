import { Code } from '@sunward/contracts/codes';
import { PLANT_LIMITS } from '@sunward/contracts/plants';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, DatePicker, Form, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportStartedNote } from '../../../../components/ExportStartedNote';
import { refusalCode } from '../../../../lib/api-client';
import { fileNameFromDisposition, generationFileName } from '../../../../lib/download';
import { saveBlob } from '../../../../lib/save-blob';
import { downloadGeneration, exportGenerationInBackground, fetchPlantOptions, plantKeys } from '../api';
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

/**
 * Daily generation of one plant over chosen dates, as an Excel file. A period past the immediate download's
 * limit (PLANT_LIMITS.downloadRowsMax days) is prepared in the download centre instead, with the console's note.
 */
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
      const toCentre = async () => {
        const record = await exportGenerationInBackground(values.plantId, from, to);
        void message.success({ content: <ExportStartedNote fileName={record.fileName} testId="generation-export-started" />, duration: 8 });
      };
      // One row a day: beyond the limit the file is prepared in the background.
      if (values.range[1].diff(values.range[0], 'day') + 1 > PLANT_LIMITS.downloadRowsMax) return toCentre();
      try {
        const file = await downloadGeneration(values.plantId, from, to);
        saveBlob(
          file.blob,
          fileNameFromDisposition(file.disposition) ?? generationFileName(plantName(values.plantId) ?? String(values.plantId), from, to),
        );
        void message.success(t('plants.downloadDone'));
      } catch (error) {
        // The server counts the days in its own way: its 706 sends the request to the download centre too.
        if (refusalCode(error) !== Code.TOO_MANY_RECORDS) throw error;
        await toCentre();
      }
    },
    onSuccess: () => onClose(),
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
