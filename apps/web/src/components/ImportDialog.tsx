import { Alert, Form, Modal, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalMessage } from '../lib/api-client';
import { registerTexts } from '../lib/feature-texts';
import { SpreadsheetPicker } from './SpreadsheetPicker';
import { sharedTexts } from './shared-texts';

registerTexts(sharedTexts);

export interface ImportDialogProps<V extends object, R> {
  title: string;
  /** What the file must hold (columns, a template), shown above the form. */
  hint?: ReactNode;
  /** Fields the import needs besides the file (`Form.Item`s, e.g. the plant); their values reach `upload`. */
  children?: ReactNode;
  initialValues?: Partial<V>;
  /** Sends the file with the fields; a thrown refusal is shown in the dialog in the server's words. */
  upload(file: File, values: V): Promise<R>;
  /**
   * The answer: either shown in the dialog (a count and the rows refused, say), which then offers only
   * Close, or undefined to close the dialog at once (the caller says what was imported).
   */
  renderResult?: (result: R) => ReactNode;
  onImported?: (result: R) => void;
  onClose(): void;
  width?: number;
  okText?: string;
  /** data-testid of the dialog, the file drop zone and the refusal; id of the OK button. */
  testIds?: { modal?: string; file?: string; refusal?: string; submitId?: string };
}

/**
 * The import dialog of every list that takes an Excel file (gateways, predicted energy...): one .xls/.xlsx
 * file dropped or chosen, optional fields, the upload busy state, the server's refusal above the form, and
 * either a result shown in place or the dialog closed.
 */
export function ImportDialog<V extends object = object, R = unknown>({
  title,
  hint,
  children,
  initialValues,
  upload,
  renderResult,
  onImported,
  onClose,
  width,
  okText,
  testIds = {},
}: ImportDialogProps<V, R>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ value: R }>();

  const submit = async (values: V) => {
    if (!file) {
      setFileError(t('shared.fileRequired'));
      return;
    }
    setRefusal(undefined);
    setBusy(true);
    try {
      const answer = await upload(file, values);
      onImported?.(answer);
      if (renderResult) setResult({ value: answer });
      else onClose();
    } catch (error) {
      setRefusal(refusalMessage(error) ?? t('shared.requestFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      width={width}
      title={title}
      okText={result ? t('shared.close') : (okText ?? t('shared.import'))}
      cancelButtonProps={result ? { style: { display: 'none' } } : undefined}
      cancelText={t('shared.cancel')}
      okButtonProps={{ loading: busy, id: testIds.submitId }}
      onOk={result ? onClose : () => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid={testIds.modal}
    >
      {result && renderResult ? (
        renderResult(result.value)
      ) : (
        <>
          {hint && <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>}
          {refusal && <Alert type="error" showIcon title={refusal} className="sw-modal-alert" data-testid={testIds.refusal} />}
          <Form<V>
            form={form}
            layout="vertical"
            requiredMark={false}
            initialValues={initialValues}
            onFinish={(values) => void submit(values)}
          >
            {children}
            <Form.Item label={t('shared.file')} validateStatus={fileError ? 'error' : undefined} help={fileError}>
              <SpreadsheetPicker
                file={file}
                onPick={(chosen) => {
                  setFile(chosen);
                  setFileError(undefined);
                  setRefusal(undefined);
                }}
                onWrongType={() => setFileError(t('shared.fileWrongType'))}
                onRemove={() => setFile(undefined)}
                dropText={t('shared.fileDrop')}
                testId={testIds.file}
              />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  );
}
