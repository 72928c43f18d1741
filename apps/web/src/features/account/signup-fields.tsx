import { LockOutlined, MailOutlined, SafetyOutlined } from '@ant-design/icons';
import { ACCOUNT_LIMITS } from '@sunward/contracts/account';
import { LIMITS } from '@sunward/contracts/limits';
import type { RegistrationPasswordRule } from '@sunward/contracts/validators';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { registerTexts } from '../../lib/feature-texts';
import { accountKeys, fetchPasswordPolicy } from './api';
import { accountRules, newPasswordError, passwordRuleText } from './password-rule';
import { signupTexts } from './signup-texts';
import { useResendCountdown } from './useResendCountdown';

registerTexts(signupTexts);

/**
 * The fields sign-up (/reg) and password reset (/forget) share, so the two forms cannot drift: the
 * account, the verification code with its send / resend button, the new password under the server's
 * PASSWORD_POLICY and its confirmation. Ids are `${prefix}-account`, `-code`, `-password`, `-confirm`.
 */

/** The code sent to an account: by which channel, and the resend countdown. */
export function useCodeSending() {
  const countdown = useResendCountdown();
  const [sentBy, setSentBy] = useState<'email' | 'sms'>();
  return {
    countdown,
    sentBy,
    sent: (answer: { channel: 'email' | 'sms'; resendAfter: number }) => {
      setSentBy(answer.channel);
      countdown.start(answer.resendAfter);
    },
  };
}

export function AccountField({ prefix, hidden, onEnter }: { prefix: string; hidden?: boolean; onEnter?: () => void }) {
  const { t } = useTranslation();
  return (
    <Form.Item name="account" label={t('signup.account')} hidden={hidden} rules={accountRules(t('signup.required'))}>
      <Input
        id={`${prefix}-account`}
        prefix={<MailOutlined />}
        placeholder={t('signup.accountPlaceholder')}
        maxLength={LIMITS.accountMaxLength}
        autoComplete="username"
        onPressEnter={
          onEnter &&
          ((e) => {
            e.preventDefault();
            onEnter();
          })
        }
      />
    </Form.Item>
  );
}

export function CodeField({
  prefix,
  sending,
  hidden,
  onSend,
  sendTestId,
  busy,
}: {
  prefix: string;
  sending: ReturnType<typeof useCodeSending>;
  hidden?: boolean;
  /** The code is being asked for. */
  busy?: boolean;
  onSend(): void;
  sendTestId?: string;
}) {
  const { t } = useTranslation();
  const { countdown, sentBy } = sending;
  return (
    <Form.Item
      label={t('signup.code')}
      required
      hidden={hidden}
      extra={sentBy ? t(sentBy === 'email' ? 'signup.codeSentEmail' : 'signup.codeSentSms') : undefined}
    >
      <div className="sw-code-row">
        <Form.Item name="code" noStyle rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: t('signup.codeRequired') }]}>
          <Input
            id={`${prefix}-code`}
            aria-label={t('signup.code')}
            prefix={<SafetyOutlined />}
            placeholder={t('signup.codePlaceholder')}
            maxLength={ACCOUNT_LIMITS.codeLength}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
        </Form.Item>
        <Button onClick={onSend} loading={busy} disabled={countdown.secondsLeft > 0} data-testid={sendTestId}>
          {countdown.secondsLeft > 0 ? t('signup.resendIn', { seconds: countdown.secondsLeft }) : t('signup.sendCode')}
        </Button>
      </div>
    </Form.Item>
  );
}

/**
 * The new password (the server's rule, told under the field) and its confirmation, on sign-up, reset and
 * the password tab of personal settings (which knows the account's rule and names its own ids).
 */
export function NewPasswordFields({
  prefix,
  label,
  hidden,
  rule: knownRule,
  ids = { password: `${prefix}-password`, confirm: `${prefix}-confirm` },
  confirmLabel,
  icons = true,
}: {
  prefix: string;
  label: string;
  hidden?: boolean;
  rule?: RegistrationPasswordRule;
  ids?: { password: string; confirm: string };
  confirmLabel?: string;
  icons?: boolean;
}) {
  const { t } = useTranslation();
  const policy = useQuery({
    queryKey: accountKeys.policy,
    queryFn: fetchPasswordPolicy,
    staleTime: Number.POSITIVE_INFINITY,
    enabled: knownRule === undefined,
  });
  const rule = knownRule ?? policy.data?.rule ?? 'strict';
  const lock = icons ? <LockOutlined /> : undefined;
  return (
    <>
      <Form.Item
        name="password"
        htmlFor={ids.password}
        label={label}
        hidden={hidden}
        extra={passwordRuleText(rule)}
        rules={[
          {
            validator: (_, value: string | undefined) => {
              const problem = newPasswordError(value ?? '', rule);
              return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
            },
          },
        ]}
      >
        <Input.Password id={ids.password} prefix={lock} maxLength={LIMITS.passwordMaxLength} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        htmlFor={ids.confirm}
        label={confirmLabel ?? t('signup.confirm')}
        hidden={hidden}
        dependencies={['password']}
        rules={[
          { required: true, message: t('signup.required') },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('signup.mismatch'))),
          }),
        ]}
      >
        <Input.Password id={ids.confirm} prefix={lock} maxLength={LIMITS.passwordMaxLength} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

/** Puts a refusal's field problems beside their fields; answers false when it names none. */
export function showFieldErrors<F>(
  form: { setFields(fields: { name: keyof F; errors: string[] }[]): void },
  errors: Record<string, string>,
  known?: readonly string[],
): boolean {
  const fields = Object.entries(errors).filter(([name]) => !known || known.includes(name));
  if (fields.length > 0) form.setFields(fields.map(([name, message]) => ({ name: name as keyof F, errors: [message] })));
  return fields.length > 0;
}
