import './layout.css';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { LogicalPeriod } from '@sunward/contracts/plant-layout';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Skeleton, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiCallError } from '../../../lib/api-client';
import { registerTexts } from '../../../lib/feature-texts';
import { currentLanguage } from '../../../lib/i18n';
import { fetchPublic, layoutKeys } from './api';
import { LiveView } from './LiveView';
import { LogicalView } from './LogicalView';
import { layoutTexts } from './texts';

registerTexts(layoutTexts);

/** /plantLayout?token=… — a plant's layout, read-only, through the link its owner shared (no account). */
export function PublicLayoutPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const [period, setPeriod] = useState<LogicalPeriod>('power');
  const view = useQuery({
    queryKey: layoutKeys.public(token, period),
    queryFn: () => fetchPublic(token, period),
    enabled: token !== '',
    retry: false,
    refetchInterval: 60_000,
  });
  let body: React.ReactNode;
  if (!token) body = <Alert type="info" showIcon title={t('layout.noToken')} />;
  else if (view.error)
    body = (
      <Alert
        type="error"
        showIcon
        title={view.error instanceof ApiCallError ? view.error.message : t('layout.noToken')}
        data-testid="link-invalid"
      />
    );
  else if (!view.data) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else
    body = (
      <Tabs
        items={[
          {
            key: 'live',
            label: t('layout.tabLive'),
            children: <LiveView panels={view.data.layout.panels} groups={view.data.layout.groups} live={view.data.live} locale={locale} />,
          },
          {
            key: 'logical',
            label: t('layout.tabLogical'),
            children: <LogicalView data={view.data.logical} loading={false} period={period} onPeriod={setPeriod} locale={locale} />,
          },
        ]}
      />
    );
  return (
    <main className="sw-layout sw-layout-public" data-testid="public-layout-page">
      <Card>
        <Typography.Title level={1} className="sw-layout-public-title" style={{ fontSize: 24, marginBottom: 0 }}>
          {view.data ? view.data.plantName : t('layout.publicHeading')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('layout.publicHeading')}</Typography.Paragraph>
        {body}
      </Card>
    </main>
  );
}
