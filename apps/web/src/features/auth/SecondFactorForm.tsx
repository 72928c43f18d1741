import { SafetyOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { Button, Input } from 'antd';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { ApiCallError } from '../../lib/api-client';

/** Also here for pages that show the form anyway (LoginThirdPage); the sign-in page imports the light module. */
export { challengeOf } from './second-factor-challenge';

/**
 * Second step of a two-factor sign-in: a code from the authenticator app or a recovery code. An
 * expired step (113) goes back to the password; wrong codes count towards the sign-in lock on the server.
 */
export function SecondFactorForm({ challenge, onDone, onBack }: { challenge: string; onDone: () => Promise<void>; onBack: () => void }) {
  const { t } = useTranslation();
  const { completeSecondFactor } = useSession();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') {
      setError(t('login.codeRequired'));
      return;
    }
    setSubmitting(true);
    setError(undefined);
    try {
      await completeSecondFactor(challenge, code.trim());
      await onDone();
    } catch (refusal) {
      if (refusal instanceof ApiCallError && refusal.code === Code.SECOND_FACTOR_EXPIRED) onBack();
      else if (refusal instanceof ApiCallError) setError(refusal.message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate data-testid="second-factor-form">
      <h2 className="sw-login-step">{t('login.secondFactorTitle')}</h2>
      <p className="sw-muted">{t('login.secondFactorText')}</p>
      <div className="sw-field">
        <label htmlFor="second-factor-code">{t('login.secondFactorCode')}</label>
        <Input
          id="second-factor-code"
          size="large"
          prefix={<SafetyOutlined />}
          autoComplete="one-time-code"
          inputMode="text"
          maxLength={20}
          autoFocus
          value={code}
          status={error ? 'error' : undefined}
          aria-invalid={!!error}
          aria-describedby={error ? 'second-factor-error' : undefined}
          onChange={(e) => setCode(e.target.value)}
        />
        {error && (
          <div id="second-factor-error" className="sw-field-error" role="alert">
            {error}
          </div>
        )}
      </div>
      <Button type="primary" htmlType="submit" size="large" block loading={submitting} data-testid="second-factor-submit">
        {t('login.secondFactorSubmit')}
      </Button>
      <Button type="link" block onClick={onBack}>
        {t('login.secondFactorBack')}
      </Button>
    </form>
  );
}
