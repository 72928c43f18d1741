import { Button, Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';

/** A route whose feature arrives in a later issue: its title and what to do meanwhile. */
export function PlaceholderPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card className="sw-page-card">
      <PageTitle route={route} spaced />
      <Empty description={t('placeholder.text')}>
        {route.path !== '/plants' && (
          <Button type="primary" onClick={() => navigate('/plants')}>
            {t('placeholder.home')}
          </Button>
        )}
      </Empty>
    </Card>
  );
}
