import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';

/** A card whose figures could not be loaded: says so calmly; the next refresh tries again. */
export function LoadFailed() {
  const { t } = useTranslation();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('overview.loadFailed')} data-testid="card-load-failed" />;
}
