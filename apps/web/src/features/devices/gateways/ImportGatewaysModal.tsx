import type { GatewayImportResult } from '@sunward/contracts/gateways';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ImportDialog } from '../../../components/ImportDialog';
import { gatewayKeys, importGateways } from './api';

/**
 * Uploads one .xls/.xlsx gateway list. The answer stays in the dialog: how many were imported and a
 * table of the rows that were not, each with the server's reason in the user's language.
 */
export function ImportGatewaysModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <ImportDialog<object, GatewayImportResult>
      width={680}
      title={t('gateways.importTitle')}
      hint={t('gateways.importHint')}
      okText={t('gateways.import')}
      upload={(file) => importGateways(file)}
      onImported={() => void queryClient.invalidateQueries({ queryKey: gatewayKeys.all })}
      renderResult={(result) => (
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
      )}
      onClose={onClose}
      testIds={{
        modal: 'gateway-import-modal',
        file: 'gateway-import-file',
        refusal: 'gateway-import-refusal',
        submitId: 'gateway-import-submit',
      }}
    />
  );
}
