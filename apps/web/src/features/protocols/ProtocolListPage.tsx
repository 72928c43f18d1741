import { ImportOutlined, PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { DEVICE_FAMILIES, type ProtocolRow } from '@sunward/contracts/protocols';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Space, Switch, Table, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { LinkActions, useRemoval } from '../../components/LinkActions';
import { FilterSelect, ListPage, ListSearch, useListState } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { saveBlob } from '../../lib/save-blob';
import {
  deleteProtocol,
  draftFromSunspec,
  exportProtocol,
  fetchProtocolPage,
  importProtocol,
  protocolKeys,
  setProtocolEnabled,
} from './api';
import { storeDraft } from './draft-store';
import { ProtocolSwitchModal } from './ProtocolSwitchModal';
import { protocolTexts } from './protocol-texts';
import { switchTexts } from './switch-texts';

registerTexts(protocolTexts);
registerTexts(switchTexts);

type Family = (typeof DEVICE_FAMILIES)[number];

/** A hidden file input behind a button: the chosen file goes to `onFile`. */
function FilePick({ label, testId, onFile, busy }: { label: string; testId: string; onFile(file: File): void; busy: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid={`${testId}-file`}
        aria-label={label}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
      <Button icon={<ImportOutlined />} loading={busy} onClick={() => input.current?.click()} data-testid={testId}>
        {label}
      </Button>
    </>
  );
}

/**
 * Device protocols for platform administrators (issue 19; spec 01 §2 management: device protocols): search,
 * enable or disable, edit, history, export, delete; new ones typed, imported from a protocol file or drafted
 * from a SunSpec model.
 */
export function ProtocolListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const canEdit = has('system.protocol.edit');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useListState();
  const family = list.text('family') as Family | undefined;
  const query = { keyword: list.text('keyword'), family, page: list.page, size: list.size };
  const page = useQuery({ queryKey: protocolKeys.page(query), queryFn: () => fetchProtocolPage(query), placeholderData: keepPreviousData });
  const remove = useRemoval(deleteProtocol, protocolKeys.all);
  const [refusal, setRefusal] = useState<string>();
  // A device's protocol switch: opened here, or from a device's page (?switch=SN).
  const switchSn = list.text('switch');
  const [switching, setSwitching] = useState(false);
  const closeSwitch = () => {
    setSwitching(false);
    if (switchSn) list.update({ switch: undefined });
  };
  const locale = LANGUAGE_TAGS[currentLanguage()];

  const toggle = useMutation({
    mutationFn: (row: ProtocolRow) => setProtocolEnabled(row.id, !row.enabled),
    onSuccess: (_, row) => {
      void message.success(t(row.enabled ? 'protocols.disabledDone' : 'protocols.enabledDone', { name: row.name }));
      void queryClient.invalidateQueries({ queryKey: protocolKeys.all });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('protocols.requestFailed')),
  });
  const importFile = useMutation({
    mutationFn: importProtocol,
    onSuccess: (detail) => {
      setRefusal(undefined);
      void message.success(t('protocols.imported', { name: detail.name, version: detail.currentVersion }));
      void queryClient.invalidateQueries({ queryKey: protocolKeys.all });
    },
    onError: (error) => setRefusal(refusalMessage(error) ?? t('protocols.requestFailed')),
  });
  const sunspec = useMutation({
    mutationFn: draftFromSunspec,
    onSuccess: ({ draft, skipped }) => {
      setRefusal(undefined);
      void navigate(`/system/protocols/new?draft=${storeDraft(draft, skipped)}`);
    },
    onError: (error) => setRefusal(refusalMessage(error) ?? t('protocols.requestFailed')),
  });
  const download = async (row: ProtocolRow) => {
    const { fileName, file } = await exportProtocol(row.id);
    saveBlob(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }), fileName);
  };

  return (
    <ListPage
      testId="protocol-list-page"
      title={<PageTitle route={route} />}
      tools={
        <>
          <ListSearch list={list} placeholder={t('protocols.search')} testId="protocol-search" />
          <FilterSelect<Family>
            label={t('protocols.family')}
            value={family}
            onChange={(value) => list.update({ family: value })}
            options={DEVICE_FAMILIES.map((f) => ({ value: f, label: t(`protocols.family_${f}`) }))}
            width={180}
            testId="protocol-family"
          />
          {canEdit && (
            <>
              <FilePick
                label={t('protocols.importJson')}
                testId="protocol-import"
                onFile={(f) => importFile.mutate(f)}
                busy={importFile.isPending}
              />
              <FilePick
                label={t('protocols.importSunspec')}
                testId="protocol-sunspec"
                onFile={(f) => sunspec.mutate(f)}
                busy={sunspec.isPending}
              />
              <Button icon={<SwapOutlined />} onClick={() => setSwitching(true)} data-testid="protocol-switch-open">
                {t('protocolSwitch.open')}
              </Button>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => void navigate('/system/protocols/new')}
                data-testid="protocol-create"
              >
                {t('protocols.create')}
              </Button>
            </>
          )}
        </>
      }
    >
      {canEdit && (switching || switchSn !== undefined) && <ProtocolSwitchModal open initialSn={switchSn} onClose={closeSwitch} />}
      {refusal && (
        <Alert
          type="error"
          showIcon
          message={refusal}
          closable
          onClose={() => setRefusal(undefined)}
          style={{ marginBottom: 16 }}
          data-testid="protocol-refusal"
        />
      )}
      <Table<ProtocolRow>
        rowKey="id"
        data-testid="protocol-table"
        loading={page.isFetching}
        dataSource={page.data?.infos}
        scroll={{ x: 1400 }}
        pagination={list.pagination(page.data?.total, (total) => t('protocols.total', { count: total }))}
        locale={{ emptyText: <Empty description={t('protocols.empty')} /> }}
        columns={[
          {
            key: 'name',
            title: t('protocols.name'),
            width: 200,
            render: (_, r) => (
              <Space direction="vertical" size={0}>
                <Typography.Text strong>{r.name}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {r.identifier}
                </Typography.Text>
              </Space>
            ),
          },
          { key: 'code', title: t('protocols.code'), width: 190, render: (_, r) => r.code },
          { key: 'manufacturer', title: t('protocols.manufacturer'), width: 150, render: (_, r) => r.manufacturer },
          { key: 'family', title: t('protocols.family'), width: 140, render: (_, r) => t(`protocols.family_${r.family}`) },
          {
            key: 'version',
            title: t('protocols.versions'),
            render: (_, r) => (
              <Space size={4} wrap>
                <Tag>{t('protocols.versionTag', { version: r.currentVersion })}</Tag>
                <Typography.Text type="secondary">{r.protocolVersion}</Typography.Text>
                {r.builtIn && <Tag color="blue">{t('protocols.builtIn')}</Tag>}
              </Space>
            ),
          },
          { key: 'registers', title: t('protocols.registers'), align: 'right', render: (_, r) => r.registers },
          { key: 'devices', title: t('protocols.devices'), align: 'right', render: (_, r) => r.devices },
          {
            key: 'enabled',
            title: t('protocols.status'),
            render: (_, r) => (
              <Space size={6}>
                <Switch
                  size="small"
                  checked={r.enabled}
                  disabled={!canEdit}
                  loading={toggle.isPending && toggle.variables?.id === r.id}
                  aria-label={t('protocols.enableLabel', { name: r.name })}
                  onChange={() => toggle.mutate(r)}
                  data-testid={`protocol-enabled-${r.identifier}`}
                />
                <Tag color={r.enabled ? 'green' : 'default'}>{t(r.enabled ? 'protocols.enabled' : 'protocols.disabled')}</Tag>
              </Space>
            ),
          },
          {
            key: 'updated',
            title: t('protocols.updated'),
            render: (_, r) => new Date(r.updatedAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }),
          },
          {
            key: 'actions',
            title: t('protocols.actions'),
            fixed: 'right',
            render: (_, r) => (
              <LinkActions
                actions={[
                  canEdit && {
                    key: 'edit',
                    label: t('protocols.edit'),
                    onClick: () => void navigate(`/system/protocols/${r.id}/edit`),
                    testId: `protocol-edit-${r.identifier}`,
                  },
                  {
                    key: 'history',
                    label: t('protocols.history'),
                    onClick: () => void navigate(`/system/protocols/${r.id}/history`),
                    testId: `protocol-history-${r.identifier}`,
                  },
                  { key: 'export', label: t('protocols.export'), onClick: () => void download(r) },
                  canEdit &&
                    !r.builtIn && {
                      key: 'delete',
                      label: t('protocols.delete'),
                      danger: true,
                      testId: `protocol-delete-${r.identifier}`,
                      confirm: { title: t('protocols.deleteTitle', { name: r.name }), content: t('protocols.deleteWarning') },
                      onClick: () => remove.mutateAsync(r.id),
                    },
                ]}
              />
            ),
          },
        ]}
      />
    </ListPage>
  );
}
