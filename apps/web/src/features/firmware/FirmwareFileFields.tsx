import { InboxOutlined } from '@ant-design/icons';
import { FIRMWARE_FILE_NAME, firmwareExtension, MD5_HEX } from '@sunward/contracts/firmware';
import { useQuery } from '@tanstack/react-query';
import { Form, type FormInstance, Input, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchFirmwareSettings, firmwareKeys } from './api';
import { md5 } from './md5';

/**
 * The file a firmware form sends: picked, checked in the browser (type, name, size against the server's
 * limit), and hashed so the MD5 field is pre-filled. The main and the battery upload forms share it.
 */
export function useFirmwareFile(form: FormInstance, onPick?: () => void) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const [hashing, setHashing] = useState(false);
  const settings = useQuery({ queryKey: firmwareKeys.settings, queryFn: fetchFirmwareSettings, staleTime: 300_000 });
  const maxBytes = settings.data?.maxBytes;
  const maxMb = maxBytes === undefined ? '' : String(Math.round((maxBytes / 1024 / 1024) * 10) / 10);

  const pick = async (chosen: File) => {
    onPick?.();
    form.setFields([{ name: 'md5', errors: [] }]);
    const problem = !firmwareExtension(chosen.name)
      ? t('firmware.fileType')
      : !FIRMWARE_FILE_NAME.test(chosen.name)
        ? t('firmware.fileNameRule')
        : chosen.size === 0
          ? t('firmware.fileEmpty')
          : maxBytes !== undefined && chosen.size > maxBytes
            ? t('firmware.fileTooBig', { max: maxMb })
            : undefined;
    setFile(chosen);
    setFileError(problem);
    if (problem) return;
    setHashing(true);
    try {
      form.setFieldValue('md5', md5(new Uint8Array(await chosen.arrayBuffer())));
      void form.validateFields(['md5']);
    } finally {
      setHashing(false);
    }
  };

  const clear = () => {
    setFile(undefined);
    setFileError(undefined);
  };

  return { file, fileError, setFileError, hashing, maxMb, pick, clear };
}

export type FirmwareFile = ReturnType<typeof useFirmwareFile>;

/** The file picker and the MD5 field of an upload form; `testId` names the drop area for tests. */
export function FirmwareFileFields({ picked, testId, md5Id }: { picked: FirmwareFile; testId: string; md5Id: string }) {
  const { t } = useTranslation();
  const { file, fileError, hashing, maxMb } = picked;
  return (
    <>
      <Form.Item
        label={t('firmware.fieldFile')}
        required
        validateStatus={fileError ? 'error' : undefined}
        help={fileError}
        extra={t('firmware.fileHint', { max: maxMb })}
      >
        <Upload.Dragger
          accept=".bin,.hex"
          maxCount={1}
          fileList={file ? [{ uid: 'chosen', name: file.name, size: file.size, status: fileError ? 'error' : 'done' }] : []}
          beforeUpload={(chosen) => {
            void picked.pick(chosen);
            // Sent with the form, not uploaded on its own.
            return false;
          }}
          onRemove={picked.clear}
          data-testid={testId}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('firmware.fileDrop')}</p>
        </Upload.Dragger>
      </Form.Item>
      <Form.Item
        name="md5"
        label={t('firmware.fieldMd5')}
        extra={hashing ? t('firmware.computing') : t('firmware.md5Hint')}
        rules={[
          { required: true, whitespace: true, message: t('firmware.required') },
          { pattern: MD5_HEX, message: t('firmware.md5Rule') },
        ]}
      >
        <Input id={md5Id} className="sw-firmware-mono" maxLength={32} autoComplete="off" spellCheck={false} />
      </Form.Item>
    </>
  );
}
