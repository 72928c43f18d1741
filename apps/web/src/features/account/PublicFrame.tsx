import './account.css';
import { Card } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguagePickerLite } from '../../components/LanguagePickerLite';

/** The frame of the public account pages: brand linking to sign-in, language picker, one card. */
export function PublicFrame({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  return (
    <main className="sw-public">
      <header className="sw-public-header">
        <Link to="/login" className="sw-public-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>{t('app.name')}</span>
        </Link>
        <LanguagePickerLite />
      </header>
      <Card className={wide ? 'sw-account-card sw-account-wide' : 'sw-account-card'}>{children}</Card>
    </main>
  );
}
