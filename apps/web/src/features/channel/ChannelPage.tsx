import { PlusOutlined } from '@ant-design/icons';
import { CHANNEL_LIMITS, type ChannelChildAdd, type ChannelKind, type ChannelNode } from '@sunward/contracts/channel';
import { Code } from '@sunward/contracts/codes';
import { formatEnergy, formatPower } from '@sunward/contracts/units';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Switch, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { FormDialog } from '../../components/FormDialog';
import { PageTitle } from '../../components/PageTitle';
import { refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { addChildCompany, channelKeys, fetchChannelTree, saveChannelSettings } from './api';
import { channelTexts } from './channel-texts';

registerTexts(channelTexts);

interface TreeRow extends ChannelNode {
  children?: TreeRow[];
}

/** The flat list (parents before children) as antd's nested rows. */
function nest(nodes: readonly ChannelNode[]): TreeRow[] {
  const rows = new Map<number, TreeRow>(nodes.map((n) => [n.id, { ...n }]));
  const roots: TreeRow[] = [];
  for (const node of nodes) {
    const row = rows.get(node.id);
    const parent = node.parentId === null ? undefined : rows.get(node.parentId);
    if (!row) continue;
    if (parent) parent.children = [...(parent.children ?? []), row];
    else roots.push(row);
  }
  return roots;
}

/**
 * The channel dashboard (issue 24): the caller's company and every company below it as a tree, each row
 * with the counts of its whole subtree (plants, devices, online plants, open alarms, power now, energy
 * today); the administrator adds companies below and sets branding delegation and alarm routing.
 */
export function ChannelPage({ route }: PageProps) {
  const { t, i18n } = useTranslation();
  const { has } = useSession();
  const canEdit = has('company.edit');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const tree = useQuery({ queryKey: channelKeys.tree, queryFn: fetchChannelTree });
  const nodes = tree.data?.nodes ?? [];
  const rows = useMemo(() => nest(nodes), [nodes]);
  const own = nodes[0];
  const settings = useMutation({
    mutationFn: saveChannelSettings,
    onSuccess: () => {
      void message.success(t('channel.settingsSaved'));
      void queryClient.invalidateQueries({ queryKey: channelKeys.all });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('channel.settings')),
  });
  const number = (value: number) => value.toLocaleString(i18n.language);

  return (
    <div data-testid="channel-page" style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 8 }}>
        <PageTitle route={route} />
        {canEdit && (tree.data?.childKinds.length ?? 0) > 0 && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="channel-add">
            {t('channel.add')}
          </Button>
        )}
      </div>
      <Typography.Paragraph style={{ margin: 0 }}>{t('channel.intro')}</Typography.Paragraph>
      {canEdit && own && (
        <Space wrap size="large" aria-label={t('channel.settings')}>
          <Space>
            <Switch
              id="channel-child-branding"
              checked={own.childBranding}
              loading={settings.isPending}
              onChange={(childBranding) => settings.mutate({ childBranding, notifySubtree: own.notifySubtree })}
            />
            <label htmlFor="channel-child-branding">{t('channel.childBranding')}</label>
          </Space>
          <Space>
            <Switch
              id="channel-notify-subtree"
              checked={own.notifySubtree}
              loading={settings.isPending}
              onChange={(notifySubtree) => settings.mutate({ childBranding: own.childBranding, notifySubtree })}
            />
            <label htmlFor="channel-notify-subtree">{t('channel.notifySubtree')}</label>
          </Space>
        </Space>
      )}
      <Table<TreeRow>
        rowKey="id"
        data-testid="channel-tree"
        loading={tree.isFetching}
        dataSource={rows}
        pagination={false}
        expandable={{ defaultExpandAllRows: true }}
        key={nodes.length}
        locale={{ emptyText: t('channel.empty') }}
        scroll={{ x: 960 }}
        footer={() => t('channel.totals')}
        onRow={(r) => ({ 'data-testid': `channel-row-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { key: 'name', title: t('channel.company'), render: (_, r) => <span data-testid="channel-name">{r.name}</span> },
          { key: 'kind', title: t('channel.kind'), width: 130, render: (_, r) => t(`channel.kind.${r.kind}`) },
          {
            key: 'plants',
            title: t('channel.plants'),
            width: 100,
            align: 'right',
            render: (_, r) => <span data-testid="channel-plants">{number(r.subtree.plants)}</span>,
          },
          {
            key: 'devices',
            title: t('channel.devices'),
            width: 100,
            align: 'right',
            render: (_, r) => <span data-testid="channel-devices">{number(r.subtree.devices)}</span>,
          },
          {
            key: 'online',
            title: t('channel.online'),
            width: 120,
            align: 'right',
            render: (_, r) => <span data-testid="channel-online">{number(r.subtree.online)}</span>,
          },
          {
            key: 'alarms',
            title: t('channel.openAlarms'),
            width: 120,
            align: 'right',
            render: (_, r) => <span data-testid="channel-alarms">{number(r.subtree.openAlarms)}</span>,
          },
          {
            key: 'power',
            title: t('channel.powerNow'),
            width: 130,
            align: 'right',
            render: (_, r) => <span data-testid="channel-power">{formatPower(r.subtree.powerW, i18n.language)}</span>,
          },
          {
            key: 'energy',
            title: t('channel.energyToday'),
            width: 140,
            align: 'right',
            render: (_, r) => <span data-testid="channel-energy">{formatEnergy(r.subtree.energyTodayWh, i18n.language)}</span>,
          },
        ]}
      />
      {adding && own && tree.data && <AddDialog parent={own} kinds={tree.data.childKinds} onClose={() => setAdding(false)} />}
    </div>
  );
}

function AddDialog({ parent, kinds, onClose }: { parent: ChannelNode; kinds: readonly ChannelKind[]; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChannelChildAdd>();
  const required = { required: true, whitespace: true, message: t('channel.required') };
  return (
    <FormDialog<ChannelChildAdd, { id: number }>
      form={form}
      title={t('channel.addTitle', { name: parent.name })}
      okId="channel-submit"
      testId="channel-form"
      initialValues={{ kind: kinds[0] }}
      save={(values) => addChildCompany({ ...values, name: values.name.trim() })}
      savedText={() => t('channel.created', { name: form.getFieldValue('name') as string })}
      invalidate={[channelKeys.all]}
      fieldOf={(error) => {
        const code = refusalCode(error);
        if (code === Code.COMPANY_NAME_DUPLICATE) return 'name';
        if (code === Code.ACCOUNT_EXISTS) return 'adminAccount';
        return undefined;
      }}
      onClose={onClose}
    >
      <Form.Item name="name" label={t('channel.name')} rules={[required, { max: CHANNEL_LIMITS.nameMax }]}>
        <Input id="channel-name-field" autoComplete="organization" />
      </Form.Item>
      <Form.Item name="kind" label={t('channel.kind')} rules={[required]}>
        <Select id="channel-kind-field" options={kinds.map((value) => ({ value, label: t(`channel.kind.${value}`) }))} />
      </Form.Item>
      <Form.Item name="adminAccount" label={t('channel.adminAccount')} rules={[required, { max: 64 }]}>
        <Input id="channel-account-field" autoComplete="off" />
      </Form.Item>
      <Form.Item name="adminNickname" label={t('channel.adminNickname')} rules={[required, { max: CHANNEL_LIMITS.nicknameMax }]}>
        <Input id="channel-nickname-field" autoComplete="off" />
      </Form.Item>
      <Form.Item name="adminPassword" label={t('channel.adminPassword')} rules={[required, { max: 64 }]}>
        <Input.Password id="channel-password-field" autoComplete="new-password" />
      </Form.Item>
    </FormDialog>
  );
}
