import './notifications.css';
import { ReloadOutlined, SendOutlined } from '@ant-design/icons';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { SMS_LIMITS, type SmsRecord, type SmsStatus } from '@sunward/contracts/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Form, Input, Select, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { usePageSize } from '../../lib/personalized';
import { fetchSmsRecords, fieldErrors, messageKeys, refusalMessage, sendSms } from './api';
import { notificationTexts } from './notification-texts';

registerTexts(notificationTexts);

const STATUS: Record<
  SmsStatus,
  { colour: string; key: 'notifications.smsStatusSent' | 'notifications.smsStatusFailed' | 'notifications.smsStatusLogged' }
> = {
  sent: { colour: 'green', key: 'notifications.smsStatusSent' },
  failed: { colour: 'red', key: 'notifications.smsStatusFailed' },
  logged: { colour: 'default', key: 'notifications.smsStatusLogged' },
};

/** Phone numbers as typed: separated by commas, semicolons, spaces or new lines. */
export function splitPhones(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/**
 * SMS sending and record (spec 02 §2 management; route /sms, hidden, permission system.sms): a text to
 * one or more numbers through the configured provider, and every message sent with its status.
 */
export function SmsPage({ route }: PageProps) {
  const { t } = useTranslation();
  const pageSize = usePageSize();
  const { message } = App.useApp();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const queryClient = useQueryClient();
  const [phones, setPhones] = useState('');
  const [content, setContent] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<SmsStatus>();
  const [phone, setPhone] = useState<string>();
  const [page, setPage] = useState(1);

  const query = { page, size: pageSize, status, phone };
  const records = useQuery({ queryKey: messageKeys.sms(query), queryFn: () => fetchSmsRecords(query), placeholderData: keepPreviousData });
  const send = useMutation({
    mutationFn: () => sendSms({ phones: splitPhones(phones), content }),
    onSuccess: (result) => {
      setErrors({});
      setContent('');
      const logged = result.records.every((r) => r.status === 'logged');
      void message.success(logged ? t('notifications.smsLoggedOnly') : t('notifications.smsSent', { count: result.records.length }));
      void queryClient.invalidateQueries({ queryKey: ['sms'] });
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      // Field names come as phones.0 for the first number: show them under the numbers box.
      const byBox = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.split('.')[0] ?? k, v]));
      if (Object.keys(byBox).length > 0) setErrors(byBox);
      else void message.error(refusalMessage(error) ?? t('notifications.requestFailed'));
    },
  });

  const columns: ColumnsType<SmsRecord> = [
    {
      title: t('notifications.smsColTime'),
      dataIndex: 'createdAt',
      width: 200,
      render: (iso: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso)),
    },
    { title: t('notifications.smsColPhone'), dataIndex: 'phone', width: 170 },
    {
      title: t('notifications.smsColContent'),
      dataIndex: 'content',
      render: (text: string) => <span className="sw-sms-content">{text}</span>,
    },
    {
      title: t('notifications.smsColStatus'),
      dataIndex: 'status',
      width: 150,
      render: (value: SmsStatus, row) => {
        const tag = (
          <Tag color={STATUS[value].colour} data-testid="sms-status">
            {t(STATUS[value].key)}
          </Tag>
        );
        return row.error ? <Tooltip title={row.error}>{tag}</Tooltip> : tag;
      },
    },
    { title: t('notifications.smsColAccount'), dataIndex: 'account', width: 200 },
  ];

  return (
    <div className="sw-sms-page" data-testid="sms-page">
      <PageTitle route={route} />
      <Card size="small" title={t('notifications.smsTitle')}>
        <Form layout="vertical" onFinish={() => send.mutate()} requiredMark={false} style={{ maxWidth: 640 }}>
          <Form.Item
            label={t('notifications.smsPhones')}
            htmlFor="sms-phones"
            validateStatus={errors.phones ? 'error' : undefined}
            help={errors.phones ?? t('notifications.smsPhonesHint')}
          >
            <Input.TextArea id="sms-phones" rows={2} value={phones} onChange={(e) => setPhones(e.target.value)} />
          </Form.Item>
          <Form.Item
            label={t('notifications.smsContent')}
            htmlFor="sms-content"
            validateStatus={errors.content ? 'error' : undefined}
            help={errors.content}
          >
            <Input.TextArea
              id="sms-content"
              rows={3}
              value={content}
              maxLength={SMS_LIMITS.contentMax}
              showCount
              onChange={(e) => setContent(e.target.value)}
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            icon={<SendOutlined />}
            loading={send.isPending}
            disabled={splitPhones(phones).length === 0 || content.trim() === ''}
            data-testid="sms-send"
          >
            {t('notifications.smsSend')}
          </Button>
        </Form>
      </Card>
      <Card size="small" title={t('notifications.smsRecord')}>
        <div className="sw-sms-toolbar">
          <Space wrap>
            <Input.Search
              allowClear
              placeholder={t('notifications.smsPhoneFilter')}
              style={{ width: 220 }}
              onSearch={(value) => {
                setPhone(value.trim() || undefined);
                setPage(1);
              }}
            />
            <Select
              aria-label={t('notifications.smsColStatus')}
              allowClear
              placeholder={t('notifications.smsColStatus')}
              style={{ width: 170 }}
              value={status}
              onChange={(value?: SmsStatus) => {
                setStatus(value);
                setPage(1);
              }}
              options={(Object.keys(STATUS) as SmsStatus[]).map((s) => ({ value: s, label: t(STATUS[s].key) }))}
            />
          </Space>
          <Tooltip title={t('notifications.refresh')}>
            <Button icon={<ReloadOutlined />} aria-label={t('notifications.refresh')} onClick={() => void records.refetch()} />
          </Tooltip>
        </div>
        {records.data && records.data.total === 0 && !status && !phone ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} data-testid="sms-empty" description={t('notifications.smsEmptyTitle')}>
            <Alert type="info" showIcon message={t('notifications.smsEmptyHint')} />
          </Empty>
        ) : (
          <Table<SmsRecord>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={records.data?.infos ?? []}
            loading={records.isPending}
            data-testid="sms-records"
            pagination={{
              current: page,
              pageSize: pageSize,
              total: records.data?.total ?? 0,
              onChange: setPage,
              showSizeChanger: false,
              hideOnSinglePage: true,
              showTotal: (total) => t('notifications.total', { count: total }),
            }}
          />
        )}
      </Card>
    </div>
  );
}
