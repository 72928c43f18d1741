import { Button, Result, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session';

/** A result page with the way back the spec asks for: home when signed in, sign-in otherwise. */
export function ErrorPage({ status, title, text, testId }: { status: '404' | '403'; title: string; text: string; testId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { signedIn } = useSession();
  const actions: ReactNode[] = [];
  if (signedIn)
    actions.push(
      <Button key="home" type="primary" onClick={() => navigate('/')}>
        {t('error.backHome')}
      </Button>,
    );
  actions.push(
    <Button key="login" type={signedIn ? 'default' : 'primary'} onClick={() => navigate('/login')}>
      {t('error.toLogin')}
    </Button>,
  );
  return (
    <div className="sw-center-page" data-testid={testId}>
      <Result status={status} title={title} subTitle={text} extra={<Space>{actions}</Space>} />
    </div>
  );
}
