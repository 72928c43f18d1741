import type { BatteryFirmwareFields, BatteryFirmwareRow, BatteryTypeNode } from '@sunward/contracts/battery-firmware';
import { Code } from '@sunward/contracts/codes';
import { FIRMWARE_COMPATIBLE, FIRMWARE_LIMITS, FIRMWARE_MODES, FIRMWARE_VERSION } from '@sunward/contracts/firmware';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal, Progress, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../../lib/api-client';
import { checkFirmware, fieldErrors, refusalMessage } from '../api';
import { FirmwareFileFields, useFirmwareFile } from '../FirmwareFileFields';
import { useFirmwareRules } from '../form-rules';
import { secondaryTypeOptions } from './BatteryProductsCard';
import { batteryKeys, fetchBatteryProducts, saveBatteryFirmware, updateBatteryFirmware } from './battery-api';

type FormValues = {
  name: string;
  batteryTypeId?: number;
  batteryProductId?: number;
  itemNumber?: string;
  hwVersion?: string;
  swVersion: string;
  swCompatible?: string;
  mode: BatteryFirmwareFields['mode'];
  changeLog?: string;
  md5?: string;
};

const TEXT_FIELDS = ['name', 'itemNumber', 'hwVersion', 'swVersion', 'swCompatible', 'changeLog'] as const;
const FORM_FIELDS: readonly string[] = [...TEXT_FIELDS, 'batteryTypeId', 'batteryProductId', 'mode', 'md5'];

/**
 * Upload (a new battery image with its file) or edit (metadata only): a secondary battery type, then a
 * product of that type, the versions and the file, whose MD5 the browser computes and pre-fills as in
 * the main library's form. Name and software version are checked live.
 */
export function BatteryFirmwareFormModal({
  tree,
  row,
  batteryTypeId,
  onClose,
}: {
  tree: BatteryTypeNode[];
  row?: BatteryFirmwareRow;
  batteryTypeId?: number;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [progress, setProgress] = useState<number>();
  const [refusal, setRefusal] = useState<string>();
  const picked = useFirmwareFile(form, () => setRefusal(undefined));
  const { file, fileError, setFileError, hashing } = picked;
  const chosenType = Form.useWatch('batteryTypeId', form) as number | undefined;
  const products = useQuery({
    queryKey: batteryKeys.products({ batteryTypeId: chosenType, size: 100 }),
    queryFn: () => fetchBatteryProducts({ batteryTypeId: chosenType, size: 100 }),
    enabled: chosenType !== undefined,
  });
  const secondaryIds = new Set(tree.flatMap((p) => p.children.map((c) => c.id)));

  const { required, selectRequired, max, pattern } = useFirmwareRules();
  const unique =
    (field: 'name' | 'swVersion'): Rule =>
    () => ({
      async validator(_, value?: string) {
        const text = value?.trim();
        if (!text || (field === 'swVersion' && !FIRMWARE_VERSION.test(text))) return;
        try {
          await checkFirmware(field === 'name' ? { name: text, id: row?.id } : { swVersion: text, type: 'battery', id: row?.id });
        } catch (error) {
          if (error instanceof ApiCallError && error.code === Code.FIRMWARE_NAME_DUPLICATE) throw new Error(t('firmware.nameTaken'));
          if (error instanceof ApiCallError && error.code === Code.FIRMWARE_VERSION_DUPLICATE) throw new Error(t('firmware.versionTaken'));
        }
      },
    });

  const save = useMutation({
    mutationFn: async (values: FormValues) => {
      const texts: Record<string, string | undefined> = {};
      for (const key of TEXT_FIELDS) texts[key] = values[key]?.trim() || undefined;
      const fields: BatteryFirmwareFields = {
        name: texts.name ?? '',
        swVersion: texts.swVersion ?? '',
        itemNumber: texts.itemNumber,
        hwVersion: texts.hwVersion,
        swCompatible: texts.swCompatible,
        changeLog: texts.changeLog,
        batteryTypeId: values.batteryTypeId ?? 0,
        batteryProductId: values.batteryProductId ?? 0,
        mode: values.mode,
      };
      if (row) return updateBatteryFirmware(row.id, fields);
      if (!file) throw new Error('no file');
      const body: Record<string, string> = { fileName: file.name, md5: values.md5?.trim() ?? '' };
      for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = String(value);
      setProgress(0);
      return saveBatteryFirmware(body, file, setProgress);
    },
    onSuccess: () => {
      void message.success(t(row ? 'firmware.saved' : 'firmware.uploaded'));
      void queryClient.invalidateQueries({ queryKey: batteryKeys.all });
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
      const placed: string[] = [];
      for (const [field, text] of Object.entries(fieldErrors(error))) {
        if (field === 'file' || field === 'fileName') setFileError(text);
        else if (FORM_FIELDS.includes(field)) form.setFields([{ name: field as keyof FormValues, errors: [text] }]);
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
        batteryTypeId: row.batteryType.id,
        batteryProductId: row.batteryProduct.id,
        itemNumber: row.itemNumber ?? undefined,
        hwVersion: row.hwVersion ?? undefined,
        swVersion: row.swVersion,
        swCompatible: row.swCompatible ?? undefined,
        mode: row.mode,
        changeLog: row.changeLog ?? undefined,
      }
    : { mode: 'remote', batteryTypeId: batteryTypeId !== undefined && secondaryIds.has(batteryTypeId) ? batteryTypeId : undefined };

  return (
    <Modal
      open
      width={720}
      title={row ? t('firmware.editTitle', { name: row.name }) : t('batteryFirmware.uploadTitle')}
      okText={row ? t('firmware.save') : t('firmware.upload')}
      cancelText={t('firmware.cancel')}
      okButtonProps={{ loading: save.isPending, disabled: hashing, id: 'battery-firmware-submit' }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      data-testid="battery-firmware-form"
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} data-testid="battery-firmware-refusal" />}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} validateTrigger="onChange" requiredMark>
        <Form.Item name="name" label={t('firmware.fieldName')} rules={[required, max(FIRMWARE_LIMITS.nameMax), unique('name')]} hasFeedback>
          <Input id="battery-firmware-name" autoComplete="off" />
        </Form.Item>
        <div className="sw-firmware-form-grid">
          <Form.Item name="batteryTypeId" label={t('batteryFirmware.fieldType')} rules={[selectRequired]}>
            <Select
              id="battery-firmware-type"
              placeholder={t('batteryFirmware.typePlaceholder')}
              options={secondaryTypeOptions(tree)}
              onChange={() => form.setFieldValue('batteryProductId', undefined)}
            />
          </Form.Item>
          <Form.Item name="batteryProductId" label={t('batteryFirmware.fieldProduct')} rules={[selectRequired]}>
            <Select
              id="battery-firmware-product"
              placeholder={t('batteryFirmware.productPlaceholder')}
              disabled={chosenType === undefined}
              loading={products.isFetching}
              notFoundContent={t('batteryFirmware.noProductOfType')}
              options={(products.data?.infos ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.model})` }))}
            />
          </Form.Item>
          <Form.Item name="itemNumber" label={t('firmware.fieldItemNumber')} rules={[max(FIRMWARE_LIMITS.textMax)]}>
            <Input id="battery-firmware-item" />
          </Form.Item>
          <Form.Item name="hwVersion" label={t('firmware.fieldHwVersion')} rules={[pattern(FIRMWARE_VERSION, t('firmware.versionRule'))]}>
            <Input id="battery-firmware-hw" />
          </Form.Item>
          <Form.Item
            name="swVersion"
            label={t('firmware.fieldSwVersion')}
            rules={[required, pattern(FIRMWARE_VERSION, t('firmware.versionRule')), unique('swVersion')]}
            hasFeedback
          >
            <Input id="battery-firmware-sw" autoComplete="off" />
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
          <Input id="battery-firmware-compatible" placeholder=">=1.0.0 <2.0.0" />
        </Form.Item>
        {!row && <FirmwareFileFields picked={picked} testId="battery-firmware-file" md5Id="battery-firmware-md5" />}
        <Form.Item name="changeLog" label={t('firmware.fieldChangeLog')} rules={[max(FIRMWARE_LIMITS.changeLogMax)]}>
          <Input.TextArea id="battery-firmware-changelog" rows={3} showCount maxLength={FIRMWARE_LIMITS.changeLogMax} />
        </Form.Item>
      </Form>
      {progress !== undefined && <Progress percent={progress} size="small" />}
    </Modal>
  );
}
