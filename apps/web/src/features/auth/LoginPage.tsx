import { Code } from '@sunward/contracts/codes';
import { LIMITS } from '@sunward/contracts/limits';
import { hasSpace } from '@sunward/contracts/validators';
import { useQuery } from '@tanstack/react-query';
import { type CSSProperties, type FormEvent, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { AntdScope } from '../../app/antd-scope';
import { useSession } from '../../app/session';
import { LanguagePickerLite } from '../../components/LanguagePickerLite';
import { ApiCallError } from '../../lib/api-client';
import './login.css';
import { oemBrand } from '../../lib/brand';
import { LOCK_ICON, LoginInput, LoginPassword, LoginSubmit, USER_ICON } from './login-fields';
import { challengeOf } from './second-factor-challenge';
import { fetchThirdPartyProviders, thirdPartyKeys } from './third-party/providers';

// Loaded only when providers are configured: with none (the default) the sign-in page does not carry them.
const ThirdPartyButtons = lazy(async () => ({ default: (await import('./third-party/ThirdPartyButtons')).ThirdPartyButtons }));

// Loaded only when an account asks for its second factor, so the sign-in page stays within its budget.
const SecondFactorForm = lazy(async () => ({ default: (await import('./SecondFactorForm')).SecondFactorForm }));

interface FieldErrors {
  account?: string;
  password?: string;
}

/**
 * The sign-in page. A plain form with fields drawn like antd's (login-fields.tsx) keeps this page, the first
 * one every user loads, free of antd and within its JavaScript budget (docs/benchmarks.md); the rules are the
 * same as elsewhere. The second factor and third-party buttons, loaded when needed, bring antd with them.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  // Registration and password reset come back here with the account filled in.
  const [account, setAccount] = useState(() => (location.state as { account?: string } | null)?.account ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  /** Set when the password was right and the account signs in with a second factor (code 112). */
  const [challenge, setChallenge] = useState<string | null>(null);
  const providers = useQuery({ queryKey: thirdPartyKeys.providers, queryFn: fetchThirdPartyProviders, staleTime: 5 * 60_000 });

  const enter = async () => {
    const from = (location.state as { from?: string } | null)?.from;
    await navigate(from && from !== '/login' ? from : '/', { replace: true });
  };

  const validate = (): FieldErrors => ({
    account: account.trim() === '' ? t('login.accountRequired') : undefined,
    password: password === '' ? t('login.passwordRequired') : hasSpace(password) ? t('validation.noSpaces') : undefined,
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const found = validate();
    setErrors(found);
    if (found.account || found.password) return;
    setSubmitting(true);
    setRefusal(null);
    try {
      await signIn(account.trim(), password);
      await enter();
    } catch (error) {
      const second = challengeOf(error);
      if (second) setChallenge(second);
      else if (error instanceof ApiCallError && error.code === Code.WRONG_CREDENTIALS) setErrors({ password: error.message });
      else if (error instanceof ApiCallError && error.message) setRefusal(error.message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <main className="sw-login">
      <section className="sw-login-hero" aria-hidden="true" style={heroStyle}>
        <div className="sw-login-brand" data-testid="login-brand">
          {oemBrand?.images.loginLogo ? (
            <img src={oemBrand.images.loginLogo} alt="" width={220} height={80} />
          ) : (
            <img src={oemBrand?.images.systemIcon ?? '/favicon.svg'} alt="" width={40} height={40} />
          )}
          <span>{t('app.name')}</span>
        </div>
        <div className="sw-login-sun" />
        <h2>{t('login.heroTitle')}</h2>
        <ul>
          <li>{t('login.heroPoint1')}</li>
          <li>{t('login.heroPoint2')}</li>
          <li>{t('login.heroPoint3')}</li>
        </ul>
      </section>
      <section className="sw-login-panel">
        <div className="sw-login-card">
          <h1>{t('login.title')}</h1>
          <p className="sw-muted">{t('login.subtitle')}</p>
          {/* A plain alert, not antd's: the sign-in page stays inside its 250 KB budget (docs/benchmarks.md). */}
          {refusal && (
            <div role="alert" className="sw-login-alert" data-testid="login-refusal">
              {refusal}
            </div>
          )}
          {challenge && (
            <AntdScope fallback={null}>
              <SecondFactorForm challenge={challenge} onDone={enter} onBack={() => setChallenge(null)} />
            </AntdScope>
          )}
          <form onSubmit={onSubmit} noValidate hidden={challenge !== null}>
            <div className="sw-field">
              <label htmlFor="account">{t('login.account')}</label>
              <LoginInput
                id="account"
                icon={USER_ICON}
                placeholder={t('login.accountPlaceholder')}
                autoComplete="username"
                maxLength={LIMITS.accountMaxLength}
                autoFocus
                value={account}
                invalid={!!errors.account}
                aria-describedby={errors.account ? 'account-error' : undefined}
                onChange={(e) => setAccount(e.target.value)}
              />
              {errors.account && (
                <div id="account-error" className="sw-field-error" role="alert">
                  {errors.account}
                </div>
              )}
            </div>
            <div className="sw-field">
              <label htmlFor="password">{t('login.password')}</label>
              <LoginPassword
                id="password"
                icon={LOCK_ICON}
                placeholder={t('login.passwordPlaceholder')}
                autoComplete="current-password"
                maxLength={LIMITS.passwordMaxLength}
                value={password}
                invalid={!!errors.password}
                aria-describedby={errors.password ? 'password-error' : undefined}
                onChange={(e) => setPassword(e.target.value)}
              />
              {errors.password && (
                <div id="password-error" className="sw-field-error" role="alert">
                  {errors.password}
                </div>
              )}
            </div>
            <LoginSubmit loading={submitting} testId="login-submit">
              {t('login.submit')}
            </LoginSubmit>
          </form>
          <div className="sw-login-links">
            <Link to="/forget">{t('login.forgot')}</Link>
            <Link to="/reg">{t('login.register')}</Link>
          </div>
          {providers.data?.length ? (
            <AntdScope fallback={null}>
              <ThirdPartyButtons />
            </AntdScope>
          ) : null}
        </div>
        {/* After the form in document order, so the account field is the first input and tab stop. */}
        <div className="sw-login-lang">
          <LanguagePickerLite />
        </div>
      </section>
    </main>
  );
}

/** On an OEM's domain the hero shows its login image (or its colour) instead of the product's gradient. */
const heroStyle: CSSProperties | undefined = oemBrand
  ? {
      background: oemBrand.images.loginImage
        ? `linear-gradient(rgba(0, 0, 0, 0.45), rgba(0, 0, 0, 0.65)), center / cover no-repeat url("${oemBrand.images.loginImage}")`
        : `linear-gradient(160deg, #1f1f1f 0%, ${oemBrand.themeColor ?? '#1f1f1f'} 100%)`,
    }
  : undefined;
