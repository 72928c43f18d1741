import './notifications.css';
import { DeleteOutlined, MailOutlined, PlusOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import type { EventLevel } from '@sunward/contracts/events';
import { NOTIFY_LIMITS, type NotifyPlantRule } from '@sunward/contracts/notifications';
import { isEmail } from '@sunward/contracts/validators';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Form, Input, Select, Space, Switch, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { fetchPlantOptions } from '../../lib/plant-options';
import { fetchNotifySettings, fieldErrors, messageKeys, notifyCode, refusalMessage, saveNotifySettings } from './api';
import { notificationTexts } from './notification-texts';

registerTexts(notificationTexts);

const LEVEL_OPTIONS: {
  value: EventLevel;
  key: 'notifications.levelFault' | 'notifications.levelProtect' | 'notifications.levelWarning';
}[] = [
  { value: 'fault', key: 'notifications.levelFault' },
  { value: 'protect', key: 'notifications.levelProtect' },
  { value: 'warning', key: 'notifications.levelWarning' },
];

/**
 * E-mail alarm settings (user/notify): on or off, an address confirmed with a code sent to it, the levels
 * wanted for every plant and plants with their own levels. Mounted in personal settings (/edit).
 */
export function NotificationSettings() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: messageKeys.notify, queryFn: fetchNotifySettings });
  const plants = useQuery({ queryKey: ['plant-options'], queryFn: fetchPlantOptions });
  const [enabled, setEnabled] = useState(false);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [levels, setLevels] = useState<EventLevel[]>(['fault']);
  const [rules, setRules] = useState<NotifyPlantRule[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [codeSentTo, setCodeSentTo] = useState<string>();
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(Date.now());

  // The stored settings fill the form when they load and again after each save.
  useEffect(() => {
    const s = settings.data;
    if (!s) return;
    setEnabled(s.enabled);
    setEmail(s.email ?? '');
    setLevels(s.levels);
    setRules(s.plants);
    setCode('');
    setCodeSentTo(undefined);
  }, [settings.data]);
  useEffect(() => {
    if (resendAt <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [resendAt, now]);

  const confirmed = settings.data?.email ?? null;
  const trimmed = email.trim();
  const isNewAddress = trimmed !== '' && trimmed.toLowerCase() !== (confirmed ?? '').toLowerCase();
  const waitSeconds = Math.max(0, Math.ceil((resendAt - now) / 1000));

  const showError = (error: unknown) => {
    const fields = fieldErrors(error);
    if (error instanceof ApiCallError && (error.code === Code.VERIFICATION_CODE_WRONG || error.code === Code.VERIFICATION_CODE_EXPIRED))
      fields.code = error.message;
    if (Object.keys(fields).length > 0) setErrors(fields);
    else void message.error(refusalMessage(error) ?? t('notifications.requestFailed'));
  };

  const sendCode = useMutation({
    mutationFn: () => notifyCode(trimmed),
    onSuccess: (result) => {
      setErrors({});
      setCodeSentTo(trimmed);
      setResendAt(Date.now() + result.resendAfter * 1000);
      setNow(Date.now());
    },
    onError: showError,
  });
  const save = useMutation({
    mutationFn: () =>
      saveNotifySettings({
        enabled,
        email: trimmed === '' ? null : trimmed,
        code: isNewAddress ? code.trim() : undefined,
        levels,
        plants: rules,
      }),
    onSuccess: (saved) => {
      setErrors({});
      queryClient.setQueryData(messageKeys.notify, saved);
      void message.success(t('notifications.saved'));
    },
    onError: showError,
  });

  const plantOptions = (plants.data ?? []).map((p) => ({
    value: p.id,
    label: p.name,
    disabled: rules.some((r) => r.plantId === p.id),
  }));
  const addRule = () => {
    const free = plantOptions.find((p) => !p.disabled);
    if (free) setRules([...rules, { plantId: free.value, levels: [...levels] }]);
  };
  const levelBoxes = (value: EventLevel[], onChange: (next: EventLevel[]) => void, testId: string) => (
    <Checkbox.Group
      value={value}
      onChange={(next) => onChange(next as EventLevel[])}
      options={LEVEL_OPTIONS.map((o) => ({ value: o.value, label: t(o.key) }))}
      data-testid={testId}
    />
  );

  return (
    <Card
      id="alarm-emails"
      className="sw-notify-settings"
      title={
        <Space>
          <MailOutlined />
          {t('notifications.emailTitle')}
        </Space>
      }
      loading={settings.isPending}
      data-testid="notify-settings"
    >
      <Typography.Paragraph type="secondary">{t('notifications.emailIntro', { max: settings.data?.maxPerHour ?? 0 })}</Typography.Paragraph>
      <Form layout="vertical" onFinish={() => save.mutate()} requiredMark={false}>
        <Form.Item label={t('notifications.enabled')}>
          <Switch checked={enabled} onChange={setEnabled} data-testid="notify-enabled" aria-label={t('notifications.enabled')} />
        </Form.Item>
        <Form.Item
          label={t('notifications.address')}
          validateStatus={errors.email ? 'error' : undefined}
          help={errors.email}
          extra={!isNewAddress && confirmed ? <Tag color="green">{t('notifications.confirmed')}</Tag> : undefined}
        >
          <Space.Compact style={{ width: '100%', maxWidth: 460 }}>
            <Input
              id="notify-email"
              type="email"
              value={email}
              maxLength={NOTIFY_LIMITS.emailMax}
              onChange={(e) => setEmail(e.target.value)}
              autoComplete="email"
            />
            {isNewAddress && (
              <Button
                onClick={() => sendCode.mutate()}
                disabled={!isEmail(trimmed) || waitSeconds > 0}
                loading={sendCode.isPending}
                data-testid="notify-send-code"
              >
                {waitSeconds > 0 ? t('notifications.resendIn', { seconds: waitSeconds }) : t('notifications.sendCode')}
              </Button>
            )}
          </Space.Compact>
        </Form.Item>
        {isNewAddress && (
          <Form.Item
            label={t('notifications.code')}
            validateStatus={errors.code ? 'error' : undefined}
            help={errors.code ?? (codeSentTo ? t('notifications.codeSent', { email: codeSentTo }) : undefined)}
          >
            <Input
              id="notify-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              inputMode="numeric"
              maxLength={NOTIFY_LIMITS.codeLength}
              style={{ maxWidth: 200 }}
              autoComplete="one-time-code"
            />
          </Form.Item>
        )}
        <Form.Item label={t('notifications.levels')}>{levelBoxes(levels, setLevels, 'notify-levels')}</Form.Item>
        <Form.Item label={t('notifications.plantRules')} extra={t('notifications.plantRulesHint')}>
          <Space direction="vertical" style={{ width: '100%' }}>
            {rules.map((rule, index) => (
              <Space key={rule.plantId} wrap data-testid="notify-plant-rule">
                <Select
                  showSearch
                  optionFilterProp="label"
                  style={{ width: 240 }}
                  value={rule.plantId}
                  options={plantOptions}
                  onChange={(plantId: number) => setRules(rules.map((r, i) => (i === index ? { ...r, plantId } : r)))}
                />
                {levelBoxes(
                  rule.levels,
                  (next) => setRules(rules.map((r, i) => (i === index ? { ...r, levels: next } : r))),
                  'notify-rule-levels',
                )}
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('notifications.remove')}
                  onClick={() => setRules(rules.filter((_, i) => i !== index))}
                />
              </Space>
            ))}
            <Button icon={<PlusOutlined />} onClick={addRule} disabled={!plantOptions.some((p) => !p.disabled)}>
              {t('notifications.addPlant')}
            </Button>
          </Space>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="notify-save">
          {t('notifications.save')}
        </Button>
      </Form>
    </Card>
  );
}
