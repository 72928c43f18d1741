import { type FirmwareRelease, FirmwareReleaseLogSchema } from '@sunward/contracts/firmware-releases';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Pagination, Select, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicFrame } from '../../../components/PublicFrame';
import { apiRequest } from '../../../lib/api-client';
import { registerTexts } from '../../../lib/feature-texts';
import { currentLanguage } from '../../../lib/i18n';
import { releaseTexts } from './release-texts';

registerTexts(releaseTexts);

const PAGE_SIZE = 20;

const TYPE_TEXT = {
  gateway: 'firmwareReleases.typeGateway',
  inverter: 'firmwareReleases.typeInverter',
  battery: 'firmwareReleases.typeBattery',
} as const;
const TYPE_COLOR = { gateway: 'geekblue', inverter: 'gold', battery: 'green' } as const;

const fetchReleases = (query: { page: number; size: number; product?: string }) =>
  apiRequest('/anonymous/firmware/version/timeline', { query, schema: FirmwareReleaseLogSchema, anonymous: true });

/**
 * The public firmware release log (/firmwareLogging, no sign-in): released versions newest first,
 * grouped by product, each with its date and change notes; a product filter narrows it to one.
 */
export function FirmwareReleaseLogPage() {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const [page, setPage] = useState(1);
  const [product, setProduct] = useState<string>();
  const query = { page, size: PAGE_SIZE, product };
  const log = useQuery({ queryKey: ['firmwareReleases', query], queryFn: () => fetchReleases(query), placeholderData: keepPreviousData });
  const date = (iso: string) =>
    new Date(iso).toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

  const item = (release: FirmwareRelease) => ({
    key: release.id,
    children: (
      <div data-testid="firmware-release">
        <Space wrap size={8}>
          <Typography.Text strong>{t('firmwareReleases.version', { version: release.swVersion })}</Typography.Text>
          <Tag color={TYPE_COLOR[release.type]}>{t(TYPE_TEXT[release.type])}</Tag>
          <Typography.Text type="secondary">{date(release.releasedAt)}</Typography.Text>
        </Space>
        <div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {release.name}
            {release.hwVersion ? ` · ${t('firmwareReleases.hardware', { version: release.hwVersion })}` : ''}
          </Typography.Text>
        </div>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: '6px 0 0' }} type={release.changeLog ? undefined : 'secondary'}>
          {release.changeLog ?? t('firmwareReleases.noChangeLog')}
        </Typography.Paragraph>
      </div>
    ),
  });

  const groups = log.data?.groups ?? [];
  return (
    <PublicFrame cardClassName="sw-public-card" testId="firmware-release-log">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <div>
          <Typography.Title level={1} style={{ marginBottom: 4, fontSize: 30 }}>
            {t('route.firmwareLogging')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('firmwareReleases.intro')}</Typography.Text>
        </div>
        {(log.data?.products.length ?? 0) > 1 && (
          <Select
            allowClear
            placeholder={t('firmwareReleases.allProducts')}
            aria-label={t('firmwareReleases.filterProduct')}
            style={{ width: 260 }}
            value={product}
            onChange={(value?: string) => {
              setProduct(value);
              setPage(1);
            }}
            options={(log.data?.products ?? []).map((p) => ({ value: p, label: p }))}
            data-testid="firmware-release-product"
          />
        )}
        {log.isError ? (
          <Alert
            type="error"
            showIcon
            title={t('firmwareReleases.loadFailed')}
            action={
              <Button size="small" onClick={() => void log.refetch()}>
                {t('firmwareReleases.retry')}
              </Button>
            }
          />
        ) : log.isPending ? (
          <Spin />
        ) : groups.length === 0 ? (
          <Empty
            description={
              <Space direction="vertical" size={4}>
                <Typography.Text strong>{t('firmwareReleases.emptyTitle')}</Typography.Text>
                <Typography.Text type="secondary">{t('firmwareReleases.emptyHint')}</Typography.Text>
              </Space>
            }
            data-testid="firmware-release-empty"
          />
        ) : (
          groups.map((group) => (
            <section key={group.product} data-testid="firmware-release-group">
              <Typography.Title level={4} style={{ marginTop: 0 }}>
                {group.product}
                <Typography.Text type="secondary" style={{ fontSize: 14, fontWeight: 'normal', marginLeft: 8 }}>
                  {group.releases[0]?.manufacturer}
                </Typography.Text>
              </Typography.Title>
              <Timeline items={group.releases.map(item)} />
            </section>
          ))
        )}
        {(log.data?.total ?? 0) > PAGE_SIZE && (
          <Pagination current={page} pageSize={PAGE_SIZE} total={log.data?.total ?? 0} showSizeChanger={false} onChange={setPage} />
        )}
        <Link to="/login">{t('public.backToLogin')}</Link>
      </Space>
    </PublicFrame>
  );
}
