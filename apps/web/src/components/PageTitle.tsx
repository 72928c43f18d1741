import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../app/page-props';

/** The page's title as the menu names it (spec 01 §2 route titles). */
export function PageTitle({ route }: PageProps) {
  const { t } = useTranslation();
  return (
    <Typography.Title level={3} data-testid="page-title" style={{ margin: 0 }}>
      {t(route.title)}
    </Typography.Title>
  );
}
