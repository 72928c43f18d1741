import { Alert, Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PageProps } from '../app/page-props';
import { registerTexts } from '../lib/feature-texts';
import { PageTitle } from './PageTitle';
import { sharedTexts } from './shared-texts';

registerTexts(sharedTexts);

/**
 * The page of an app the caller's company has not enabled (the server answered 4400): what to do, with the way to
 * the application centre, instead of an empty page and an error toast (smart switches, bulbs, rules).
 */
export function AppNotEnabled({ route }: { route: PageProps['route'] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card className="sw-page-card" data-testid="app-not-enabled">
      <PageTitle route={route} spaced />
      <Alert
        type="info"
        showIcon
        message={t('shared.appNotEnabled')}
        action={<Button onClick={() => void navigate('/acenter')}>{t('shared.openAppCenter')}</Button>}
      />
    </Card>
  );
}
