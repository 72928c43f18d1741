import { Alert, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { AppNotEnabled } from '../../components/AppNotEnabled';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { energyHubTexts } from './energy-hub-texts';

registerTexts(energyHubTexts);

/**
 * An energy hub page the caller cannot use: a company user is sent to the application centre (AppNotEnabled); the
 * platform administrator, who is in no company, is told the hub is each company's (it needs no grant of theirs).
 */
export function HubNotEnabled({ route }: { route: PageProps['route'] }) {
  const { t } = useTranslation();
  const { user } = useSession();
  if (user?.role !== 'platform_admin') return <AppNotEnabled route={route} />;
  return (
    <Card className="sw-page-card" data-testid="energy-hub-platform-admin">
      <PageTitle route={route} spaced />
      <Alert type="info" showIcon message={t('energyHub.noCompany')} />
    </Card>
  );
}
