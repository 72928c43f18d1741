import './layout.css';
import { ArrowLeftOutlined, LinkOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { LogicalPeriod } from '@sunward/contracts/plant-layout';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Popover, Skeleton, Space, Tabs, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../../../app/session';
import { PageTitle } from '../../../components/PageTitle';
import { ApiCallError } from '../../../lib/api-client';
import { registerTexts } from '../../../lib/feature-texts';
import { currentLanguage } from '../../../lib/i18n';
import { usePlantLiveEvents } from '../../../lib/live-push';
import { createLink, fetchEditor, fetchLink, fetchLive, fetchLogical, layoutKeys, revokeLink } from './api';
import { LiveView } from './LiveView';
import { LogicalView } from './LogicalView';
import { PhysicalEditor } from './PhysicalEditor';
import { layoutTexts } from './texts';

registerTexts(layoutTexts);

type TabKey = 'logical' | 'physical' | 'live';

/**
 * Asks before leaving with unsaved changes: closing or reloading the tab (beforeunload) and following any
 * link of the console (the router has no blocker, so a click on a link is caught before it navigates).
 */
function useLeaveGuard(dirty: boolean) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (dirtyRef.current) event.preventDefault();
    };
    const click = (event: MouseEvent) => {
      if (!dirtyRef.current || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
      const anchor = (event.target as Element | null)?.closest?.('a[href]');
      const href = anchor?.getAttribute('href');
      if (!anchor || !href?.startsWith('/') || anchor.getAttribute('target') === '_blank') return;
      event.preventDefault();
      event.stopPropagation();
      modal.confirm({
        title: t('layout.unsavedTitle'),
        content: t('layout.unsavedText'),
        okText: t('layout.leave'),
        cancelText: t('layout.stay'),
        okButtonProps: { danger: true },
        onOk: () => {
          dirtyRef.current = false;
          void navigate(href);
        },
      });
    };
    window.addEventListener('beforeunload', warn);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', warn);
      document.removeEventListener('click', click, true);
    };
  }, [modal, navigate, t]);
}

function ShareLink({ plantId }: { plantId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const link = useQuery({ queryKey: layoutKeys.link(plantId), queryFn: () => fetchLink(plantId) });
  const [url, setUrl] = useState<string | undefined>();
  const create = useMutation({
    mutationFn: () => createLink(plantId),
    onSuccess: (answer) => {
      setUrl(`${window.location.origin}/plantLayout?token=${answer.token ?? ''}`);
      queryClient.setQueryData(layoutKeys.link(plantId), answer);
    },
  });
  const revoke = useMutation({
    mutationFn: () => revokeLink(plantId),
    onSuccess: (answer) => {
      setUrl(undefined);
      queryClient.setQueryData(layoutKeys.link(plantId), answer);
    },
  });
  const active = link.data?.active === true;
  return (
    <div className="sw-layout-share" data-testid="share-panel">
      <Typography.Paragraph>{active ? t('layout.shareActive') : t('layout.shareNone')}</Typography.Paragraph>
      {url && (
        <Typography.Paragraph copyable={{ text: url }} data-testid="share-url" className="sw-layout-share-url">
          {url}
        </Typography.Paragraph>
      )}
      {url && <Typography.Paragraph type="secondary">{t('layout.shareCopy')}</Typography.Paragraph>}
      <Space>
        <Button type="primary" onClick={() => create.mutate()} loading={create.isPending} data-testid="share-create">
          {t('layout.shareCreate')}
        </Button>
        {active && (
          <Button danger onClick={() => revoke.mutate()} loading={revoke.isPending} data-testid="share-revoke">
            {t('layout.shareRevoke')}
          </Button>
        )}
      </Space>
    </div>
  );
}

/** /plants/layout/:id — the plant's logical tree, physical editor and live roof (spec 01 §2, spec 02 §2/§4/§5). */
export function PlantLayoutPage() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const queryClient = useQueryClient();
  const { has } = useSession();
  const [tab, setTab] = useState<TabKey>('logical');
  const [period, setPeriod] = useState<LogicalPeriod>('power');
  const [dirty, setDirty] = useState(false);
  const [editorKey, setEditorKey] = useState(0);
  const { modal } = App.useApp();
  useLeaveGuard(dirty);

  const editor = useQuery({ queryKey: layoutKeys.editor(id), queryFn: () => fetchEditor(id), enabled: id > 0 });
  const logical = useQuery({
    queryKey: layoutKeys.logical(id, period),
    queryFn: () => fetchLogical(id, period),
    enabled: editor.isSuccess && tab === 'logical',
    // Power now follows the readings; energy periods change slowly.
    refetchInterval: period === 'power' ? 10_000 : 60_000,
  });
  const live = useQuery({
    queryKey: layoutKeys.live(id),
    queryFn: () => fetchLive(id),
    enabled: editor.isSuccess && tab === 'live',
    refetchInterval: 60_000,
  });
  const refresh = useCallback(() => {
    // A fetch still under way finishes rather than starting over (on a slow server it never would).
    void queryClient.invalidateQueries({ queryKey: layoutKeys.live(id) }, { cancelRefetch: false });
    void queryClient.invalidateQueries({ queryKey: ['plant-layout', id, 'logical'] }, { cancelRefetch: false });
  }, [id, queryClient]);
  usePlantLiveEvents(id, editor.isSuccess && tab !== 'physical', refresh);

  const onDirty = useCallback((d: boolean) => setDirty(d), []);

  if (editor.error instanceof ApiCallError && editor.error.code === Code.PLANT_NOT_FOUND)
    return <Alert type="error" showIcon title={editor.error.message} />;
  if (!editor.data) return <Skeleton active paragraph={{ rows: 10 }} />;
  const data = editor.data;

  const changeTab = (next: string) => {
    if (tab === 'physical' && dirty && next !== 'physical')
      modal.confirm({
        title: t('layout.unsavedTitle'),
        content: t('layout.unsavedText'),
        okText: t('layout.leave'),
        cancelText: t('layout.stay'),
        okButtonProps: { danger: true },
        onOk: () => {
          setDirty(false);
          setEditorKey((k) => k + 1);
          setTab(next as TabKey);
        },
      });
    else setTab(next as TabKey);
  };

  return (
    <div className="sw-layout" data-testid="plant-layout-page">
      <Card className="sw-layout-head">
        <Space wrap className="sw-layout-head-row">
          <Link to={`/plants/overview/${id}/1`} data-testid="layout-back">
            <ArrowLeftOutlined /> {t('layout.back')}
          </Link>
          <PageTitle>{t('route.plantLayout')}</PageTitle>
          {data.canEdit && has('station.share') && (
            <Popover trigger="click" content={<ShareLink plantId={id} />} title={t('layout.share')}>
              <Button icon={<LinkOutlined />} data-testid="share-open">
                {t('layout.share')}
              </Button>
            </Popover>
          )}
        </Space>
        {!data.canEdit && <Typography.Paragraph type="secondary">{t('layout.readOnly')}</Typography.Paragraph>}
      </Card>
      <Card>
        <Tabs
          activeKey={tab}
          onChange={changeTab}
          items={[
            {
              key: 'logical',
              label: t('layout.tabLogical'),
              children: (
                <LogicalView data={logical.data} loading={logical.isLoading} period={period} onPeriod={setPeriod} locale={locale} />
              ),
            },
            ...(data.canEdit
              ? [
                  {
                    key: 'physical',
                    label: t('layout.tabPhysical'),
                    children: (
                      <PhysicalEditor
                        key={`${editorKey}-${data.layout.version}`}
                        plantId={id}
                        layout={data.layout}
                        devices={data.devices}
                        locale={locale}
                        onDirty={onDirty}
                        onSaved={(saved) => {
                          queryClient.setQueryData(layoutKeys.editor(id), { ...data, layout: saved });
                          refresh();
                        }}
                        onReload={() => {
                          setDirty(false);
                          void editor.refetch().then(() => setEditorKey((k) => k + 1));
                        }}
                      />
                    ),
                  },
                ]
              : []),
            {
              key: 'live',
              label: t('layout.tabLive'),
              children: <LiveView panels={data.layout.panels} groups={data.layout.groups} live={live.data} locale={locale} />,
            },
          ]}
        />
      </Card>
    </div>
  );
}
