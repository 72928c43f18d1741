import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguagePickerLite } from '../../components/LanguagePickerLite';
import type { UiKey } from '../../locales/en';

/** The public routes of spec 01 §2 that later issues fill (registration, agreements, downloads). */
export function PublicInfoPage({ title, text }: { title: UiKey; text: UiKey }) {
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
      <Card className="sw-public-card">
        <Typography.Title level={2}>{t(title)}</Typography.Title>
        <Typography.Paragraph>{t(text)}</Typography.Paragraph>
        <Link to="/login">{t('public.backToLogin')}</Link>
      </Card>
    </main>
  );
}
