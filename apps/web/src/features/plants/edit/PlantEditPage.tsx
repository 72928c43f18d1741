import '../../../lib/texts/plants';
import { ArrowLeftOutlined, DashboardOutlined, LockOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Result, Skeleton, Space, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../../../app/session';
import { ApiCallError } from '../../../lib/api-client';
import { fetchPlant, plantFormKeys } from '../form/api';
import '../form/plant-form.css';
import { PageTitle } from '../../../components/PageTitle';
import { BasicTab } from './BasicTab';
import { GatewaysTab } from './GatewaysTab';
import { RevenueTab } from './RevenueTab';

/** /plants/edit/:id: the plant's fields, tariff and gateways; read-only unless the caller manages the plant. */
export function PlantEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { has } = useSession();
  const params = useParams();
  const plantId = Number(params.id);
  const valid = Number.isInteger(plantId) && plantId > 0;
  const plant = useQuery({ queryKey: plantFormKeys.detail(plantId), queryFn: () => fetchPlant(plantId), enabled: valid });

  if (!valid || plant.isError) {
    const message = plant.error instanceof ApiCallError && plant.error.message ? plant.error.message : t('plantform.loadFailed');
    return (
      <Card className="sw-page-card">
        <Result
          status="warning"
          title={message}
          extra={
            <Button type="primary" onClick={() => navigate('/plants')}>
              {t('plantform.backToList')}
            </Button>
          }
          data-testid="plant-edit-failed"
        />
      </Card>
    );
  }
  if (plant.isPending)
    return (
      <Card className="sw-page-card">
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );

  const detail = plant.data;
  const readOnly = detail.access !== 'manage' || !has('station.edit');
  return (
    <Card className="sw-page-card sw-pf-edit">
      <div className="sw-pf-edit-head">
        <Space align="center" size="middle" wrap>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/plants')} aria-label={t('plantform.backToList')} />
          <PageTitle className="sw-pf-edit-title">{t('plantform.editTitle', { name: detail.name })}</PageTitle>
        </Space>
        <Link to={`/plants/overview/${detail.id}/${detail.plantType}`}>
          <DashboardOutlined /> {t('plantform.openOverview')}
        </Link>
      </div>
      {readOnly && (
        <Alert
          type="warning"
          showIcon
          icon={<LockOutlined />}
          title={t('plantform.readOnly')}
          className="sw-pf-notice"
          data-testid="plant-read-only"
        />
      )}
      <Tabs
        items={[
          { key: 'basic', label: t('plantform.tabBasic'), children: <BasicTab key={detail.id} plant={detail} readOnly={readOnly} /> },
          { key: 'revenue', label: t('plantform.tabRevenue'), children: <RevenueTab plantId={detail.id} readOnly={readOnly} /> },
          { key: 'gateways', label: t('plantform.tabGateways'), children: <GatewaysTab plantId={detail.id} readOnly={readOnly} /> },
        ]}
        data-testid="plant-edit-tabs"
      />
    </Card>
  );
}
