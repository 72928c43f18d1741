import './third-party.css';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { LIMITS } from '@sunward/contracts/limits';
import { hasSpace } from '@sunward/contracts/validators';
import { Alert, Button, Input, Spin, Typography } from 'antd';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../../app/session';
import { PublicFrame } from '../../../components/PublicFrame';
import { ApiCallError } from '../../../lib/api-client';
import { registerTexts } from '../../../lib/feature-texts';
import { clearStoredUser, storedSession } from '../../../lib/storage';
import { signIn as passwordGrant } from '../api';
import { challengeOf, SecondFactorForm } from '../SecondFactorForm';
import { bindThirdParty, completeThirdParty } from './api';
import { ThirdPartyButtons, useThirdPartyProviders } from './ThirdPartyButtons';
import { dropTicket, failurePath, identityLabel, keepTicket, type PendingTicket, pendingTicket, takeBrowserKey } from './third-party-flow';
import { thirdPartyTexts } from './third-party-texts';

registerTexts(thirdPartyTexts);

type Callback =
  | { kind: 'callback'; code: string; state: string; iss: string | undefined }
  | { kind: 'failed'; path: string }
  | { kind: 'none' };

/** What the provider sent back in the address: a code and state, an error, or nothing (the page was opened directly). */
function readCallback(search: string): Callback {
  const params = new URLSearchParams(search);
  if (params.has('error')) return { kind: 'failed', path: failurePath({ reason: 'denied' }) };
  const code = params.get('code');
  const state = params.get('state');
  if (code && state) return { kind: 'callback', code, state, iss: params.get('iss') ?? undefined };
  if (code || state) return { kind: 'failed', path: failurePath({ reason: 'incomplete' }) };
  return { kind: 'none' };
}

const finishing = new Set<string>();

/** Signs the browser in with tokens from the server and opens the console with nothing of a previous user kept. */
function enterConsole(tokens: { access_token: string; refresh_token: string; expires_in: number; token_type: 'bearer' }) {
  clearStoredUser();
  storedSession.write(tokens);
  window.location.replace('/');
}

/**
 * /loginThird (spec 01 §2): where the provider sends the browser back. Completes the flow and signs in,
 * or, for an identity not bound yet, asks the person to sign in once with their account and password
 * to bind it. Opened directly, it lists the providers. A signed-in user binding from personal settings
 * comes back here too and returns to /edit.
 */
export function LoginThirdPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { signedIn } = useSession();
  const [callback] = useState(() => readCallback(window.location.search));
  const [ticket, setTicket] = useState<PendingTicket | undefined>(() => (callback.kind === 'none' ? pendingTicket() : undefined));
  /** Set when the identity's account signs in with a second factor (code 112). */
  const [challenge, setChallenge] = useState<string>();
  const providers = useThirdPartyProviders();

  useEffect(() => {
    if (callback.kind === 'failed') {
      void navigate(callback.path, { replace: true });
      return;
    }
    if (callback.kind !== 'callback') return;
    // Once per callback even when React runs the effect twice (StrictMode): the state is single-use.
    if (finishing.has(callback.state)) return;
    const finish = async () => {
      try {
        const browserKey = takeBrowserKey(callback.state);
        // Another browser (or tab) started this flow: a planted link must not sign this one in.
        if (!browserKey) return void (await navigate(failurePath({ code: Code.THIRD_PARTY_STATE_INVALID }), { replace: true }));
        const answer = await completeThirdParty({ code: callback.code, state: callback.state, iss: callback.iss, browserKey });
        if (answer.outcome === 'signedIn') return enterConsole(answer);
        if (answer.purpose === 'bind' && storedSession.read()) {
          await bindThirdParty(answer.ticket);
          await navigate('/edit?tab=bound', { replace: true, state: { thirdPartyBound: answer.identity.provider.name } });
          return;
        }
        keepTicket(answer);
        setTicket(pendingTicket());
        // The code and state are used up: keep them out of the address bar and the history.
        await navigate('/loginThird', { replace: true });
      } catch (error) {
        const second = challengeOf(error);
        if (second) {
          setChallenge(second);
          await navigate('/loginThird', { replace: true });
          return;
        }
        await navigate(failurePath({ code: error instanceof ApiCallError ? error.code : 0 }), { replace: true });
      }
    };
    finishing.add(callback.state);
    void finish();
  }, [callback, navigate]);

  let body: ReactNode;
  if (challenge) {
    body = (
      <SecondFactorForm
        challenge={challenge}
        onDone={async () => window.location.replace('/')}
        onBack={() => void navigate('/login', { replace: true })}
      />
    );
  } else if (callback.kind !== 'none' && !ticket) {
    body = (
      <div className="sw-third-actions" data-testid="third-party-completing">
        <Spin />
        <Typography.Text>{t('thirdParty.completing')}</Typography.Text>
      </div>
    );
  } else if (ticket) {
    const cancel = () => {
      dropTicket();
      void navigate(signedIn ? '/' : '/login', { replace: true });
    };
    body = <BindingForm ticket={ticket} signedIn={signedIn} onCancel={cancel} />;
  } else {
    body = (
      <>
        <Typography.Title level={1} style={{ fontSize: 24 }}>
          {t('thirdParty.chooseTitle')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('thirdParty.chooseText')}</Typography.Paragraph>
        {providers.isSuccess && providers.data.length === 0 ? (
          <Typography.Paragraph>{t('thirdParty.none')}</Typography.Paragraph>
        ) : (
          <ThirdPartyButtons variant="page" />
        )}
        <div>
          <Link to="/login">{t('public.backToLogin')}</Link>
        </div>
      </>
    );
  }

  return <PublicFrame cardClassName="sw-third-card">{body}</PublicFrame>;
}

/** Binding an identity not bound yet: sign in once with account and password (or use the session open in this browser). */
function BindingForm({ ticket, signedIn, onCancel }: { ticket: PendingTicket; signedIn: boolean; onCancel: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [refusal, setRefusal] = useState<string>();
  const [boundFailed, setBoundFailed] = useState(false);
  const [challenge, setChallenge] = useState<string>();
  const [busy, setBusy] = useState(false);
  const provider = ticket.identity.provider.name;
  const identity = identityLabel(ticket.identity);

  const bindAndEnter = async () => {
    try {
      await bindThirdParty(ticket.ticket);
      dropTicket();
      window.location.replace('/');
    } catch (error) {
      // Signed in but not bound (e.g. the identity belongs to another account): say why, let them carry on.
      setRefusal(error instanceof ApiCallError ? error.message : undefined);
      setBoundFailed(true);
      dropTicket();
    }
  };

  const bindCurrent = async () => {
    setBusy(true);
    await bindAndEnter();
    setBusy(false);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (account.trim() === '') return setFieldError(t('login.accountRequired'));
    if (password === '') return setFieldError(t('login.passwordRequired'));
    if (hasSpace(password)) return setFieldError(t('validation.noSpaces'));
    setFieldError(undefined);
    setRefusal(undefined);
    setBusy(true);
    try {
      const tokens = await passwordGrant(account.trim(), password);
      clearStoredUser();
      storedSession.write(tokens);
      await bindAndEnter();
    } catch (error) {
      const second = challengeOf(error);
      if (second) setChallenge(second);
      else if (error instanceof ApiCallError) setRefusal(error.message);
    } finally {
      setBusy(false);
    }
  };

  if (boundFailed) {
    return (
      <>
        <Alert type="error" showIcon title={refusal} data-testid="third-party-refusal" />
        <Button type="primary" onClick={() => window.location.replace('/')}>
          {t('thirdParty.continue')}
        </Button>
      </>
    );
  }

  if (challenge) return <SecondFactorForm challenge={challenge} onDone={bindAndEnter} onBack={() => setChallenge(undefined)} />;

  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 24 }}>
        {t('thirdParty.bindTitle', { provider })}
      </Typography.Title>
      <Typography.Paragraph data-testid="third-party-identity">{t('thirdParty.bindText', { provider, identity })}</Typography.Paragraph>
      {refusal && <Alert type="error" showIcon title={refusal} data-testid="third-party-refusal" />}
      {signedIn && user ? (
        <div className="sw-third-actions">
          <Button type="primary" loading={busy} onClick={() => void bindCurrent()} data-testid="third-party-bind-current">
            {t('thirdParty.bindCurrent', { account: user.account })}
          </Button>
          <Button onClick={onCancel}>{t('thirdParty.cancel')}</Button>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <div className="sw-field">
            <label htmlFor="bind-account">{t('login.account')}</label>
            <Input
              id="bind-account"
              size="large"
              prefix={<UserOutlined />}
              autoComplete="username"
              maxLength={LIMITS.accountMaxLength}
              autoFocus
              value={account}
              onChange={(e) => setAccount(e.target.value)}
            />
          </div>
          <div className="sw-field">
            <label htmlFor="bind-password">{t('login.password')}</label>
            <Input.Password
              id="bind-password"
              size="large"
              prefix={<LockOutlined />}
              autoComplete="current-password"
              maxLength={LIMITS.passwordMaxLength}
              value={password}
              status={fieldError ? 'error' : undefined}
              aria-describedby={fieldError ? 'bind-error' : undefined}
              onChange={(e) => setPassword(e.target.value)}
            />
            {fieldError && (
              <div id="bind-error" className="sw-field-error" role="alert">
                {fieldError}
              </div>
            )}
          </div>
          <div className="sw-third-actions">
            <Button type="primary" htmlType="submit" size="large" loading={busy} data-testid="third-party-bind-submit">
              {t('thirdParty.bindSubmit')}
            </Button>
            <Button size="large" onClick={onCancel}>
              {t('thirdParty.cancel')}
            </Button>
          </div>
        </form>
      )}
      <Typography.Paragraph type="secondary">
        {t('thirdParty.noAccount')}{' '}
        <a href="/reg" target="_blank" rel="noopener">
          {t('thirdParty.createAccount')}
        </a>
      </Typography.Paragraph>
    </>
  );
}
