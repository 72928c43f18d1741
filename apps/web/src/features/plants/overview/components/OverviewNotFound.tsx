import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** An unknown or removed plant: loaded only then (antd's Result and its picture are not the overview's first load). */
export function OverviewNotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t('overview.notFound')}
      extra={
        <Link to="/plants">
          <Button icon={<ArrowLeftOutlined />}>{t('overview.backToList')}</Button>
        </Link>
      }
      data-testid="overview-not-found"
    />
  );
}
