import type { EnergyEvent, EnergyEventAction, EnergyEventState, EventDeviceResult } from '@sunward/contracts/energy-hub';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Card, Progress, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { GuardedButton, mayOperate } from './access';
import { fetchEvents, hubKeys, NOT_ENABLED_CODES, respond } from './api';
import { energyHubTexts } from './energy-hub-texts';
import { HubNotEnabled } from './HubNotEnabled';
import { PublishEvent } from './PublishEvent';

registerTexts(energyHubTexts);

const STATE_COLOURS: Record<EnergyEventState, string> = {
  pending: 'warning',
  active: 'processing',
  completed: 'success',
  cancelled: 'default',
};
const OUTCOME_COLOURS: Record<EventDeviceResult['outcome'], string> = {
  discharging: 'processing',
  done: 'success',
  skipped: 'warning',
  failed: 'error',
};

/** The answers the site can give an event now: join or reject once before it starts, opt in or out until it ends. */
function actionsOf(event: EnergyEvent): EnergyEventAction[] {
  if (event.state === 'completed' || event.state === 'cancelled') return [];
  const first: EnergyEventAction[] = event.state === 'pending' && event.response === 'none' ? ['join', 'reject'] : [];
  const later: EnergyEventAction[] = event.response === 'optIn' ? ['optOut'] : event.response === 'optOut' ? ['optIn'] : [];
  return first.length > 0 ? first : event.state === 'active' && event.response === 'none' ? ['optIn', 'optOut'] : later;
}

/**
 * Demand-response events (issue 23): the programme's events with their state in colour and words, the site's answer
 * and the actions it may take, and per battery what it delivered against what it was asked (refreshed every few
 * seconds while an event runs).
 */
export function EventsPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const events = useQuery({
    queryKey: hubKeys.events,
    queryFn: fetchEvents,
    retry: false,
    refetchInterval: (query) => (query.state.data?.infos.some((e) => e.state === 'active' || e.state === 'pending') ? 3000 : false),
  });
  const answer = useMutation({
    mutationFn: ({ id, action }: { id: number; action: EnergyEventAction }) => respond(id, action),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: hubKeys.events }),
    onError: (error) => void message.error(refusalMessage(error) ?? t('energyHub.requestFailed')),
  });

  const code = refusalCode(events.error);
  if (code !== undefined && NOT_ENABLED_CODES.includes(code)) return <HubNotEnabled route={route} />;
  const language = LANGUAGE_TAGS[currentLanguage()];

  return (
    <Card className="sw-page-card" data-testid="energy-hub-events-page">
      <PageTitle route={route} spaced />
      <PublishEvent />
      <Table<EnergyEvent>
        rowKey="id"
        loading={events.isLoading}
        dataSource={events.data?.infos ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('energyHub.noEvents') }}
        expandable={{
          rowExpandable: (e) => e.results.length > 0,
          // Results open as they come in (a battery starting mid-event too); a row the user closed stays closed.
          expandedRowKeys: (events.data?.infos ?? []).filter((e) => e.results.length > 0 && !collapsed.has(e.id)).map((e) => e.id),
          onExpand: (open, e) =>
            setCollapsed((before) => {
              const next = new Set(before);
              if (open) next.delete(e.id);
              else next.add(e.id);
              return next;
            }),
          expandedRowRender: (e) => <Results event={e} />,
        }}
        columns={[
          { title: t('energyHub.event'), dataIndex: 'eventId' },
          { title: t('energyHub.plant'), dataIndex: 'plantName' },
          { title: t('energyHub.level'), dataIndex: 'participationLevel' },
          { title: t('energyHub.start'), render: (_, e) => exactTime(e.start, language) },
          { title: t('energyHub.duration'), dataIndex: 'durationMinutes' },
          { title: t('energyHub.end'), render: (_, e) => exactTime(e.end, language) },
          { title: t('energyHub.power'), render: (_, e) => (e.powerDischargeW / 1000).toLocaleString(language) },
          {
            title: t('energyHub.state'),
            render: (_, e) => (
              <Tag color={STATE_COLOURS[e.state]} data-testid="energy-hub-event-state">
                {t(`energyHub.eventState.${e.state}`)}
              </Tag>
            ),
          },
          {
            title: t('energyHub.response'),
            render: (_, e) => <span data-testid="energy-hub-event-response">{t(`energyHub.response.${e.response}`)}</span>,
          },
          {
            title: t('energyHub.actions'),
            render: (_, e) => (
              <Space>
                {actionsOf(e).map((action) => (
                  <GuardedButton
                    key={action}
                    allowed={mayOperate(e.access)}
                    why={t('energyHub.needsOperate')}
                    size="small"
                    type={action === 'join' || action === 'optIn' ? 'primary' : 'default'}
                    loading={answer.isPending && answer.variables?.id === e.id && answer.variables.action === action}
                    onClick={() => answer.mutate({ id: e.id, action })}
                    data-testid={`energy-hub-${action}`}
                  >
                    {t(`energyHub.action.${action}`)}
                  </GuardedButton>
                ))}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** Each battery's part: delivered against asked as a bar with the figures in words, its SOC, why it was skipped. */
function Results({ event }: { event: EnergyEvent }) {
  const { t } = useTranslation();
  return (
    <section aria-label={t('energyHub.resultsOf', { id: event.eventId })} data-testid="energy-hub-results">
      <Typography.Text strong>{t('energyHub.results')}</Typography.Text>
      {event.results.map((r) => {
        const percent = r.askedKwh > 0 ? Math.min(100, Math.round((r.deliveredKwh / r.askedKwh) * 100)) : 0;
        const figures = t('energyHub.delivered', { delivered: r.deliveredKwh, asked: r.askedKwh });
        return (
          <div
            key={r.sn}
            style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap', marginTop: 8 }}
            data-testid="energy-hub-result"
          >
            <Typography.Text code>{r.sn}</Typography.Text>
            <Tag color={OUTCOME_COLOURS[r.outcome]}>{t(`energyHub.outcome.${r.outcome}`)}</Tag>
            <Progress
              percent={percent}
              size="small"
              style={{ width: 160, margin: 0 }}
              aria-label={`${r.sn}: ${figures}`}
              showInfo={false}
            />
            <Typography.Text data-testid="energy-hub-delivered">{figures}</Typography.Text>
            {r.startSocPct !== null && (
              <Typography.Text type="secondary">
                {t('energyHub.soc', { from: r.startSocPct, to: r.socPct ?? r.startSocPct })}
              </Typography.Text>
            )}
            {r.message && <Typography.Text type="warning">{r.message}</Typography.Text>}
          </div>
        );
      })}
    </section>
  );
}
