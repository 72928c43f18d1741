import { useTranslation } from 'react-i18next';
import { ErrorPage } from './ErrorPage';

export function NotFoundPage() {
  const { t } = useTranslation();
  return <ErrorPage status="404" title={t('error.notFoundTitle')} text={t('error.notFoundText')} testId="not-found-page" />;
}
