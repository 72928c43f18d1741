import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Skeleton, Space, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { fetchVersionTimeline, versionKeys } from './api';
import { RichText } from './RichText';
import { versionTexts } from './version-texts';

registerTexts(versionTexts);

/** /logging (spec 01 §2): the system update log, every version newest first, as a timeline. */
export function UpdateLogPage({ route }: PageProps) {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const timeline = useQuery({ queryKey: versionKeys.timeline, queryFn: fetchVersionTimeline });

  return (
    <Card className="sw-page-card sw-update-log">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <PageTitle route={route} />
        {timeline.isPending ? (
          <Skeleton active />
        ) : !timeline.data || timeline.data.length === 0 ? (
          <Empty description={t('versions.timelineEmpty')} data-testid="update-log-empty" />
        ) : (
          <Timeline
            data-testid="update-log"
            items={timeline.data.map((v, index) => ({
              color: index === 0 ? 'red' : 'gray',
              children: (
                <div data-testid="update-log-entry">
                  <Space size={8} wrap>
                    <Typography.Title level={5} style={{ margin: 0 }} data-testid="update-log-version">
                      {t('versions.versionLabel', { version: v.version })}
                    </Typography.Title>
                    {index === 0 && <Tag color="red">{t('versions.latestTag')}</Tag>}
                    <Typography.Text type="secondary">
                      {new Date(v.releaseTime).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })}
                    </Typography.Text>
                    <Link to={`/systemupdate?version=${encodeURIComponent(v.version)}`}>{t('versions.viewNotes')}</Link>
                  </Space>
                  <RichText html={v.content} />
                </div>
              ),
            }))}
          />
        )}
      </Space>
    </Card>
  );
}
