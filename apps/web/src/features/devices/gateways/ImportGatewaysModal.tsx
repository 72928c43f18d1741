import type { GatewayImportResult } from '@sunward/contracts/gateways';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SpreadsheetPicker } from '../../../components/SpreadsheetPicker';
import { gatewayKeys, importGateways, refusalMessage } from './api';

/**
 * Uploads one .xls/.xlsx gateway list. The answer stays in the dialog: how many were imported and a
 * table of the rows that were not, each with the server's reason in the user's language.
 */
export function ImportGatewaysModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const [refusal, setRefusal] = useState<string>();
  const [result, setResult] = useState<GatewayImportResult>();

  const upload = useMutation({
    mutationFn: (chosen: File) => importGateways(chosen),
    onSuccess: (answer) => {
      setResult(answer);
      void queryClient.invalidateQueries({ queryKey: gatewayKeys.all });
    },
    onError: (error) => setRefusal(refusalMessage(error) ?? t('gateways.requestFailed')),
  });

  const submit = () => {
    if (!file) {
      setFileError(t('gateways.fileRequired'));
      return;
    }
    setRefusal(undefined);
    upload.mutate(file);
  };

  return (
    <Modal
      open
      width={680}
      title={t('gateways.importTitle')}
      okText={result ? t('gateways.close') : t('gateways.import')}
      cancelButtonProps={result ? { style: { display: 'none' } } : undefined}
      cancelText={t('gateways.cancel')}
      okButtonProps={{ loading: upload.isPending, id: 'gateway-import-submit' }}
      onOk={result ? onClose : submit}
      onCancel={onClose}
      destroyOnHidden
      data-testid="gateway-import-modal"
    >
      {result ? (
        <div data-testid="gateway-import-result">
          <Alert
            type={result.errors.length === 0 ? 'success' : 'warning'}
            showIcon
            title={<span data-testid="gateway-imported-count">{t('gateways.importedCount', { count: result.imported })}</span>}
            className="sw-gateway-import-alert"
          />
          {result.errors.length > 0 && (
            <>
              <Typography.Paragraph strong>{t('gateways.importErrors', { count: result.errors.length })}</Typography.Paragraph>
              <Table
                size="small"
                rowKey={(r) => `${r.row}-${r.sn}`}
                pagination={result.errors.length > 10 ? { pageSize: 10 } : false}
                dataSource={result.errors}
                columns={[
                  { key: 'row', title: t('gateways.colRow'), dataIndex: 'row', width: 70 },
                  { key: 'sn', title: t('gateways.colSn'), dataIndex: 'sn', width: 180, render: (sn: string) => sn || '—' },
                  { key: 'problem', title: t('gateways.colProblem'), dataIndex: 'problem' },
                ]}
                data-testid="gateway-import-errors"
              />
            </>
          )}
        </div>
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('gateways.importHint')}</Typography.Paragraph>
          {refusal && (
            <Alert type="error" showIcon title={refusal} className="sw-gateway-import-alert" data-testid="gateway-import-refusal" />
          )}
          <SpreadsheetPicker
            file={file}
            onPick={(chosen) => {
              setFile(chosen);
              setFileError(undefined);
              setRefusal(undefined);
            }}
            onWrongType={() => setFileError(t('gateways.fileWrongType'))}
            onRemove={() => setFile(undefined)}
            dropText={t('gateways.fileDrop')}
            testId="gateway-import-file"
          />
          {fileError && <Typography.Text type="danger">{fileError}</Typography.Text>}
        </>
      )}
    </Modal>
  );
}
