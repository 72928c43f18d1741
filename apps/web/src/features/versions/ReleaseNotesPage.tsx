import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { fetchLatestVersion, fetchVersionNotes, versionKeys } from './api';
import { RichText } from './RichText';
import { versionTexts } from './version-texts';

registerTexts(versionTexts);

/** /systemupdate (spec 01 §2, opened from the update dialog): one version's release notes, the newest by default. */
export function ReleaseNotesPage({ route }: PageProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const asked = params.get('version') || undefined;
  // Without a number, the newest (the update dialog's query): before any is published there are no notes to ask for.
  const latest = useQuery({ queryKey: versionKeys.latest, queryFn: fetchLatestVersion, staleTime: 300_000, retry: false, enabled: !asked });
  const version = asked ?? latest.data?.version ?? undefined;
  const notes = useQuery({
    queryKey: versionKeys.notes(version),
    queryFn: () => fetchVersionNotes(version),
    retry: false,
    enabled: version !== undefined,
  });
  const locale = LANGUAGE_TAGS[currentLanguage()];

  return (
    <Card className="sw-page-card">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <PageTitle route={route} />
        {(asked === undefined && latest.isPending) || (version !== undefined && notes.isPending) ? (
          <Skeleton active />
        ) : notes.data ? (
          <div data-testid="release-notes">
            <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="release-notes-version">
              {t('versions.versionLabel', { version: notes.data.version })}
            </Typography.Title>
            <Typography.Paragraph type="secondary">
              {t('versions.releasedOn', {
                date: new Date(notes.data.releaseTime).toLocaleString(locale, { dateStyle: 'long', timeStyle: 'short' }),
              })}
            </Typography.Paragraph>
            <RichText html={notes.data.content} testId="release-notes-content" />
          </div>
        ) : (
          <Empty description={t('versions.notesMissing')} />
        )}
        <Link to="/logging" data-testid="release-notes-all">
          {t('versions.allVersions')}
        </Link>
      </Space>
    </Card>
  );
}
