import { DeleteOutlined, DownloadOutlined, EditOutlined } from '@ant-design/icons';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { QueryKey } from '@tanstack/react-query';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Empty, Space, Switch, Table, type TableProps, Tag, Typography } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconActions } from '../../components/IconActions';
import { FilterSelect, pager } from '../../components/ListPage';
import { ActionsTitle, VisuallyHidden } from '../../components/VisuallyHidden';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { saveBlob } from '../../lib/save-blob';
import { refusalMessage } from './api';

/** What the firmware tables (main library, battery images) show of an image. */
export interface ImageRow {
  id: number;
  name: string;
  enabled: boolean;
  /** The company the image is authorised for (issue 24); null or absent: every company. */
  companyName?: string | null;
  mode: 'remote' | 'local';
  hwVersion: string | null;
  fileName: string;
  md5: string;
  createdAt: string;
  changeLog: string | null;
}

/**
 * The row actions of a firmware image or a battery product: download (when given), and for editors edit
 * and delete, each an icon button with its name for screen readers and a tooltip.
 */
export function RowActions({
  canEdit,
  onDownload,
  onEdit,
  onDelete,
  testPrefix,
}: {
  canEdit: boolean;
  onDownload?: () => void;
  onEdit(): void;
  onDelete(): void;
  testPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <IconActions
      actions={[
        onDownload && { key: 'download', label: t('firmware.download'), icon: <DownloadOutlined />, onClick: onDownload },
        canEdit && { key: 'edit', label: t('firmware.edit'), icon: <EditOutlined />, onClick: onEdit, testId: `${testPrefix}-edit` },
        canEdit && {
          key: 'delete',
          label: t('firmware.delete'),
          icon: <DeleteOutlined />,
          danger: true,
          onClick: onDelete,
          testId: `${testPrefix}-delete`,
        },
      ]}
    />
  );
}

/** A cell of two lines: the value, and a smaller secondary line under it when there is one. */
export function TwoLines({ main, sub }: { main: ReactNode; sub?: ReactNode }) {
  return (
    <Space direction="vertical" size={0}>
      {main}
      {sub && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {sub}
        </Typography.Text>
      )}
    </Space>
  );
}

/** A firmware table's empty state: what the filters hid, or what to do first. */
export function TableEmpty({
  filtered,
  texts: [filteredText, title, hint],
  testId,
}: {
  filtered: boolean;
  /** What the filters hid; the empty list's title; what to do first. */
  texts: readonly [string, string, string];
  testId: string;
}) {
  return filtered ? (
    <Empty description={filteredText} image={Empty.PRESENTED_IMAGE_SIMPLE} />
  ) : (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <Space direction="vertical" size={4}>
          <Typography.Text strong>{title}</Typography.Text>
          <Typography.Text type="secondary">{hint}</Typography.Text>
        </Space>
      }
      data-testid={testId}
    />
  );
}

/** The change log under an expanded image row. */
export const changeLogExpandable = (t: (key: string) => string) => ({
  expandedRowRender: (row: ImageRow) =>
    row.changeLog ? (
      <div>
        <Typography.Text strong>{t('firmware.colChangeLog')}</Typography.Text>
        <p className="sw-firmware-changelog">{row.changeLog}</p>
      </div>
    ) : (
      <Typography.Text type="secondary">{t('firmware.noChangeLog')}</Typography.Text>
    ),
  columnTitle: <VisuallyHidden>{t('firmware.colChangeLog')}</VisuallyHidden>,
});

/** A library of images as its tables act on it: its calls, query key, warning texts (keys) and test ids. */
export interface ImageLibrary<R> {
  setEnabled(id: number, on: boolean): Promise<unknown>;
  remove(rows: R[]): Promise<unknown>;
  download(id: number): Promise<{ blob: Blob }>;
  invalidate: QueryKey;
  warnings: { enable: string; disable: string };
  testPrefix: string;
}

/**
 * Enable / disable (confirmed, with the library's own warning), delete one or several (confirmed) and
 * download of firmware images, with their messages; `columns` builds the columns both tables share.
 */
export function useImageActions<R extends ImageRow>(
  { setEnabled, remove, download, invalidate, warnings, testPrefix }: ImageLibrary<R>,
  { canEdit, onDeleted }: { canEdit: boolean; onDeleted?: () => void },
) {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: invalidate });
  const fail = (error: unknown) => void message.error(refusalMessage(error) ?? t('firmware.requestFailed'));
  const toggle = useMutation({
    mutationFn: ({ row, on }: { row: R; on: boolean }) => setEnabled(row.id, on),
    onSuccess: (_, { on }) => {
      void message.success(t(on ? 'firmware.nowEnabled' : 'firmware.nowDisabled'));
      refresh();
    },
    onError: fail,
  });
  const removal = useMutation({
    mutationFn: remove,
    onSuccess: () => {
      void message.success(t('firmware.deleted'));
      onDeleted?.();
      refresh();
    },
    onError: fail,
  });
  const confirmToggle = (row: R, on: boolean) =>
    void modal.confirm({
      title: t(on ? 'firmware.enableTitle' : 'firmware.disableTitle', { name: row.name }),
      content: t(on ? warnings.enable : warnings.disable),
      okText: t(on ? 'firmware.enable' : 'firmware.disable'),
      cancelText: t('firmware.cancel'),
      okButtonProps: { id: 'confirm-enable' },
      onOk: () => toggle.mutateAsync({ row, on }).catch(() => undefined),
    });
  const confirmDelete = (rows: R[]) =>
    void modal.confirm({
      title:
        rows.length === 1 && rows[0]
          ? t('firmware.deleteTitle', { name: rows[0].name })
          : t('firmware.batchDeleteTitle', { count: rows.length }),
      content: t('firmware.deleteWarning'),
      okText: t('firmware.delete'),
      cancelText: t('firmware.cancel'),
      okButtonProps: { danger: true, id: 'confirm-delete' },
      onOk: () => removal.mutateAsync(rows).catch(() => undefined),
    });
  const save = (row: R) => void download(row.id).then(({ blob }) => saveBlob(blob, row.fileName), fail);

  const columns = {
    name: (width = 180): ColumnType<R> => ({
      key: 'name',
      title: t('firmware.colName'),
      fixed: 'left',
      width,
      render: (_, row) => (
        <>
          <Typography.Text strong data-testid={`${testPrefix}-name`}>
            {row.name}
          </Typography.Text>
          {row.companyName ? (
            <Tag color="blue" style={{ marginInlineStart: 8 }} data-testid={`${testPrefix}-company`}>
              {t('firmware.authorisedTag', { company: row.companyName })}
            </Tag>
          ) : null}
        </>
      ),
    }),
    enabled: (): ColumnType<R> => ({
      key: 'enabled',
      title: t('firmware.colEnabled'),
      width: 110,
      render: (_, row) => (
        <Switch
          size="small"
          checked={row.enabled}
          checkedChildren={t('firmware.enabled')}
          unCheckedChildren={t('firmware.disabled')}
          disabled={!canEdit}
          loading={toggle.isPending && toggle.variables?.row.id === row.id}
          onChange={(on) => confirmToggle(row, on)}
          aria-label={t('firmware.colEnabled')}
          data-testid={`${testPrefix}-enabled`}
        />
      ),
    }),
    hw: (): ColumnType<R> => ({ key: 'hw', title: t('firmware.colHwVersion'), width: 110, render: (_, row) => row.hwVersion ?? '--' }),
    mode: (width: number): ColumnType<R> => ({
      key: 'mode',
      title: t('firmware.colMode'),
      width,
      render: (_, row) => t(row.mode === 'remote' ? 'firmware.modeRemote' : 'firmware.modeLocal'),
    }),
    file: (width: number): ColumnType<R> => ({
      key: 'file',
      title: t('firmware.colFileName'),
      width,
      render: (_, row) => <span className="sw-firmware-mono">{row.fileName}</span>,
    }),
    md5: (): ColumnType<R> => ({
      key: 'md5',
      title: t('firmware.colMd5'),
      width: 290,
      render: (_, row) => (
        <Typography.Text className="sw-firmware-mono" copyable data-testid={`${testPrefix}-md5`}>
          {row.md5}
        </Typography.Text>
      ),
    }),
    created: (width: number): ColumnType<R> => ({
      key: 'created',
      title: t('firmware.colCreated'),
      width,
      render: (_, row) => exactTime(row.createdAt, locale),
    }),
    actions: (width: number, onEdit: (row: R) => void): ColumnType<R> => ({
      key: 'actions',
      title: <ActionsTitle />,
      fixed: 'right',
      width,
      render: (_, row) => (
        <RowActions
          canEdit={canEdit}
          onDownload={() => save(row)}
          onEdit={() => onEdit(row)}
          onDelete={() => confirmDelete([row])}
          testPrefix={testPrefix}
        />
      ),
    }),
  };
  return { confirmDelete, columns };
}

/** The enabled / disabled filter of an image list. */
export function EnabledFilter({ value, onChange, width }: { value?: string; onChange(value?: string): void; width: number }) {
  const { t } = useTranslation();
  return (
    <FilterSelect
      label={t('firmware.filterEnabled')}
      width={width}
      value={value}
      onChange={onChange}
      options={[
        { value: 'true', label: t('firmware.enabled') },
        { value: 'false', label: t('firmware.disabled') },
      ]}
    />
  );
}

/** A firmware page's table (images, products): one page of a list query, keyed by id, with its empty state. */
export function PagedTable<R extends { id: number }>({
  query,
  paging,
  showTotal,
  empty,
  ...table
}: Omit<TableProps<R>, 'pagination' | 'locale' | 'rowKey' | 'dataSource' | 'loading'> & {
  query: { data?: { infos: R[]; total: number }; isPending: boolean };
  paging: { page: number; size: number; onPage(page: number): void; hideOnSinglePage?: boolean };
  showTotal?: boolean;
  empty: Parameters<typeof TableEmpty>[0];
}) {
  const { t } = useTranslation();
  return (
    <Table<R>
      rowKey="id"
      dataSource={query.data?.infos ?? []}
      loading={query.isPending}
      pagination={{
        ...pager(
          paging.page,
          paging.size,
          query.data?.total,
          paging.onPage,
          showTotal ? (count) => t('firmware.total', { count }) : undefined,
        ),
        hideOnSinglePage: paging.hideOnSinglePage,
      }}
      locale={{ emptyText: <TableEmpty {...empty} /> }}
      {...table}
    />
  );
}
