import './third-party.css';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { BoundIdentity, ThirdPartyProvider } from '@sunward/contracts/third-party';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiCallError } from '../../../lib/api-client';
import { registerTexts } from '../../../lib/feature-texts';
import { currentLanguage } from '../../../lib/i18n';
import { fetchBoundIdentities, thirdPartyKeys, unbindThirdParty } from './api';
import { useThirdPartyProviders } from './ThirdPartyButtons';
import { leaveForProvider } from './third-party-flow';
import { thirdPartyTexts } from './third-party-texts';

registerTexts(thirdPartyTexts);

interface Row {
  provider: ThirdPartyProvider;
  bound: BoundIdentity | undefined;
}

/** Every configured provider, then identities of providers no longer configured (still unbindable). */
function rowsOf(providers: readonly ThirdPartyProvider[], bound: readonly BoundIdentity[]): Row[] {
  const rows: Row[] = providers.map((provider) => ({ provider, bound: bound.find((b) => b.provider.id === provider.id) }));
  for (const b of bound) if (!providers.some((p) => p.id === b.provider.id)) rows.push({ provider: b.provider, bound: b });
  return rows;
}

/**
 * "Bound accounts" of personal settings (/edit): bind an identity of each configured provider (a round
 * trip to the provider that comes back through /loginThird) or unbind it. Mount it in the page's
 * bound-accounts slot.
 */
export function BoundAccounts() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState<string>();
  const providers = useThirdPartyProviders();
  const bound = useQuery({ queryKey: thirdPartyKeys.bound, queryFn: fetchBoundIdentities });
  const locale = LANGUAGE_TAGS[currentLanguage()];

  // Back from the provider after binding: say so once, and drop the note from the history entry.
  const justBound = (location.state as { thirdPartyBound?: string } | null)?.thirdPartyBound;
  useEffect(() => {
    if (!justBound) return;
    void message.success(t('thirdParty.boundDone', { provider: justBound }));
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [justBound, message, t, navigate, location.pathname, location.search]);

  const unbind = useMutation({
    mutationFn: (provider: ThirdPartyProvider) => unbindThirdParty(provider.id),
    onSuccess: (list, provider) => {
      queryClient.setQueryData(thirdPartyKeys.bound, list);
      void message.success(t('thirdParty.unbound', { provider: provider.name }));
    },
    onError: (error) => {
      if (error instanceof ApiCallError) void message.error(error.message);
      void queryClient.invalidateQueries({ queryKey: thirdPartyKeys.bound });
    },
  });

  const bind = async (provider: ThirdPartyProvider) => {
    setLeaving(provider.id);
    try {
      await leaveForProvider(provider.id, 'bind');
    } catch (error) {
      setLeaving(undefined);
      if (error instanceof ApiCallError) void message.error(error.message);
    }
  };

  const confirmUnbind = (provider: ThirdPartyProvider) =>
    modal.confirm({
      title: t('thirdParty.unbindTitle', { provider: provider.name }),
      content: t('thirdParty.unbindText', { provider: provider.name }),
      okText: t('thirdParty.unbind'),
      okButtonProps: { danger: true },
      cancelText: t('thirdParty.cancel'),
      onOk: () => unbind.mutateAsync(provider).catch(() => undefined),
    });

  const rows = rowsOf(providers.data ?? [], bound.data ?? []);
  return (
    <Card title={t('thirdParty.boundTitle')} size="small" data-testid="bound-accounts">
      <Typography.Paragraph type="secondary">{t('thirdParty.boundText')}</Typography.Paragraph>
      {bound.isError && <Alert type="error" showIcon title={t('thirdParty.loadFailed')} />}
      {(providers.isLoading || bound.isLoading) && <Spin />}
      {!providers.isLoading && rows.length === 0 && <Typography.Text type="secondary">{t('thirdParty.none')}</Typography.Text>}
      {rows.map(({ provider, bound: identity }) => (
        <div key={provider.id} className="sw-bound-row" data-testid={`bound-account-${provider.id}`}>
          <div>
            <Typography.Text strong>{provider.name}</Typography.Text>{' '}
            {identity ? <Tag color="green">{t('thirdParty.bound')}</Tag> : <Tag>{t('thirdParty.notBound')}</Tag>}
            {identity && (
              <div className="sw-muted">
                {[
                  identity.email ?? identity.name,
                  t('thirdParty.boundSince', { date: new Date(identity.boundAt).toLocaleDateString(locale) }),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </div>
            )}
          </div>
          {identity ? (
            <Button danger onClick={() => confirmUnbind(provider)} data-testid={`third-party-unbind-${provider.id}`}>
              {t('thirdParty.unbind')}
            </Button>
          ) : (
            <Button
              type="primary"
              loading={leaving === provider.id}
              onClick={() => void bind(provider)}
              data-testid={`third-party-bind-${provider.id}`}
            >
              {t('thirdParty.bind')}
            </Button>
          )}
        </div>
      ))}
    </Card>
  );
}
