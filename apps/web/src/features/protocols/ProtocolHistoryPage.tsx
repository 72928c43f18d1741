import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { diffRegisters, type ProtocolVersionRow, type RegisterDiff } from '@sunward/contracts/protocols';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { fetchProtocol, fetchProtocolVersion, fetchProtocolVersions, protocolKeys } from './api';
import { ProtocolMissing } from './ProtocolMissing';
import { ProtocolRestoreModal } from './ProtocolRestoreModal';
import { protocolTexts } from './protocol-texts';
import { switchTexts } from './switch-texts';

registerTexts(protocolTexts);
registerTexts(switchTexts);

const CHANGE_COLOURS: Record<RegisterDiff['change'], string> = { added: 'green', removed: 'red', changed: 'gold' };

/**
 * A protocol's versions (issue 19), newest first, and what changed between any two: registers added,
 * removed, or changed in named fields.
 */
export function ProtocolHistoryPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const protocol = useQuery({ queryKey: protocolKeys.detail(id), queryFn: () => fetchProtocol(id) });
  const versions = useQuery({ queryKey: protocolKeys.versions(id), queryFn: () => fetchProtocolVersions(id) });
  const newest = versions.data?.[0]?.version ?? 1;
  const [pair, setPair] = useState<{ from?: number; to?: number }>({});
  const canEdit = useSession().has('system.protocol.edit');
  const [restoring, setRestoring] = useState<number>();
  const to = pair.to ?? newest;
  const from = pair.from ?? Math.max(1, to - 1);
  const before = useQuery({
    queryKey: protocolKeys.version(id, from),
    queryFn: () => fetchProtocolVersion(id, from),
    enabled: versions.isSuccess,
  });
  const after = useQuery({
    queryKey: protocolKeys.version(id, to),
    queryFn: () => fetchProtocolVersion(id, to),
    enabled: versions.isSuccess,
  });
  const diff = before.data && after.data ? diffRegisters(before.data.content.points, after.data.content.points) : undefined;
  if (protocol.isError) return <ProtocolMissing />;
  const options = (versions.data ?? []).map((v) => ({ value: v.version, label: t('protocols.versionTag', { version: v.version }) }));

  return (
    <Card className="sw-page-card" data-testid="protocol-history">
      {restoring !== undefined && protocol.data && (
        <ProtocolRestoreModal
          protocolId={id}
          name={protocol.data.name}
          version={restoring}
          currentVersion={protocol.data.currentVersion}
          onClose={() => setRestoring(undefined)}
        />
      )}
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
          <PageTitle route={route}>{t('protocols.historyTitle', { name: protocol.data?.name ?? '' })}</PageTitle>
          <Button onClick={() => void navigate('/system/protocols')}>{t('protocols.backToList')}</Button>
        </Space>
        <Table<ProtocolVersionRow>
          rowKey="version"
          size="small"
          data-testid="version-history"
          loading={versions.isFetching}
          dataSource={versions.data}
          pagination={false}
          columns={[
            {
              key: 'version',
              title: t('protocols.versions'),
              render: (_, v) => (
                <Space>
                  <Tag>{t('protocols.versionTag', { version: v.version })}</Tag>
                  {v.version === protocol.data?.currentVersion && <Tag color="green">{t('protocols.current')}</Tag>}
                </Space>
              ),
            },
            { key: 'pv', title: t('protocols.protocolVersion'), render: (_, v) => v.protocolVersion },
            { key: 'cv', title: t('protocols.configurationVersion'), render: (_, v) => v.configurationVersion },
            { key: 'registers', title: t('protocols.registers'), align: 'right', render: (_, v) => v.registers },
            { key: 'note', title: t('protocols.note'), render: (_, v) => v.note ?? '--' },
            { key: 'creator', title: t('protocols.creator'), render: (_, v) => v.creator ?? t('protocols.shipped') },
            {
              key: 'created',
              title: t('protocols.savedAt'),
              render: (_, v) => new Date(v.createdAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }),
            },
            ...(canEdit
              ? [
                  {
                    key: 'restore',
                    title: t('protocols.actions'),
                    render: (_: unknown, v: ProtocolVersionRow) =>
                      v.version !== protocol.data?.currentVersion && (
                        <Button size="small" onClick={() => setRestoring(v.version)} data-testid={`restore-${v.version}`}>
                          {t('protocolSwitch.restore')}
                        </Button>
                      ),
                  },
                ]
              : []),
          ]}
        />
        <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
          {t('protocols.compareTitle')}
        </Typography.Title>
        <Space wrap>
          <Select
            aria-label={t('protocols.compareFrom')}
            value={from}
            options={options}
            style={{ width: 140 }}
            onChange={(v) => setPair({ from: v, to })}
            data-testid="diff-from"
          />
          <Typography.Text>→</Typography.Text>
          <Select
            aria-label={t('protocols.compareTo')}
            value={to}
            options={options}
            style={{ width: 140 }}
            onChange={(v) => setPair({ from, to: v })}
            data-testid="diff-to"
          />
        </Space>
        {!diff ? (
          <Spin />
        ) : from === to ? (
          <Alert type="info" showIcon message={t('protocols.sameVersion')} />
        ) : (
          <Table<RegisterDiff>
            rowKey="id"
            size="small"
            data-testid="version-diff"
            dataSource={diff}
            pagination={false}
            locale={{ emptyText: <Empty description={t('protocols.noDifference')} /> }}
            columns={[
              { key: 'id', title: t('protocols.col_id'), render: (_, d) => <Typography.Text code>{d.id}</Typography.Text> },
              {
                key: 'change',
                title: t('protocols.change'),
                render: (_, d) => <Tag color={CHANGE_COLOURS[d.change]}>{t(`protocols.change_${d.change}`)}</Tag>,
              },
              { key: 'fields', title: t('protocols.changedFields'), render: (_, d) => (d.fields.length > 0 ? d.fields.join(', ') : '--') },
            ]}
          />
        )}
      </Space>
    </Card>
  );
}
