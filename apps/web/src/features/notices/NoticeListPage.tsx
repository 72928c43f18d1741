import { EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import {
  NOTICE_STATUSES,
  NOTICE_TYPES,
  type NoticeFields,
  type NoticeRow,
  NoticeStatus,
  type NoticeStatusValue,
} from '@sunward/contracts/notices';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { ActionsTitle } from '../../components/VisuallyHidden';
import { refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { usePageSize } from '../../lib/personalized';
import { fetchNoticePage, type NoticeQuery, noticeKeys, setNoticeStatus } from './api';
import { NoticeFormModal } from './NoticeFormModal';
import { NoticePreview } from './NoticePreview';
import { impactKey, scopeKey, statusKey, typeKey } from './notice-format';
import { noticeTexts } from './notice-texts';

registerTexts(noticeTexts);

const STATUS_COLOR: Record<number, string> = { 0: 'green', 1: 'default', 2: 'red' };

const asFields = (row: NoticeRow): NoticeFields => ({
  ...row,
  type: row.type as NoticeFields['type'],
  scope: row.scope as NoticeFields['scope'],
  impact: row.impact as NoticeFields['impact'],
});

/**
 * Maintenance notices for platform administrators (issue 8): list with status and type filters; create
 * and edit; publish, withdraw and invalidate (one-way, confirmed); preview in Chinese and English.
 */
export function NoticeListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const pageSize = usePageSize();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const [status, setStatus] = useState<number>();
  const [type, setType] = useState<number>();
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<{ row?: NoticeRow } | null>(null);
  const [preview, setPreview] = useState<NoticeRow>();

  const query: NoticeQuery = { page, size: pageSize, status, type };
  const list = useQuery({ queryKey: noticeKeys.page(query), queryFn: () => fetchNoticePage(query), placeholderData: keepPreviousData });
  const when = (iso: string) => new Date(iso).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });

  const change = useMutation({
    mutationFn: ({ row, to }: { row: NoticeRow; to: NoticeStatusValue }) => setNoticeStatus(row.id, to),
    onSuccess: (_, { to }) => {
      void message.success(
        t(
          to === NoticeStatus.PUBLISHING
            ? 'notices.nowPublished'
            : to === NoticeStatus.INVALID
              ? 'notices.nowInvalid'
              : 'notices.nowWithdrawn',
        ),
      );
      void queryClient.invalidateQueries({ queryKey: noticeKeys.all });
      void queryClient.invalidateQueries({ queryKey: noticeKeys.view });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('notices.requestFailed')),
  });
  const confirmChange = (row: NoticeRow, to: NoticeStatusValue) =>
    void modal.confirm({
      title: t(
        to === NoticeStatus.PUBLISHING
          ? 'notices.publishTitle'
          : to === NoticeStatus.INVALID
            ? 'notices.invalidateTitle'
            : 'notices.withdrawTitle',
      ),
      content: t(
        to === NoticeStatus.PUBLISHING
          ? 'notices.publishWarning'
          : to === NoticeStatus.INVALID
            ? 'notices.invalidateWarning'
            : 'notices.withdrawWarning',
      ),
      okText: t(
        to === NoticeStatus.PUBLISHING ? 'notices.publish' : to === NoticeStatus.INVALID ? 'notices.invalidate' : 'notices.withdraw',
      ),
      cancelText: t('notices.cancel'),
      okButtonProps: { danger: to === NoticeStatus.INVALID, id: 'confirm-notice-status' },
      onOk: () => change.mutateAsync({ row, to }).catch(() => undefined),
    });

  const columns: ColumnsType<NoticeRow> = [
    {
      key: 'type',
      title: t('notices.fieldType'),
      width: 110,
      render: (_, row) => <Tag color={row.type === 1 ? 'blue' : row.type === 3 ? 'default' : 'orange'}>{t(typeKey(row.type))}</Tag>,
    },
    {
      key: 'status',
      title: t('notices.colStatus'),
      width: 110,
      render: (_, row) => (
        <Tag color={STATUS_COLOR[row.status]} data-testid="notice-status">
          {t(statusKey(row.status))}
        </Tag>
      ),
    },
    {
      key: 'summary',
      title: t('notices.fieldEnDesc'),
      width: 340,
      render: (_, row) => (
        <Typography.Paragraph ellipsis={{ rows: 2, tooltip: row.enDesc }} style={{ margin: 0 }} data-testid="notice-summary">
          {row.enDesc}
        </Typography.Paragraph>
      ),
    },
    { key: 'window', title: t('notices.colWindow'), width: 200, render: (_, row) => `${when(row.startTime)} – ${when(row.endTime)}` },
    { key: 'effective', title: t('notices.fieldEffective'), width: 140, render: (_, row) => when(row.effectiveTime) },
    { key: 'scope', title: t('notices.fieldScope'), width: 130, render: (_, row) => t(scopeKey(row.scope)) },
    { key: 'impact', title: t('notices.fieldImpact'), width: 180, render: (_, row) => t(impactKey(row.impact)) },
    { key: 'creator', title: t('notices.colCreator'), width: 150, render: (_, row) => row.creator ?? '--' },
    {
      key: 'actions',
      title: <ActionsTitle />,
      fixed: 'right',
      width: 250,
      render: (_, row) => (
        <Space size={0} wrap>
          <Tooltip title={t('notices.preview')}>
            <Button size="small" type="text" icon={<EyeOutlined />} aria-label={t('notices.preview')} onClick={() => setPreview(row)} />
          </Tooltip>
          {row.status !== NoticeStatus.INVALID && (
            <>
              <Tooltip title={t('notices.edit')}>
                <Button
                  size="small"
                  type="text"
                  icon={<EditOutlined />}
                  aria-label={t('notices.edit')}
                  onClick={() => setDialog({ row })}
                />
              </Tooltip>
              {row.status === NoticeStatus.UNPUBLISHED ? (
                <Button size="small" type="link" data-testid="notice-publish" onClick={() => confirmChange(row, NoticeStatus.PUBLISHING)}>
                  {t('notices.publish')}
                </Button>
              ) : (
                <Button size="small" type="link" data-testid="notice-withdraw" onClick={() => confirmChange(row, NoticeStatus.UNPUBLISHED)}>
                  {t('notices.withdraw')}
                </Button>
              )}
              <Button
                size="small"
                type="link"
                danger
                data-testid="notice-invalidate"
                onClick={() => confirmChange(row, NoticeStatus.INVALID)}
              >
                {t('notices.invalidate')}
              </Button>
            </>
          )}
        </Space>
      ),
    },
  ];

  const filtered = status !== undefined || type !== undefined;
  return (
    <Card className="sw-page-card">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
          <PageTitle route={route} />
          <Button type="primary" icon={<PlusOutlined />} data-testid="notice-create" onClick={() => setDialog({})}>
            {t('notices.create')}
          </Button>
        </Space>
        <Space wrap>
          <Select
            aria-label={t('notices.colStatus')}
            allowClear
            style={{ width: 160 }}
            placeholder={t('notices.colStatus')}
            value={status}
            onChange={(v?: number) => {
              setStatus(v);
              setPage(1);
            }}
            options={NOTICE_STATUSES.map((v) => ({ value: v, label: t(statusKey(v)) }))}
          />
          <Select
            aria-label={t('notices.fieldType')}
            allowClear
            style={{ width: 160 }}
            placeholder={t('notices.fieldType')}
            value={type}
            onChange={(v?: number) => {
              setType(v);
              setPage(1);
            }}
            options={NOTICE_TYPES.map((v) => ({ value: v, label: t(typeKey(v)) }))}
          />
        </Space>
        <Table
          rowKey="id"
          data-testid="notice-table"
          columns={columns}
          dataSource={list.data?.infos}
          loading={list.isFetching}
          scroll={{ x: 1720 }}
          locale={{
            emptyText: (
              <Empty
                data-testid="notice-empty"
                description={
                  filtered ? (
                    t('notices.emptyFiltered')
                  ) : (
                    <>
                      <Typography.Text strong>{t('notices.emptyTitle')}</Typography.Text>
                      <br />
                      {t('notices.emptyHint')}
                    </>
                  )
                }
              />
            ),
          }}
          pagination={{
            current: page,
            pageSize: pageSize,
            total: list.data?.total ?? 0,
            onChange: setPage,
            showTotal: (total) => t('notices.total', { count: total }),
          }}
        />
      </Space>
      {dialog && <NoticeFormModal row={dialog.row} onClose={() => setDialog(null)} />}
      {preview && <NoticePreview fields={asFields(preview)} onClose={() => setPreview(undefined)} />}
    </Card>
  );
}
