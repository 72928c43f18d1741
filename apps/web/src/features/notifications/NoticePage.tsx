import './notifications.css';
import { AlertOutlined, CheckOutlined, NotificationOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { kindOfFamily } from '@sunward/contracts/devices';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { type MessageRow, MessageState, MessageType } from '@sunward/contracts/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, DatePicker, Empty, List, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { fetchReceivedInvitations, invitationKeys } from '../../components/invitations/api';
import { ReceivedInvitations } from '../../components/invitations/ReceivedInvitations';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { usePageSize } from '../../lib/personalized';
import { fetchMessages, type MessageQuery, messageKeys, refusalMessage, setMessageState, setMessageStates } from './api';
import { notificationTexts } from './notification-texts';
import { useUnreadCount } from './useUnreadCount';

registerTexts(notificationTexts);

const LEVEL_COLOURS: Record<string, string> = { fault: 'red', protect: 'orange', warning: 'gold' };

/**
 * The notification centre (/notice, spec 02 §2 notification panel): system announcements and equipment
 * alarms with their read state and receive time, filtered by type, state and period; mark one read or
 * unread, or all read. The list refreshes by itself when a new message is pushed.
 */
export function NoticePage({ route }: PageProps) {
  const { t } = useTranslation();
  const pageSize = usePageSize();
  const { message } = App.useApp();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const unread = useUnreadCount();
  const [type, setType] = useState<number>();
  const [state, setState] = useState<number>();
  const [period, setPeriod] = useState<[Dayjs, Dayjs] | null>(null);
  const [page, setPage] = useState(1);

  const query: MessageQuery = {
    page,
    size: pageSize,
    type,
    state,
    from: period ? period[0].startOf('day').toISOString() : undefined,
    to: period ? period[1].endOf('day').toISOString() : undefined,
  };
  const list = useQuery({ queryKey: messageKeys.page(query), queryFn: () => fetchMessages(query), placeholderData: keepPreviousData });
  // Invitations to answer sit above the list; a message about one that is still open points to it.
  const invitations = useQuery({ queryKey: invitationKeys.received, queryFn: fetchReceivedInvitations });
  const openInvitations = new Set((invitations.data ?? []).map((i) => i.id));
  // A new message may be a new invitation: the pushed unread count refetches them too.
  useEffect(() => {
    if (unread > 0) void queryClient.invalidateQueries({ queryKey: invitationKeys.received });
  }, [unread, queryClient]);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: messageKeys.all });
    void queryClient.invalidateQueries({ queryKey: invitationKeys.received });
  };
  const fail = (error: unknown) => void message.error(refusalMessage(error) ?? t('notifications.requestFailed'));
  const filter = (apply: () => void) => {
    apply();
    setPage(1);
  };

  const mark = useMutation({
    mutationFn: ({ id, read }: { id: number; read: boolean }) => setMessageState(id, read ? MessageState.READ : MessageState.UNREAD),
    onSuccess: (result) => {
      queryClient.setQueryData(messageKeys.count, result.unread);
      refresh();
    },
    onError: fail,
  });
  const readAll = useMutation({
    mutationFn: () => setMessageStates(MessageState.READ),
    onSuccess: (result) => {
      queryClient.setQueryData(messageKeys.count, result.unread);
      void message.success(t('notifications.readAllDone'));
      refresh();
    },
    onError: fail,
  });

  const rows = list.data?.infos ?? [];
  const filtered = type !== undefined || state !== undefined || period !== null;

  const renderItem = (row: MessageRow) => {
    const isUnread = row.state === MessageState.UNREAD;
    const alarm = row.alarm;
    const kind = alarm ? kindOfFamily(alarm.family) : undefined;
    return (
      <List.Item
        className={isUnread ? 'sw-notice-item sw-notice-unread' : 'sw-notice-item'}
        data-testid="notice-item"
        data-state={row.state}
        actions={[
          ...(row.invitation && openInvitations.has(row.invitation.invitationId)
            ? [
                <Button
                  key="invitation"
                  size="small"
                  type="link"
                  onClick={() => document.getElementById('invitations')?.scrollIntoView({ behavior: 'smooth', block: 'center' })}
                  data-testid="notice-invitation"
                >
                  {t('invitations.answer')}
                </Button>,
              ]
            : []),
          ...(alarm && kind
            ? [
                <Link key="device" to={`/device/detail/${kind}/${encodeURIComponent(alarm.deviceSn)}`}>
                  {t('notifications.openDevice')}
                </Link>,
              ]
            : []),
          <Button
            key="state"
            size="small"
            type="link"
            onClick={() => mark.mutate({ id: row.id, read: isUnread })}
            data-testid={isUnread ? 'notice-mark-read' : 'notice-mark-unread'}
          >
            {t(isUnread ? 'notifications.markRead' : 'notifications.markUnread')}
          </Button>,
        ]}
      >
        <List.Item.Meta
          avatar={
            <Badge dot={isUnread} offset={[-2, 2]}>
              {row.type === MessageType.ALARM ? (
                <AlertOutlined
                  className={`sw-notice-icon sw-notice-${alarm?.change === 'cleared' ? 'cleared' : (alarm?.level ?? 'fault')}`}
                />
              ) : (
                <NotificationOutlined className="sw-notice-icon" />
              )}
            </Badge>
          }
          title={
            <Space size={8} wrap>
              <Typography.Text strong={isUnread}>{row.title}</Typography.Text>
              <Tag
                color={
                  row.type === MessageType.ALARM ? (alarm?.change === 'cleared' ? 'green' : LEVEL_COLOURS[alarm?.level ?? '']) : 'blue'
                }
              >
                {t(row.type === MessageType.ALARM ? 'notifications.typeAlarm' : 'notifications.typeSystem')}
              </Tag>
            </Space>
          }
          description={
            <>
              <div className="sw-notice-content">{row.content}</div>
              <Typography.Text type="secondary" className="sw-notice-time">
                {new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(row.createdAt))}
              </Typography.Text>
            </>
          }
        />
      </List.Item>
    );
  };

  return (
    <div className="sw-notice-page" data-testid="notice-page">
      <PageTitle route={route} />
      <ReceivedInvitations id="invitations" />
      <Card size="small">
        <div className="sw-notice-toolbar">
          <Space wrap>
            <Select
              aria-label={t('notifications.filterType')}
              allowClear
              placeholder={t('notifications.filterType')}
              style={{ width: 190 }}
              value={type}
              onChange={(value?: number) => filter(() => setType(value))}
              options={[
                { value: MessageType.ALARM, label: t('notifications.typeAlarm') },
                { value: MessageType.SYSTEM, label: t('notifications.typeSystem') },
              ]}
              data-testid="notice-type"
            />
            <Select
              aria-label={t('notifications.filterState')}
              allowClear
              placeholder={t('notifications.filterState')}
              style={{ width: 140 }}
              value={state}
              onChange={(value?: number) => filter(() => setState(value))}
              options={[
                { value: MessageState.UNREAD, label: t('notifications.unread') },
                { value: MessageState.READ, label: t('notifications.read') },
              ]}
              data-testid="notice-state"
            />
            <DatePicker.RangePicker
              value={period}
              placeholder={[t('notifications.from'), t('notifications.to')]}
              onChange={(range) => filter(() => setPeriod(range?.[0] && range[1] ? [range[0], range[1]] : null))}
              data-testid="notice-period"
            />
          </Space>
          <Space wrap>
            <Typography.Text type="secondary" data-testid="notice-unread">
              {t('notifications.unreadCount', { count: unread })}
            </Typography.Text>
            <Tooltip title={t('notifications.refresh')}>
              <Button icon={<ReloadOutlined />} aria-label={t('notifications.refresh')} onClick={refresh} />
            </Tooltip>
            <Button icon={<SettingOutlined />} onClick={() => void navigate('/edit?tab=notifications')}>
              {t('notifications.emailSettings')}
            </Button>
            <Button
              type="primary"
              icon={<CheckOutlined />}
              disabled={unread === 0}
              loading={readAll.isPending}
              onClick={() => readAll.mutate()}
              data-testid="notice-read-all"
            >
              {t('notifications.readAll')}
            </Button>
          </Space>
        </div>
        <List<MessageRow>
          loading={list.isPending}
          dataSource={rows}
          renderItem={renderItem}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                data-testid="notice-empty"
                description={
                  filtered ? (
                    t('notifications.emptyFiltered')
                  ) : (
                    <>
                      <Typography.Text strong>{t('notifications.emptyTitle')}</Typography.Text>
                      <br />
                      <Typography.Text type="secondary">{t('notifications.emptyHint')}</Typography.Text>
                    </>
                  )
                }
              />
            ),
          }}
          pagination={
            (list.data?.total ?? 0) > pageSize
              ? {
                  current: page,
                  pageSize: pageSize,
                  total: list.data?.total ?? 0,
                  onChange: setPage,
                  showSizeChanger: false,
                  showTotal: (total) => t('notifications.total', { count: total }),
                }
              : false
          }
        />
      </Card>
    </div>
  );
}
