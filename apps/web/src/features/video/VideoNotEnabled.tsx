import { Alert, Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { AppNotEnabled } from '../../components/AppNotEnabled';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { videoTexts } from './video-texts';

registerTexts(videoTexts);

/** Where the platform administrator grants the video service to companies (route-table.ts). */
export const GRANTS_PATH = '/system/video-grants';

/**
 * A video page the caller cannot use: a company user is sent to the application centre (AppNotEnabled); the
 * platform administrator, who is in no company and so has no video space, to the grant of the service per company.
 */
export function VideoNotEnabled({ route }: { route: PageProps['route'] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  if (user?.role !== 'platform_admin') return <AppNotEnabled route={route} />;
  return (
    <Card className="sw-page-card" data-testid="video-platform-admin">
      <PageTitle route={route} spaced />
      <Alert
        type="info"
        showIcon
        message={t('video.noCompany')}
        action={<Button onClick={() => void navigate(GRANTS_PATH)}>{t('video.grants.open')}</Button>}
      />
    </Card>
  );
}
