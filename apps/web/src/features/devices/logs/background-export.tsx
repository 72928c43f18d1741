import { DownloadOutlined } from '@ant-design/icons';
import type { DownloadRecord } from '@sunward/contracts/files';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The toast after a list's export was handed to the download centre: the console's one note (components). */
export { ExportStartedNote } from '../../../components/ExportStartedNote';

/** Starts a background export and says where to follow it. */
export function useBackgroundExport(start: () => Promise<DownloadRecord>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const record = await start();
      void message.success({
        content: (
          <span data-testid="log-export-started">
            {t('logs.exportStarted', { name: record.fileName })}{' '}
            <Link to="/download-center" style={{ color: 'inherit', textDecoration: 'underline' }}>
              {t('logs.openDownloads')}
            </Link>
          </span>
        ),
        duration: 8,
      });
    } catch {
      // The client already showed the server's refusal.
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/** The logs' export button: the file is prepared in the download centre. */
export function ExportToCentre({ busy, run, testId }: { busy: boolean; run: () => Promise<void>; testId: string }) {
  const { t } = useTranslation();
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void run()} data-testid={testId}>
      {t('logs.export')}
    </Button>
  );
}
