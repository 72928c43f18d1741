import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { DOWNLOAD_STATUSES, type DownloadRecord, type DownloadStatus } from '@sunward/contracts/files';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Popconfirm, Progress, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { FilterSelect, ListPage, ListSearch, useListState } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { refusalMessage } from '../../lib/api-client';
import { fileNameFromDisposition } from '../../lib/download';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { saveBlob } from '../../lib/save-blob';
import { deleteDownloadRecords, downloadKeys, downloadRecordFile, fetchDownloadRecords } from './api';
import { downloadTexts } from './texts';

registerTexts(downloadTexts);

/** Status colours, always with the word beside them. */
const STATUS_COLOR: Record<DownloadStatus, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  expired: 'default',
};

/** Sizes in the user's locale: B, KB, MB, GB (powers of 1024, as file managers show them). */
function formatSize(bytes: number | null, locale: string): string {
  if (bytes === null) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

/**
 * The download centre (issue 21; spec 02 §3 download records): the caller's background exports and reports
 * with their progress while they are prepared, then download and delete until they expire. Polls every
 * second while something is under way.
 */
export function DownloadCenterPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const state = useListState();
  const status = DOWNLOAD_STATUSES.find((s) => s === state.text('status'));
  const query = { page: state.page, size: state.size, status, keyword: state.text('keyword') };
  const list = useQuery({
    queryKey: downloadKeys.page(query),
    queryFn: () => fetchDownloadRecords(query),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => ((q.state.data?.active ?? 0) > 0 ? 1000 : 15_000),
  });
  const [downloading, setDownloading] = useState<number>();
  const onDownload = async (record: DownloadRecord) => {
    setDownloading(record.id);
    try {
      const { blob, disposition } = await downloadRecordFile(record.id);
      saveBlob(blob, fileNameFromDisposition(disposition) ?? record.fileName);
    } catch (error) {
      const words = refusalMessage(error);
      if (words) void message.error(words);
      void queryClient.invalidateQueries({ queryKey: downloadKeys.all });
    } finally {
      setDownloading(undefined);
    }
  };
  const remove = useMutation({
    mutationFn: (ids: number[]) => deleteDownloadRecords(ids),
    onSuccess: () => {
      void message.success(t('downloads.deleted'));
      void queryClient.invalidateQueries({ queryKey: downloadKeys.all });
    },
  });

  const kindLabel = (kind: string) => {
    const key = `downloads.kind.${kind}`;
    const text = t(key);
    return text === key ? kind : text;
  };

  return (
    <ListPage
      title={<PageTitle route={route} />}
      testId="download-center"
      tools={
        <>
          <ListSearch list={state} placeholder={t('downloads.keyword')} width={260} />
          <FilterSelect<DownloadStatus>
            label={t('downloads.colStatus')}
            width={180}
            value={status}
            onChange={(value) => state.update({ status: value })}
            options={DOWNLOAD_STATUSES.map((s) => ({ value: s, label: t(`downloads.status.${s}`) }))}
          />
        </>
      }
    >
      <Typography.Paragraph type="secondary">{t('downloads.intro')}</Typography.Paragraph>
      <Table<DownloadRecord>
        rowKey="id"
        size="middle"
        loading={list.isLoading}
        dataSource={list.data?.infos ?? []}
        // The columns take 1,530 px; the file name wraps inside its 260.
        scroll={{ x: 1530 }}
        locale={{ emptyText: <Empty description={t('downloads.empty')} /> }}
        pagination={state.pagination(list.data?.total)}
        columns={[
          {
            title: t('downloads.colFile'),
            dataIndex: 'fileName',
            width: 260,
            render: (name: string) => (
              <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
                {name}
              </Typography.Text>
            ),
          },
          { title: t('downloads.colKind'), dataIndex: 'kind', width: 200, render: kindLabel },
          {
            title: t('downloads.colStatus'),
            dataIndex: 'status',
            width: 220,
            render: (s: DownloadStatus, r) =>
              s === 'running' || s === 'queued' ? (
                <div data-testid={`download-progress-${r.id}`}>
                  <Tag color={STATUS_COLOR[s]}>{t(`downloads.status.${s}`)}</Tag>
                  <Progress
                    percent={r.progress}
                    size="small"
                    status="active"
                    aria-label={t('downloads.progress', { name: r.fileName, percent: r.progress })}
                  />
                </div>
              ) : s === 'failed' ? (
                <Tooltip title={t('downloads.failedHint')}>
                  <Tag color={STATUS_COLOR[s]} data-testid={`download-status-${r.id}`}>
                    {t(`downloads.status.${s}`)}
                  </Tag>
                </Tooltip>
              ) : (
                <Tag color={STATUS_COLOR[s]} data-testid={`download-status-${r.id}`}>
                  {t(`downloads.status.${s}`)}
                </Tag>
              ),
          },
          {
            title: t('downloads.colRows'),
            dataIndex: 'rows',
            width: 110,
            align: 'right',
            render: (n: number | null) => (n === null ? '—' : new Intl.NumberFormat(locale).format(n)),
          },
          {
            title: t('downloads.colSize'),
            dataIndex: 'sizeBytes',
            width: 100,
            align: 'right',
            render: (n: number | null) => formatSize(n, locale),
          },
          { title: t('downloads.colCreated'), dataIndex: 'createdAt', width: 180, render: (iso: string) => exactTime(iso, locale) },
          {
            title: t('downloads.colExpires'),
            dataIndex: 'expiresAt',
            width: 180,
            render: (iso: string | null) => (iso ? exactTime(iso, locale) : '—'),
          },
          {
            title: t('downloads.colActions'),
            key: 'actions',
            width: 280,
            fixed: 'right',
            render: (_: unknown, r) => (
              <Space>
                <Button
                  type="link"
                  icon={<DownloadOutlined />}
                  disabled={r.status !== 'done'}
                  loading={downloading === r.id}
                  onClick={() => void onDownload(r)}
                  data-testid={`download-file-${r.id}`}
                  aria-label={`${t('downloads.download')} ${r.fileName}`}
                >
                  {t('downloads.download')}
                </Button>
                <Popconfirm title={t('downloads.deleteConfirm')} onConfirm={() => remove.mutateAsync([r.id])}>
                  <Button type="link" danger icon={<DeleteOutlined />} aria-label={`${t('downloads.delete')} ${r.fileName}`}>
                    {t('downloads.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </ListPage>
  );
}
