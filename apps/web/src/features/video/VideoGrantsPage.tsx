import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { VideoGrant } from '@sunward/contracts/video';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Input, Switch, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { fetchGrants, setGrant, videoKeys } from './api';
import { videoTexts } from './video-texts';

registerTexts(videoTexts);

const PAGE_SIZE = 20;

/**
 * Video service per company (spec 02: "the video service must be enabled by the administrator"): the platform
 * administrator's list of companies with a switch each; a granted company's administrator can then enable the camera
 * app in the application centre. Paged and searched by company name on the server (GET/POST /api/v1/qvs/grants).
 */
export function VideoGrantsPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [name, setName] = useState('');
  const grants = useQuery({
    queryKey: [...videoKeys.grants, page, name],
    queryFn: () => fetchGrants({ page, size: PAGE_SIZE, name }),
    placeholderData: keepPreviousData,
  });
  const toggle = useMutation({
    mutationFn: (grant: VideoGrant) => setGrant(grant.companyId, !grant.granted),
    onSuccess: (saved) => {
      void message.success(t(saved.granted ? 'video.grants.grantedDone' : 'video.grants.revokedDone', { company: saved.companyName }));
      void queryClient.invalidateQueries({ queryKey: videoKeys.grants });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('video.requestFailed')),
  });
  const language = LANGUAGE_TAGS[currentLanguage()];

  return (
    <Card className="sw-page-card" data-testid="video-grants-page">
      <PageTitle route={route} spaced />
      <Alert type="info" showIcon message={t('video.grants.hint')} style={{ marginBottom: 16 }} />
      <Input.Search
        allowClear
        aria-label={t('video.grants.search')}
        placeholder={t('video.grants.search')}
        style={{ maxWidth: 320, marginBottom: 16 }}
        onSearch={(value) => {
          setName(value.trim());
          setPage(1);
        }}
        data-testid="video-grants-search"
      />
      {grants.isError && <Alert type="error" showIcon message={refusalMessage(grants.error) ?? t('video.requestFailed')} />}
      <Table<VideoGrant>
        rowKey="companyId"
        loading={grants.isLoading}
        dataSource={grants.data?.infos ?? []}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('video.grants.empty') }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: grants.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
        columns={[
          { title: t('video.grants.company'), dataIndex: 'companyName' },
          {
            title: t('video.grants.service'),
            render: (_, grant) => (
              <Switch
                checked={grant.granted}
                checkedChildren={t('video.grants.on')}
                unCheckedChildren={t('video.grants.off')}
                loading={toggle.isPending && toggle.variables?.companyId === grant.companyId}
                onChange={() => toggle.mutate(grant)}
                aria-label={t('video.grants.toggle', { company: grant.companyName })}
                data-testid="video-grant-switch"
              />
            ),
          },
          {
            title: t('video.grants.grantedAt'),
            render: (_, grant) => (grant.grantedAt ? exactTime(grant.grantedAt, language) : '—'),
          },
        ]}
      />
    </Card>
  );
}
