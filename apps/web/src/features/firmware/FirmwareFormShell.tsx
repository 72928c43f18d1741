import { Code } from '@sunward/contracts/codes';
import { FIRMWARE_COMPATIBLE, FIRMWARE_LIMITS, FIRMWARE_MODES, FIRMWARE_VERSION, type FirmwareType } from '@sunward/contracts/firmware';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, type FormInstance, Input, Modal, Progress, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../lib/api-client';
import { checkFirmware, fieldErrors, refusalMessage } from './api';
import { FirmwareFileFields, useFirmwareFile } from './FirmwareFileFields';
import { useFirmwareRules } from './form-rules';

/** The fields every firmware form has, whatever the image is for. */
export interface FirmwareFormBase {
  name: string;
  itemNumber?: string;
  hwVersion?: string;
  swVersion: string;
  swCompatible?: string;
  mode: (typeof FIRMWARE_MODES)[number];
  changeLog?: string;
  md5?: string;
}

/** The common texts of a form, trimmed: blank optional texts become undefined. */
export const COMMON_TEXT_FIELDS = ['name', 'itemNumber', 'hwVersion', 'swVersion', 'swCompatible', 'changeLog'] as const;

interface Props<V extends FirmwareFormBase> {
  form: FormInstance<V>;
  /** The row edited (metadata only), or undefined for an upload with its file. */
  row?: { id: number; name: string };
  initial: Partial<V>;
  /** The form's own fields (type, maker, product...), placed first in the grid. */
  children: ReactNode;
  /**
   * How the library saves: the fields the server takes from the form's values, an edit (metadata only),
   * an upload of the file with its fields as multipart text (progress 0–100), the query key to refresh.
   */
  library: {
    /** `firmware` (gateway and inverter library) or `battery-firmware`: prefixes every id and test id. */
    idPrefix: string;
    /** The text key of the upload dialog's title. */
    uploadTitle: string;
    /** The form's field names the server may name in a code-4 refusal besides the common ones. */
    ownFields: readonly string[];
    /** The image type the software version must be unique within (undefined: not chosen yet). */
    versionType(form: FormInstance<V>): FirmwareType | undefined;
    fieldsOf(values: V): object;
    update(id: number, fields: never): Promise<unknown>;
    upload(fields: Record<string, string>, file: File, onProgress: (percent: number) => void): Promise<unknown>;
    invalidate: QueryKey;
  };
  onClose(): void;
}

/**
 * The upload / edit dialog of a firmware image, shared by the main library (gateways, inverters) and the
 * battery library: name, versions, mode, compatible versions, file with its browser-computed MD5 and change
 * log, every field checked as the user types; name and software version checked against the library live.
 */
export function FirmwareFormShell<V extends FirmwareFormBase>({
  form,
  row,
  initial,
  children,
  library: { idPrefix, uploadTitle, ownFields, versionType, fieldsOf, update, upload, invalidate },
  onClose,
}: Props<V>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number>();
  const [refusal, setRefusal] = useState<string>();
  const picked = useFirmwareFile(form, () => setRefusal(undefined));
  const { file, fileError, setFileError, hashing } = picked;
  const { required, selectRequired, max, pattern } = useFirmwareRules();
  const rowId = row?.id;
  const editing = rowId !== undefined;
  const formFields: readonly string[] = [...COMMON_TEXT_FIELDS, 'mode', 'md5', ...ownFields];

  /** 4000 / 4002 from the live check beside the field; other failures do not block typing. */
  const unique =
    (field: 'name' | 'swVersion'): Rule =>
    () => ({
      async validator(_, value?: string) {
        const text = value?.trim();
        if (!text) return;
        const type = versionType(form);
        if (field === 'swVersion' && (!type || !FIRMWARE_VERSION.test(text))) return;
        try {
          await checkFirmware(field === 'name' ? { name: text, id: rowId } : { swVersion: text, type, id: rowId });
        } catch (error) {
          if (error instanceof ApiCallError && error.code === Code.FIRMWARE_NAME_DUPLICATE) throw new Error(t('firmware.nameTaken'));
          if (error instanceof ApiCallError && error.code === Code.FIRMWARE_VERSION_DUPLICATE) throw new Error(t('firmware.versionTaken'));
        }
      },
    });

  const mutation = useMutation({
    mutationFn: async (values: V) => {
      if (rowId !== undefined) return update(rowId, fieldsOf(values) as never);
      if (!file) throw new Error('no file');
      setProgress(0);
      return upload(uploadFields(file.name, values.md5, fieldsOf(values)), file, setProgress);
    },
    onSuccess: () => {
      void message.success(t(editing ? 'firmware.saved' : 'firmware.uploaded'));
      void queryClient.invalidateQueries({ queryKey: invalidate });
      onClose();
    },
    onError: (error) => {
      setProgress(undefined);
      if (error instanceof ApiCallError && error.code === Code.FIRMWARE_NAME_DUPLICATE) {
        form.setFields([{ name: 'name' as never, errors: [t('firmware.nameTaken')] }]);
        return;
      }
      if (error instanceof ApiCallError && error.code === Code.FIRMWARE_VERSION_DUPLICATE) {
        form.setFields([{ name: 'swVersion' as never, errors: [t('firmware.versionTaken')] }]);
        return;
      }
      const placed: string[] = [];
      for (const [field, text] of Object.entries(fieldErrors(error))) {
        if (field === 'file' || field === 'fileName') setFileError(text);
        else if (formFields.includes(field)) form.setFields([{ name: field as never, errors: [text] }]);
        else continue;
        placed.push(field);
      }
      if (placed.length === 0) setRefusal(refusalMessage(error) ?? t('firmware.requestFailed'));
    },
  });

  const submit = async () => {
    if (!editing && !file) setFileError(t('firmware.fileRequired'));
    const values = await form.validateFields().catch(() => undefined);
    if (!values || (!editing && (!file || fileError))) return;
    setRefusal(undefined);
    mutation.mutate(values);
  };

  return (
    <Modal
      open
      width={720}
      title={row ? t('firmware.editTitle', { name: row.name }) : t(uploadTitle)}
      okText={editing ? t('firmware.save') : t('firmware.upload')}
      cancelText={t('firmware.cancel')}
      okButtonProps={{ loading: mutation.isPending, disabled: hashing, id: `${idPrefix}-submit` }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      data-testid={`${idPrefix}-form`}
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} data-testid={`${idPrefix}-refusal`} />}
      <Form<V> form={form} layout="vertical" initialValues={initial} validateTrigger="onChange" requiredMark>
        <Form.Item name="name" label={t('firmware.fieldName')} rules={[required, max(FIRMWARE_LIMITS.nameMax), unique('name')]} hasFeedback>
          <Input id={`${idPrefix}-name`} autoComplete="off" />
        </Form.Item>
        <div className="sw-firmware-form-grid">
          {children}
          <Form.Item name="itemNumber" label={t('firmware.fieldItemNumber')} rules={[max(FIRMWARE_LIMITS.textMax)]}>
            <Input id={`${idPrefix}-item`} />
          </Form.Item>
          <Form.Item name="hwVersion" label={t('firmware.fieldHwVersion')} rules={[pattern(FIRMWARE_VERSION, t('firmware.versionRule'))]}>
            <Input id={`${idPrefix}-hw`} />
          </Form.Item>
          <Form.Item
            name="swVersion"
            label={t('firmware.fieldSwVersion')}
            rules={[required, pattern(FIRMWARE_VERSION, t('firmware.versionRule')), unique('swVersion')]}
            hasFeedback
          >
            <Input id={`${idPrefix}-sw`} autoComplete="off" />
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
          <Input id={`${idPrefix}-compatible`} placeholder=">=1.0.0 <2.0.0" />
        </Form.Item>
        {!editing && <FirmwareFileFields picked={picked} testId={`${idPrefix}-file`} md5Id={`${idPrefix}-md5`} />}
        <Form.Item name="changeLog" label={t('firmware.fieldChangeLog')} rules={[max(FIRMWARE_LIMITS.changeLogMax)]}>
          <Input.TextArea id={`${idPrefix}-changelog`} rows={3} showCount maxLength={FIRMWARE_LIMITS.changeLogMax} />
        </Form.Item>
      </Form>
      {progress !== undefined && <Progress percent={progress} size="small" data-testid={`${idPrefix}-progress`} />}
    </Modal>
  );
}

/** The common texts of a form's values, trimmed, blank ones undefined. */
export function trimmedTexts(values: FirmwareFormBase): Record<(typeof COMMON_TEXT_FIELDS)[number], string | undefined> {
  const out = {} as Record<(typeof COMMON_TEXT_FIELDS)[number], string | undefined>;
  for (const key of COMMON_TEXT_FIELDS) out[key] = values[key]?.trim() || undefined;
  return out;
}

/** The multipart fields of an upload: the file's name, the MD5 typed or computed, then every field given. */
export function uploadFields(fileName: string, md5: string | undefined, fields: object): Record<string, string> {
  const body: Record<string, string> = { fileName, md5: md5?.trim() ?? '' };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = String(value);
  return body;
}
