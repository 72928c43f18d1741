import { useQuery } from '@tanstack/react-query';
import { Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchAbout } from '../features/auth/api';

export function AppFooter() {
  const { t } = useTranslation();
  const { data } = useQuery({ queryKey: ['about'], queryFn: fetchAbout, staleTime: Number.POSITIVE_INFINITY });
  return (
    <Layout.Footer className="sw-footer" data-testid="footer">
      <span>{t('shell.copyright', { year: new Date().getFullYear() })}</span>
      {data && <span className="sw-footer-version">{t('shell.version', { version: data.version })}</span>}
    </Layout.Footer>
  );
}
