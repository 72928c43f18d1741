import type { AppAuthorisation, AppState, SmartApp } from '@sunward/contracts/smart-home';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Row, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { PageTitle } from '../../components/PageTitle';
import { refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { fetchApps, setAppEnabled, smartKeys } from './api';
import { smartTexts } from './smart-texts';

registerTexts(smartTexts);

/** Where an enabled app's pages are (the switches live in the device list). */
const APP_PAGE: Partial<Record<SmartApp, string>> = {
  smart_switch: '/device/acSwitch',
  smart_bulb: '/smart/lights',
  smart_rule: '/smart/rules',
};
/** The platform administrator's grant of the video service per company (route-table.ts). */
const VIDEO_GRANTS = '/system/video-grants';
const AUTH_COLOUR: Record<AppAuthorisation, string> = {
  not_required: 'default',
  missing: 'warning',
  granted: 'success',
  revoked: 'error',
  failed: 'error',
};

/** The application centre (issue 22 part 4): the company's apps, switched on and off by its administrator. */
export function AppCenterPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const apps = useQuery({ queryKey: smartKeys.apps, queryFn: fetchApps });
  const toggle = useMutation({
    mutationFn: (state: AppState) => setAppEnabled(state.app, !state.enabled),
    onSuccess: (list, state) => {
      queryClient.setQueryData(smartKeys.apps, list);
      const name = t(`smart.app.${state.app}`);
      void message.success(t(state.enabled ? 'smart.disabledDone' : 'smart.enabledDone', { app: name }));
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('smart.requestFailed')),
  });
  const canManage = apps.data?.canManage ?? false;
  // The platform administrator is in no company: the grants are theirs, the switches each company's (issue 23).
  const platformAdmin = useSession().user?.role === 'platform_admin';

  return (
    <Card className="sw-page-card" data-testid="app-center">
      <PageTitle route={route} spaced />
      {platformAdmin && (
        <Alert
          type="info"
          showIcon
          message={t('smart.platformAdmin')}
          style={{ marginBottom: 16 }}
          data-testid="app-center-platform-admin"
          action={
            <Button onClick={() => void navigate(VIDEO_GRANTS)} data-testid="app-center-video-grants">
              {t('smart.openVideoGrants')}
            </Button>
          }
        />
      )}
      {apps.data && !canManage && !platformAdmin && (
        <Alert type="info" showIcon message={t('smart.onlyAdmin')} style={{ marginBottom: 16 }} />
      )}
      <Row gutter={[16, 16]}>
        {(apps.data?.apps ?? []).map((state) => {
          const name = t(`smart.app.${state.app}`);
          const page = APP_PAGE[state.app];
          return (
            <Col key={state.app} xs={24} md={12} xl={8}>
              <Card
                title={name}
                data-testid={`app-${state.app}`}
                extra={
                  state.available ? (
                    <Switch
                      checked={state.enabled}
                      disabled={!canManage || (state.grant === 'missing' && !state.enabled)}
                      loading={toggle.isPending && toggle.variables?.app === state.app}
                      onChange={() => toggle.mutate(state)}
                      aria-label={t('smart.enableApp', { app: name })}
                      data-testid={`app-${state.app}-enabled`}
                    />
                  ) : (
                    <Tag>{t('smart.notAvailable')}</Tag>
                  )
                }
              >
                <Typography.Paragraph type="secondary">{t(`smart.appHint.${state.app}`)}</Typography.Paragraph>
                {state.available && state.grant === 'missing' && !platformAdmin && (
                  <Alert
                    type="info"
                    showIcon
                    message={t('smart.grantMissing')}
                    style={{ marginBottom: 8 }}
                    data-testid={`app-${state.app}-grant-missing`}
                  />
                )}
                {state.available && (
                  <>
                    <Tag color={state.enabled ? 'success' : 'default'}>{t(state.enabled ? 'smart.enabled' : 'smart.disabled')}</Tag>
                    <Tag color={AUTH_COLOUR[state.authorisation]} data-testid={`app-${state.app}-authorisation`}>
                      {t(`smart.auth.${state.authorisation}`)}
                    </Tag>
                    {state.enabled && page && (
                      <Button type="link" onClick={() => void navigate(page)} data-testid={`app-${state.app}-open`}>
                        {t('smart.open')}
                      </Button>
                    )}
                  </>
                )}
              </Card>
            </Col>
          );
        })}
      </Row>
    </Card>
  );
}
