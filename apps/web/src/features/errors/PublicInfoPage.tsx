import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicFrame } from '../../components/PublicFrame';
import type { UiKey } from '../../locales/en';

/** The public routes of spec 01 §2 that later issues fill (registration, agreements, downloads). */
export function PublicInfoPage({ title, text }: { title: UiKey; text: UiKey }) {
  const { t } = useTranslation();
  return (
    <PublicFrame cardClassName="sw-public-card">
      <Typography.Title level={1} style={{ fontSize: 30 }}>
        {t(title)}
      </Typography.Title>
      <Typography.Paragraph>{t(text)}</Typography.Paragraph>
      <Link to="/login">{t('public.backToLogin')}</Link>
    </PublicFrame>
  );
}
