import { Button, Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** An address naming no protocol (deleted meanwhile, or typed): say so and lead back to the list. */
export function ProtocolMissing() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card className="sw-page-card">
      <Empty description={t('protocols.missing')}>
        <Button type="primary" onClick={() => void navigate('/system/protocols')}>
          {t('protocols.backToList')}
        </Button>
      </Empty>
    </Card>
  );
}
