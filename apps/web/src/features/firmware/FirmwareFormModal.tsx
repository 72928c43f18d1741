import { Code } from '@sunward/contracts/codes';
import {
  FIRMWARE_COMPATIBLE,
  FIRMWARE_LIMITS,
  FIRMWARE_MODES,
  FIRMWARE_VERSION,
  type FirmwareFields,
  type FirmwareRow,
  type FirmwareType,
  LIBRARY_FIRMWARE_TYPES,
} from '@sunward/contracts/firmware';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal, Progress, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../lib/api-client';
import { checkFirmware, fieldErrors, firmwareKeys, refusalMessage, updateFirmware, uploadFirmware } from './api';
import { FirmwareFileFields, useFirmwareFile } from './FirmwareFileFields';
import { useFirmwareRules } from './form-rules';

type FormValues = FirmwareFields & { md5?: string };

const TEXT_FIELDS = ['name', 'manufacturer', 'product', 'itemNumber', 'hwVersion', 'swVersion', 'swCompatible', 'changeLog'] as const;

/** Blank optional texts leave as empty strings for the upload (the server reads them as none) and as undefined for an edit. */
function cleaned(values: FormValues): FirmwareFields {
  const out: Record<string, string | undefined> = { type: values.type, mode: values.mode };
  for (const key of TEXT_FIELDS) {
    const value = values[key]?.trim();
    out[key] = value ? value : undefined;
  }
  return out as FirmwareFields;
}

/**
 * Upload (a new record with its file) or edit (metadata only). Every field is checked as the user types;
 * name and software version are checked against the library live. The picked file's MD5 is computed
 * here and pre-filled; the user may correct it, and the server compares it with the bytes it receives.
 */
export function FirmwareFormModal({ row, onClose }: { row?: FirmwareRow; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [progress, setProgress] = useState<number>();
  const [refusal, setRefusal] = useState<string>();
  const picked = useFirmwareFile(form, () => setRefusal(undefined));
  const { file, fileError, setFileError, hashing } = picked;

  const { required, selectRequired, max, pattern } = useFirmwareRules();

  /** 4000 / 4002 from the live check beside the field; other failures do not block typing. */
  const unique =
    (field: 'name' | 'swVersion'): Rule =>
    () => ({
      async validator(_, value?: string) {
        const text = value?.trim();
        if (!text) return;
        const type = form.getFieldValue('type') as FirmwareType | undefined;
        if (field === 'swVersion' && (!type || !FIRMWARE_VERSION.test(text))) return;
        try {
          await checkFirmware(field === 'name' ? { name: text, id: row?.id } : { swVersion: text, type, id: row?.id });
        } catch (error) {
          if (error instanceof ApiCallError && error.code === Code.FIRMWARE_NAME_DUPLICATE) throw new Error(t('firmware.nameTaken'));
          if (error instanceof ApiCallError && error.code === Code.FIRMWARE_VERSION_DUPLICATE) throw new Error(t('firmware.versionTaken'));
        }
      },
    });

  const save = useMutation({
    mutationFn: async (values: FormValues) => {
      const fields = cleaned(values);
      if (row) return updateFirmware(row.id, fields);
      if (!file) throw new Error('no file');
      const form: Record<string, string> = { fileName: file.name, md5: values.md5?.trim() ?? '' };
      for (const [key, value] of Object.entries(fields)) if (value !== undefined) form[key] = String(value);
      setProgress(0);
      return uploadFirmware(form, file, setProgress);
    },
    onSuccess: () => {
      void message.success(t(row ? 'firmware.saved' : 'firmware.uploaded'));
      void queryClient.invalidateQueries({ queryKey: firmwareKeys.all });
      onClose();
    },
    onError: (error) => {
      setProgress(undefined);
      if (error instanceof ApiCallError && error.code === Code.FIRMWARE_NAME_DUPLICATE) {
        form.setFields([{ name: 'name', errors: [t('firmware.nameTaken')] }]);
        return;
      }
      if (error instanceof ApiCallError && error.code === Code.FIRMWARE_VERSION_DUPLICATE) {
        form.setFields([{ name: 'swVersion', errors: [t('firmware.versionTaken')] }]);
        return;
      }
      const byField = fieldErrors(error);
      const placed: string[] = [];
      for (const [field, text] of Object.entries(byField)) {
        if (field === 'file' || field === 'fileName') setFileError(text);
        else if ((TEXT_FIELDS as readonly string[]).includes(field) || ['type', 'mode', 'md5'].includes(field))
          form.setFields([{ name: field as keyof FormValues, errors: [text] }]);
        else continue;
        placed.push(field);
      }
      if (placed.length === 0) setRefusal(refusalMessage(error) ?? t('firmware.requestFailed'));
    },
  });

  const submit = async () => {
    if (!row && !file) setFileError(t('firmware.fileRequired'));
    const values = await form.validateFields().catch(() => undefined);
    if (!values || (!row && (!file || fileError))) return;
    setRefusal(undefined);
    save.mutate(values);
  };

  const initial: Partial<FormValues> = row
    ? {
        name: row.name,
        manufacturer: row.manufacturer,
        product: row.product,
        itemNumber: row.itemNumber ?? undefined,
        hwVersion: row.hwVersion ?? undefined,
        swVersion: row.swVersion,
        swCompatible: row.swCompatible ?? undefined,
        // The main library holds gateway and inverter images only (battery images have their own form).
        type: row.type === 'gateway' ? 'gateway' : 'inverter',
        mode: row.mode,
        changeLog: row.changeLog ?? undefined,
      }
    : { type: 'inverter', mode: 'remote' };

  return (
    <Modal
      open
      width={720}
      title={row ? t('firmware.editTitle', { name: row.name }) : t('firmware.uploadTitle')}
      okText={row ? t('firmware.save') : t('firmware.upload')}
      cancelText={t('firmware.cancel')}
      okButtonProps={{ loading: save.isPending, disabled: hashing, id: 'firmware-submit' }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      data-testid="firmware-form"
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} data-testid="firmware-refusal" />}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} validateTrigger="onChange" requiredMark>
        <div className="sw-firmware-form-grid">
          <Form.Item
            name="name"
            label={t('firmware.fieldName')}
            rules={[required, max(FIRMWARE_LIMITS.nameMax), unique('name')]}
            hasFeedback
          >
            <Input id="firmware-name" autoComplete="off" />
          </Form.Item>
          <Form.Item name="type" label={t('firmware.fieldType')} rules={[selectRequired]}>
            <Select
              onChange={() => void form.validateFields(['swVersion']).catch(() => undefined)}
              options={LIBRARY_FIRMWARE_TYPES.map((type) => ({
                value: type,
                label: t(type === 'gateway' ? 'firmware.typeGateway' : 'firmware.typeInverter'),
              }))}
            />
          </Form.Item>
          <Form.Item name="manufacturer" label={t('firmware.fieldManufacturer')} rules={[required, max(FIRMWARE_LIMITS.textMax)]}>
            <Input id="firmware-manufacturer" />
          </Form.Item>
          <Form.Item name="product" label={t('firmware.fieldProduct')} rules={[required, max(FIRMWARE_LIMITS.textMax)]}>
            <Input id="firmware-product" />
          </Form.Item>
          <Form.Item name="itemNumber" label={t('firmware.fieldItemNumber')} rules={[max(FIRMWARE_LIMITS.textMax)]}>
            <Input id="firmware-item" />
          </Form.Item>
          <Form.Item name="hwVersion" label={t('firmware.fieldHwVersion')} rules={[pattern(FIRMWARE_VERSION, t('firmware.versionRule'))]}>
            <Input id="firmware-hw" />
          </Form.Item>
          <Form.Item
            name="swVersion"
            label={t('firmware.fieldSwVersion')}
            rules={[required, pattern(FIRMWARE_VERSION, t('firmware.versionRule')), unique('swVersion')]}
            hasFeedback
          >
            <Input id="firmware-sw" autoComplete="off" />
          </Form.Item>
          <Form.Item name="mode" label={t('firmware.fieldMode')} rules={[selectRequired]}>
            <Select
              options={FIRMWARE_MODES.map((mode) => ({
                value: mode,
                label: t(mode === 'remote' ? 'firmware.modeRemote' : 'firmware.modeLocal'),
              }))}
            />
          </Form.Item>
        </div>
        <Form.Item
          name="swCompatible"
          label={t('firmware.fieldCompatible')}
          extra={t('firmware.compatibleHint')}
          rules={[pattern(FIRMWARE_COMPATIBLE, t('firmware.compatibleRule'))]}
        >
          <Input id="firmware-compatible" placeholder=">=1.0.0 <2.0.0" />
        </Form.Item>
        {!row && <FirmwareFileFields picked={picked} testId="firmware-file" md5Id="firmware-md5" />}
        <Form.Item name="changeLog" label={t('firmware.fieldChangeLog')} rules={[max(FIRMWARE_LIMITS.changeLogMax)]}>
          <Input.TextArea id="firmware-changelog" rows={3} showCount maxLength={FIRMWARE_LIMITS.changeLogMax} />
        </Form.Item>
      </Form>
      {progress !== undefined && <Progress percent={progress} size="small" data-testid="firmware-progress" />}
    </Modal>
  );
}
