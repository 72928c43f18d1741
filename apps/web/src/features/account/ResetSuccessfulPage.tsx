import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { registerTexts } from '../../lib/feature-texts';
import { PublicFrame } from './PublicFrame';
import { signupTexts } from './signup-texts';

registerTexts(signupTexts);

/** /resetSuccessful: the password was changed and every session signed out; on to sign-in with the account filled in. */
export function ResetSuccessfulPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const account = (useLocation().state as { account?: string } | null)?.account;
  return (
    <PublicFrame>
      <Result
        status="success"
        title={t('reset.title')}
        subTitle={t('reset.text')}
        extra={
          <Button type="primary" size="large" onClick={() => void navigate('/login', { state: { account } })} data-testid="reset-sign-in">
            {t('reset.signIn')}
          </Button>
        }
      />
    </PublicFrame>
  );
}
