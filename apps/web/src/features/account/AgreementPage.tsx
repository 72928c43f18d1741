import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { agreementTexts } from './agreement-texts';
import { PublicFrame } from './PublicFrame';

registerTexts(agreementTexts);

type AgreementKey = keyof typeof agreementTexts.en;
const SECTIONS = [1, 2, 3, 4, 5, 6, 7] as const;

/**
 * The user agreement and privacy notice: /agreement and /register/userAgreement in the console's
 * language, /agreementen always in English (spec 01 §2).
 */
export function AgreementPage({ english = false }: { english?: boolean }) {
  const { t } = useTranslation();
  const text = (key: AgreementKey): string => (english ? agreementTexts.en[key] : t(key));
  return (
    <PublicFrame wide>
      <article className="sw-agreement" lang={english ? 'en' : undefined} data-testid="agreement">
        <Typography.Title level={1} style={{ fontSize: 30 }}>
          {text('agreement.title')}
        </Typography.Title>
        <Typography.Paragraph>{text('agreement.intro')}</Typography.Paragraph>
        {SECTIONS.map((n) => (
          <section key={n}>
            <Typography.Title level={4}>{text(`agreement.s${n}t`)}</Typography.Title>
            <Typography.Paragraph>{text(`agreement.s${n}`)}</Typography.Paragraph>
          </section>
        ))}
      </article>
      {english
        ? currentLanguage() !== 'en' && <Link to="/agreement">{t('agreement.local')}</Link>
        : currentLanguage() !== 'en' && <Link to="/agreementen">{t('agreement.english')}</Link>}
    </PublicFrame>
  );
}

export function AgreementEnPage() {
  return <AgreementPage english />;
}
