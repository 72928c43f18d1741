import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { VersionRow } from '@sunward/contracts/versions';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { IconActions } from '../../components/IconActions';
import { PageTitle } from '../../components/PageTitle';
import { ActionsTitle } from '../../components/VisuallyHidden';
import { refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { usePageSize } from '../../lib/personalized';
import { deleteVersion, fetchVersionPage, versionKeys } from './api';
import { RichText } from './RichText';
import { VersionFormModal } from './VersionFormModal';
import { versionTexts } from './version-texts';

registerTexts(versionTexts);

/** System versions for platform administrators (issue 8): release notes in Chinese and English; publish, edit, delete. */
export function VersionListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const pageSize = usePageSize();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<{ row?: VersionRow } | null>(null);
  const list = useQuery({
    queryKey: versionKeys.page(page),
    queryFn: () => fetchVersionPage(page, pageSize),
    placeholderData: keepPreviousData,
  });

  const remove = useMutation({
    mutationFn: (row: VersionRow) => deleteVersion(row.id),
    onSuccess: () => {
      void message.success(t('versions.deleted'));
      void queryClient.invalidateQueries({ queryKey: versionKeys.all });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('versions.requestFailed')),
  });
  const confirmDelete = (row: VersionRow) =>
    void modal.confirm({
      title: t('versions.deleteTitle', { version: row.version }),
      content: t('versions.deleteWarning'),
      okText: t('versions.delete'),
      cancelText: t('versions.cancel'),
      okButtonProps: { danger: true, id: 'confirm-version-delete' },
      onOk: () => remove.mutateAsync(row).catch(() => undefined),
    });

  const newest = page === 1 ? list.data?.infos[0]?.id : undefined;
  const columns: ColumnsType<VersionRow> = [
    {
      key: 'version',
      title: t('versions.colVersion'),
      width: 150,
      render: (_, row) => (
        <Space>
          <Typography.Text strong data-testid="version-number">
            {row.version}
          </Typography.Text>
          {row.id === newest && <Tag color="red">{t('versions.latestTag')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'zh',
      title: t('versions.colZh'),
      render: (_, row) => (
        <div className="sw-version-cell">
          <RichText html={row.zhContent} />
        </div>
      ),
    },
    {
      key: 'en',
      title: t('versions.colEn'),
      render: (_, row) => (
        <div className="sw-version-cell">
          <RichText html={row.enContent} />
        </div>
      ),
    },
    { key: 'publisher', title: t('versions.colPublisher'), width: 170, render: (_, row) => row.publisher ?? '--' },
    {
      key: 'released',
      title: t('versions.colReleased'),
      width: 170,
      render: (_, row) => new Date(row.releaseTime).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    },
    {
      key: 'actions',
      title: <ActionsTitle />,
      width: 90,
      render: (_, row) => (
        <IconActions
          actions={[
            { key: 'edit', label: t('versions.edit'), icon: <EditOutlined />, onClick: () => setDialog({ row }) },
            { key: 'delete', label: t('versions.delete'), icon: <DeleteOutlined />, danger: true, onClick: () => confirmDelete(row) },
          ]}
        />
      ),
    },
  ];

  return (
    <Card className="sw-page-card">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
          <PageTitle route={route} />
          <Button type="primary" icon={<PlusOutlined />} data-testid="version-create" onClick={() => setDialog({})}>
            {t('versions.create')}
          </Button>
        </Space>
        <Table
          rowKey="id"
          data-testid="version-table"
          columns={columns}
          dataSource={list.data?.infos}
          loading={list.isFetching}
          scroll={{ x: 960 }}
          locale={{ emptyText: <Empty description={t('versions.emptyHint')} data-testid="version-empty" /> }}
          pagination={{
            current: page,
            pageSize: pageSize,
            total: list.data?.total ?? 0,
            onChange: setPage,
            showTotal: (total) => t('versions.total', { count: total }),
          }}
        />
      </Space>
      {dialog && <VersionFormModal row={dialog.row} onClose={() => setDialog(null)} />}
    </Card>
  );
}
