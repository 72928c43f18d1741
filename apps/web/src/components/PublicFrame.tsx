import { Card } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguagePickerLite } from './LanguagePickerLite';

/**
 * The frame of every public page (sign-up, password reset, third-party sign-in, release log, public
 * information): the brand linking to sign-in, the language picker, and one card holding the page.
 */
export function PublicFrame({ children, cardClassName, testId }: { children: ReactNode; cardClassName: string; testId?: string }) {
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
      <Card className={cardClassName} data-testid={testId}>
        {children}
      </Card>
    </main>
  );
}
