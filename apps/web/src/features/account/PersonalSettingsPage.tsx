import './account.css';
import { HOME_PAGES, type Personalized } from '@sunward/contracts/account';
import { LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { isBuiltInRole } from '@sunward/contracts/roles';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Form, Radio, Select, Skeleton, Tabs } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { changeLanguage, currentLanguage } from '../../lib/i18n';
import { type SettingsSlot, settingsSlot } from '../../lib/settings-slots';
import type { UiKey } from '../../locales/en';
import { accountKeys, fetchAccountInfo, fetchPersonalized, refusalText, savePersonalized } from './api';
import { PasswordTab } from './PasswordTab';
import { ProfileTab } from './ProfileTab';
import { settingsTexts } from './settings-texts';
import { TwoFactorTab } from './TwoFactorTab';

registerTexts(settingsTexts);

/** A tab another area fills (lib/settings-slots): bound third-party accounts, notification preferences. */
function Slot({ slot }: { slot: SettingsSlot }) {
  const Filled = settingsSlot(slot);
  return Filled ? (
    <Suspense fallback={<Skeleton active />}>
      <Filled />
    </Suspense>
  ) : null;
}

const TABS = ['profile', 'password', 'security', 'preferences', 'account', 'bound', 'notifications'] as const;
type Tab = (typeof TABS)[number];

const HOME_PAGE_TITLES: Record<(typeof HOME_PAGES)[number], UiKey> = {
  '/plants': 'route.plants',
  '/device/gateway/list': 'route.gateways',
  '/device/event': 'route.events',
  '/edit': 'route.personalSettings',
};

function PreferencesTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: accountKeys.personalized, queryFn: fetchPersonalized });
  const [saving, setSaving] = useState(false);
  if (!query.data) return <Skeleton active />;

  const onFinish = async (values: Personalized) => {
    setSaving(true);
    try {
      const saved = await savePersonalized(values);
      queryClient.setQueryData(accountKeys.personalized, saved);
      void message.success(t('me.saved'));
      // A new language reloads the console (spec 01 §1), like the picker in the top bar.
      if (saved.language !== currentLanguage()) changeLanguage(saved.language);
    } catch (error) {
      void message.error(refusalText(error) ?? '');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form layout="vertical" initialValues={query.data} onFinish={onFinish} className="sw-settings-form" data-testid="preferences-form">
      <Form.Item name="language" label={t('me.language')}>
        <Select id="me-language" options={LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))} />
      </Form.Item>
      <Form.Item name="styleType" label={t('me.styleType')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'light', label: t('me.styleLight') },
            { value: 'dark', label: t('me.styleDark') },
          ]}
        />
      </Form.Item>
      <Form.Item name="homePage" label={t('me.homePage')}>
        <Select id="me-home" options={HOME_PAGES.map((path) => ({ value: path, label: t(HOME_PAGE_TITLES[path]) }))} />
      </Form.Item>
      <Form.Item name="pageSize" label={t('me.pageSize')}>
        <Select id="me-page-size" options={[10, 20, 50, 100].map((n) => ({ value: n, label: String(n) }))} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="preferences-save">
        {t('me.save')}
      </Button>
    </Form>
  );
}

/**
 * /edit, personal settings: profile, password, two-factor sign-in, personalized settings, account info,
 * bound third-party accounts and notification preferences. `?tab=` opens a tab (the shell sends users
 * whose company requires two-factor sign-in to `?tab=security`).
 */
export function PersonalSettingsPage(_props: PageProps) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(requested ?? '') ? (requested as Tab) : 'profile';
  const info = useQuery({ queryKey: accountKeys.info, queryFn: fetchAccountInfo });
  const data = info.data;
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale) : t('me.never'));
  const role = data && (isBuiltInRole(data.role) ? translate(currentLanguage(), `role.${data.role}`) : data.role);

  return (
    <Card className="sw-page-card">
      <PageTitle spaced>{t('account.title')}</PageTitle>
      {!data ? (
        <Skeleton active />
      ) : (
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          destroyOnHidden
          items={[
            { key: 'profile', label: t('me.tabProfile'), children: <ProfileTab info={data} /> },
            { key: 'password', label: t('me.tabPassword'), children: <PasswordTab info={data} /> },
            { key: 'security', label: t('me.tabSecurity'), children: <TwoFactorTab info={data} /> },
            { key: 'preferences', label: t('me.tabPreferences'), children: <PreferencesTab /> },
            {
              key: 'account',
              label: t('me.tabAccount'),
              children: (
                <Descriptions column={1} bordered size="small" style={{ maxWidth: 640 }} data-testid="account-info">
                  <Descriptions.Item label={t('me.account')}>{data.account}</Descriptions.Item>
                  <Descriptions.Item label={t('me.role')}>{role}</Descriptions.Item>
                  <Descriptions.Item label={t('me.company')}>{data.company?.name ?? t('account.noCompany')}</Descriptions.Item>
                  <Descriptions.Item label={t('me.email')}>{data.email ?? t('me.none')}</Descriptions.Item>
                  <Descriptions.Item label={t('me.phone')}>{data.phone ?? t('me.none')}</Descriptions.Item>
                  <Descriptions.Item label={t('me.createdAt')}>{when(data.createdAt)}</Descriptions.Item>
                  <Descriptions.Item label={t('me.lastSignIn')}>
                    {when(data.lastSignInAt)}
                    {data.lastSignInIp ? ` (${data.lastSignInIp})` : ''}
                  </Descriptions.Item>
                  <Descriptions.Item label={t('me.sessions')}>{data.activeSessions}</Descriptions.Item>
                  <Descriptions.Item label={t('me.tabSecurity')}>{t(data.twoFactor.enabled ? 'me.tfaOn' : 'me.tfaOff')}</Descriptions.Item>
                </Descriptions>
              ),
            },
            {
              key: 'bound',
              label: t('me.tabBound'),
              children: <Slot slot="bound" />,
            },
            {
              key: 'notifications',
              label: t('me.tabNotifications'),
              children: <Slot slot="notifications" />,
            },
          ]}
        />
      )}
    </Card>
  );
}
