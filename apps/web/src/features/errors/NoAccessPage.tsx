import { useTranslation } from 'react-i18next';
import { ErrorPage } from './ErrorPage';

export function NoAccessPage() {
  const { t } = useTranslation();
  return <ErrorPage status="403" title={t('error.noAccessTitle')} text={t('error.noAccessText')} testId="no-access-page" />;
}
