import './third-party.css';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiCallError } from '../../../lib/api-client';
import { fetchThirdPartyProviders, thirdPartyKeys } from './api';
import { failurePath, leaveForProvider } from './third-party-flow';

/** The providers list, shared by the buttons and /loginThird (one request). */
export function useThirdPartyProviders() {
  return useQuery({ queryKey: thirdPartyKeys.providers, queryFn: fetchThirdPartyProviders, staleTime: 5 * 60_000 });
}

/**
 * One button per configured provider (POST /oauth/third/config); nothing when none is configured.
 * Under the password form (`login`) they sit below a divider; on /loginThird (`page`) they stand alone.
 * Its two texts live in the core catalogue: this is on the sign-in page, which has a weight budget.
 */
export function ThirdPartyButtons({ variant = 'login' }: { variant?: 'login' | 'page' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState<string>();
  const providers = useThirdPartyProviders();
  if (!providers.data?.length) return null;

  const start = async (id: string) => {
    setLeaving(id);
    try {
      await leaveForProvider(id, 'signIn');
    } catch (error) {
      setLeaving(undefined);
      if (error instanceof ApiCallError) await navigate(failurePath({ code: error.code }));
    }
  };

  return (
    <div className={variant === 'login' ? 'sw-login-third' : undefined} data-testid="third-party-providers">
      {variant === 'login' && <div className="sw-third-divider">{t('login.orUse')}</div>}
      <div className="sw-third-buttons">
        {providers.data.map((p) => (
          <Button
            key={p.id}
            size="large"
            block
            loading={leaving === p.id}
            data-testid={`third-party-${p.id}`}
            onClick={() => void start(p.id)}
          >
            {t('login.signInWith', { provider: p.name })}
          </Button>
        ))}
      </div>
    </div>
  );
}
