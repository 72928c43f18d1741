import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Dropdown } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalMessage } from '../lib/api-client';
import { registerTexts } from '../lib/feature-texts';
import { saveBlob } from '../lib/save-blob';
import { runExport, type ServerFile } from './export-file';

export type { ServerFile };

import { sharedTexts } from './shared-texts';

registerTexts(sharedTexts);

export interface ExportFormat<F extends string> {
  key: F;
  label: ReactNode;
  testId?: string;
}

export interface ExportButtonProps<F extends string> {
  /** Fetches the file of one format (the list's current filters are the caller's). */
  fetchFile(format: F): Promise<ServerFile>;
  /** The name to save under when the server gives none. */
  fallbackName(format: F): string;
  /** One format: a plain button. Several: the button opens a menu of them. */
  formats?: readonly ExportFormat<F>[];
  /**
   * Runs before the download and may take the export over (a large one prepared in the download centre):
   * answer true when it did, and nothing is downloaded here.
   */
  takeOver?: (format: F) => Promise<boolean>;
  /** The button's text; "Export" by default. */
  label?: ReactNode;
  /** Shown when the export fails without the server's own words. */
  failText?: string;
  disabled?: boolean;
  testId?: string;
}

/**
 * The export (download) button of a list: busy while the file is prepared, saves it under the server's
 * name, and says why when it fails (the server's words, e.g. 706 "narrow the period", or `failText`).
 */
export function ExportButton<F extends string = 'xlsx'>({
  fetchFile,
  fallbackName,
  formats,
  takeOver,
  label,
  failText,
  disabled,
  testId,
}: ExportButtonProps<F>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async (format: F) => {
    setBusy(true);
    try {
      await runExport(format, { takeOver, fetchFile, fallbackName, save: saveBlob });
    } catch (error) {
      void message.error(refusalMessage(error) ?? failText ?? t('shared.requestFailed'));
    } finally {
      setBusy(false);
    }
  };
  const button = (onClick?: () => void) => (
    <Button icon={<DownloadOutlined />} loading={busy} disabled={disabled} onClick={onClick} data-testid={testId}>
      {label ?? t('shared.export')}
    </Button>
  );
  if (formats && formats.length > 1)
    return (
      <Dropdown
        trigger={['click']}
        disabled={disabled}
        menu={{
          items: formats.map((f) => ({ key: f.key, label: <span data-testid={f.testId}>{f.label}</span> })),
          onClick: ({ key }) => void run(key as F),
        }}
      >
        {button()}
      </Dropdown>
    );
  const only = formats?.[0]?.key ?? ('xlsx' as F);
  return button(() => void run(only));
}
