import { PlusOutlined } from '@ant-design/icons';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { OemProject } from '@sunward/contracts/oem';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { LinkActions } from '../../components/LinkActions';
import { ListPage } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { fetchOemProjects, oemKeys, setOemEnabled } from './api';
import { OemFilesDialog } from './OemFilesDialog';
import { OemFormDialog } from './OemFormDialog';
import { oemTexts } from './oem-texts';
import './oem.css';

registerTexts(oemTexts);

/** OEM projects (issue 24, platform administrators): a company's branded console at its own domain. */
export function OemListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const canEdit = has('system.oem.edit');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: oemKeys.list, queryFn: fetchOemProjects });
  const [form, setForm] = useState<{ project?: OemProject } | null>(null);
  const [filesOf, setFilesOf] = useState<number | null>(null);
  const date = (iso: string) => new Date(iso).toLocaleDateString(LANGUAGE_TAGS[currentLanguage()], { dateStyle: 'medium' });
  const toggle = useMutation({
    mutationFn: (p: OemProject) => setOemEnabled(p.id, !p.enabled),
    onSuccess: (p) => {
      void message.success(t(p.enabled ? 'oem.enabledDone' : 'oem.disabledDone', { domain: p.domain }));
      void queryClient.invalidateQueries({ queryKey: oemKeys.all });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('oem.requestFailed')),
  });
  const files = list.data?.find((p) => p.id === filesOf);
  return (
    <ListPage
      testId="oem-page"
      title={<PageTitle route={route} />}
      tools={
        canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({})} data-testid="oem-add">
            {t('oem.add')}
          </Button>
        )
      }
    >
      <Table<OemProject>
        rowKey="id"
        data-testid="oem-table"
        loading={list.isFetching}
        dataSource={list.data}
        pagination={false}
        scroll={{ x: 960 }}
        locale={{ emptyText: t('oem.empty') }}
        columns={[
          { key: 'domain', title: t('oem.domain'), render: (_, p) => <code>{p.domain}</code> },
          {
            key: 'app',
            title: t('oem.appName'),
            render: (_, p) => (
              <Space>
                <span aria-hidden="true" className="sw-oem-swatch" style={{ background: p.themeColor }} />
                {p.appName}
              </Space>
            ),
          },
          { key: 'company', title: t('oem.company'), render: (_, p) => p.companyName },
          { key: 'next', title: t('oem.nextChange'), render: (_, p) => date(p.nextDomainChange) },
          { key: 'apk', title: t('oem.apkLatest'), render: (_, p) => p.apks[0]?.version ?? '--' },
          {
            key: 'status',
            title: t('oem.status'),
            render: (_, p) => <Tag color={p.enabled ? 'green' : 'default'}>{t(p.enabled ? 'oem.enabled' : 'oem.disabled')}</Tag>,
          },
          {
            key: 'actions',
            title: t('oem.actions'),
            render: (_, p) =>
              canEdit && (
                <LinkActions
                  actions={[
                    { key: 'edit', label: t('oem.edit'), onClick: () => setForm({ project: p }), testId: `oem-edit-${p.domain}` },
                    { key: 'files', label: t('oem.files'), onClick: () => setFilesOf(p.id), testId: `oem-files-${p.domain}` },
                    {
                      key: 'toggle',
                      label: t(p.enabled ? 'oem.disable' : 'oem.enable'),
                      danger: p.enabled,
                      testId: `oem-toggle-${p.domain}`,
                      confirm: p.enabled
                        ? { title: t('oem.disableTitle', { domain: p.domain }), content: t('oem.disableHint'), okText: t('oem.disable') }
                        : undefined,
                      onClick: () => toggle.mutateAsync(p),
                    },
                  ]}
                />
              ),
          },
        ]}
      />
      {form && <OemFormDialog project={form.project} onClose={() => setForm(null)} />}
      {files && <OemFilesDialog project={files} onClose={() => setFilesOf(null)} />}
    </ListPage>
  );
}
