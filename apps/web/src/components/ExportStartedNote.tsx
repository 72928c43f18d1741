import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { registerTexts } from '../lib/feature-texts';
import { sharedTexts } from './shared-texts';

registerTexts(sharedTexts);

/**
 * The toast after an export was handed to the download centre ("… is being prepared in the download centre"):
 * its file name and a link there. Every export that goes to the centre says it with this one note.
 */
export function ExportStartedNote({ fileName, testId }: { fileName: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <span data-testid={testId}>
      {t('shared.exportStarted', { name: fileName })} {/* The toast sits outside the theme's link colours: its text colour, underlined. */}
      <Link to="/download-center" style={{ color: 'inherit', textDecoration: 'underline' }}>
        {t('shared.openDownloads')}
      </Link>
    </span>
  );
}
