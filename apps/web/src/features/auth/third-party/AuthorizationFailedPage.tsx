import './third-party.css';
import { CloseCircleOutlined } from '@ant-design/icons';
import { isMessageKey, translate } from '@sunward/contracts/messages';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useSession } from '../../../app/session';
import { PublicFrame } from '../../../components/PublicFrame';
import { registerTexts } from '../../../lib/feature-texts';
import { currentLanguage } from '../../../lib/i18n';
import { thirdPartyTexts } from './third-party-texts';

registerTexts(thirdPartyTexts);

/**
 * /authorizationFailed (spec 01 §2): why a third-party sign-in did not succeed, in the user's language.
 * The address carries a response code or a reason word only, never text from the provider.
 */
export function AuthorizationFailedPage() {
  const { t } = useTranslation();
  const { signedIn } = useSession();
  const params = new URLSearchParams(useLocation().search);
  const code = params.get('code');
  const reason = params.get('reason');
  const codeKey = `code.${code ?? ''}`;
  let text: string;
  if (code && /^\d{1,4}$/.test(code) && code !== '0' && isMessageKey(codeKey)) text = translate(currentLanguage(), codeKey);
  else if (reason === 'denied') text = t('thirdParty.failedDenied');
  else if (reason === 'incomplete') text = t('thirdParty.failedIncomplete');
  else text = t('public.authorizationFailedText');

  return (
    <PublicFrame cardClassName="sw-third-card">
      <Result
        status="error"
        icon={<CloseCircleOutlined />}
        title={<h1 style={{ font: 'inherit', color: 'inherit', margin: 0 }}>{t('route.authorizationFailed')}</h1>}
        subTitle={<span data-testid="authorization-failed-reason">{text}</span>}
        extra={[
          <Link key="again" to={signedIn ? '/edit?tab=bound' : '/loginThird'}>
            <Button type="primary">{signedIn ? t('thirdParty.backToSettings') : t('thirdParty.tryAgain')}</Button>
          </Link>,
          signedIn ? null : (
            <Link key="login" to="/login">
              <Button>{t('public.backToLogin')}</Button>
            </Link>
          ),
        ]}
      />
    </PublicFrame>
  );
}
