import { LockOutlined, MailOutlined, SafetyOutlined } from '@ant-design/icons';
import { ACCOUNT_LIMITS } from '@sunward/contracts/account';
import { Code } from '@sunward/contracts/codes';
import { LIMITS } from '@sunward/contracts/limits';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Space, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { registerTexts } from '../../lib/feature-texts';
import {
  accountKeys,
  checkAccount,
  checkCode,
  fetchPasswordPolicy,
  fieldErrors,
  refusalCode,
  refusalText,
  requestCode,
  resetPassword,
} from './api';
import { PublicFrame } from './PublicFrame';
import { accountRules, newPasswordError, passwordRuleText } from './password-rule';
import { signupTexts } from './signup-texts';
import { useResendCountdown } from './useResendCountdown';

registerTexts(signupTexts);

interface Fields {
  account: string;
  code: string;
  password: string;
  confirm: string;
}

const isCodeRefusal = (code: number | undefined) => code === Code.VERIFICATION_CODE_WRONG || code === Code.VERIFICATION_CODE_EXPIRED;

/**
 * /forget: password reset in three steps: the account (checked, spec 105), the code sent to it
 * (checked without being used up), the new password (PASSWORD_POLICY). Then /resetSuccessful.
 */
export function ForgetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Fields>();
  const policy = useQuery({ queryKey: accountKeys.policy, queryFn: fetchPasswordPolicy, staleTime: Number.POSITIVE_INFINITY });
  const rule = policy.data?.rule ?? 'strict';
  const countdown = useResendCountdown();
  const [step, setStep] = useState(0);
  const [sentBy, setSentBy] = useState<'email' | 'sms'>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();

  const account = () => String(form.getFieldValue('account') ?? '').trim();

  const fail = (error: unknown, field: keyof Fields) => {
    const text = refusalText(error);
    const perField = Object.entries(fieldErrors(error));
    if (perField.length > 0) form.setFields(perField.map(([name, message]) => ({ name: name as keyof Fields, errors: [message] })));
    else if (text) form.setFields([{ name: field, errors: [text] }]);
    else setRefusal(text);
  };

  const run = async (fields: (keyof Fields)[], action: () => Promise<void>, field: keyof Fields) => {
    setRefusal(undefined);
    try {
      await form.validateFields(fields);
    } catch {
      return;
    }
    setBusy(true);
    try {
      await action();
    } catch (error) {
      fail(error, field);
    } finally {
      setBusy(false);
    }
  };

  const sendCode = () =>
    run(
      ['account'],
      async () => {
        await checkAccount(account(), 'reset');
        const sent = await requestCode(account(), 'reset');
        setSentBy(sent.channel);
        countdown.start(sent.resendAfter);
        setStep(1);
      },
      'account',
    );

  const verify = () =>
    run(
      ['code'],
      async () => {
        await checkCode(account(), String(form.getFieldValue('code')).trim(), 'reset');
        setStep(2);
      },
      'code',
    );

  const save = () =>
    run(
      ['password', 'confirm'],
      async () => {
        try {
          await resetPassword({
            account: account(),
            code: String(form.getFieldValue('code')).trim(),
            password: form.getFieldValue('password'),
          });
          await navigate('/resetSuccessful', { replace: true, state: { account: account() } });
        } catch (error) {
          // A code that expired meanwhile: back to the code step, where a new one can be asked for.
          if (isCodeRefusal(refusalCode(error))) setStep(1);
          throw error;
        }
      },
      'password',
    );

  return (
    <PublicFrame>
      <Typography.Title level={2}>{t('forget.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('forget.subtitle')}</Typography.Paragraph>
      <Steps
        size="small"
        current={step}
        items={[{ title: t('forget.stepAccount') }, { title: t('forget.stepCode') }, { title: t('forget.stepPassword') }]}
        className="sw-gap-top"
      />
      {refusal && <Alert type="error" showIcon title={refusal} className="sw-gap-top" />}
      <Form form={form} layout="vertical" requiredMark={false} className="sw-gap-top" data-testid="forget-form" onFinish={save}>
        <Form.Item name="account" label={t('signup.account')} hidden={step !== 0} rules={accountRules(t('signup.required'))}>
          <Input
            id="forget-account"
            prefix={<MailOutlined />}
            placeholder={t('signup.accountPlaceholder')}
            maxLength={LIMITS.accountMaxLength}
            autoComplete="username"
            onPressEnter={(e) => {
              e.preventDefault();
              void sendCode();
            }}
          />
        </Form.Item>
        {step === 0 && (
          <Button type="primary" size="large" block loading={busy} onClick={sendCode} data-testid="forget-send-code">
            {t('forget.next')}
          </Button>
        )}

        <Form.Item
          label={t('signup.code')}
          hidden={step !== 1}
          extra={sentBy ? t(sentBy === 'email' ? 'signup.codeSentEmail' : 'signup.codeSentSms') : undefined}
        >
          <div className="sw-code-row">
            <Form.Item name="code" noStyle rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: t('signup.codeRequired') }]}>
              <Input
                id="forget-code"
                prefix={<SafetyOutlined />}
                placeholder={t('signup.codePlaceholder')}
                maxLength={ACCOUNT_LIMITS.codeLength}
                inputMode="numeric"
                autoComplete="one-time-code"
              />
            </Form.Item>
            <Button onClick={sendCode} disabled={countdown.secondsLeft > 0}>
              {countdown.secondsLeft > 0 ? t('signup.resendIn', { seconds: countdown.secondsLeft }) : t('signup.sendCode')}
            </Button>
          </div>
        </Form.Item>
        {step === 1 && (
          <Space.Compact block>
            <Button size="large" onClick={() => setStep(0)}>
              {t('forget.back')}
            </Button>
            <Button type="primary" size="large" block loading={busy} onClick={verify} data-testid="forget-verify">
              {t('forget.next')}
            </Button>
          </Space.Compact>
        )}

        <Form.Item
          name="password"
          htmlFor="forget-password"
          label={t('forget.newPassword')}
          hidden={step !== 2}
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
          <Input.Password id="forget-password" prefix={<LockOutlined />} maxLength={LIMITS.passwordMaxLength} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          htmlFor="forget-confirm"
          label={t('signup.confirm')}
          hidden={step !== 2}
          dependencies={['password']}
          rules={[
            { required: true, message: t('signup.required') },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('signup.mismatch'))),
            }),
          ]}
        >
          <Input.Password id="forget-confirm" prefix={<LockOutlined />} maxLength={LIMITS.passwordMaxLength} autoComplete="new-password" />
        </Form.Item>
        {step === 2 && (
          <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="forget-submit">
            {t('forget.submit')}
          </Button>
        )}
      </Form>
      <div className="sw-gap-top">
        <Link to="/login">{t('reset.signIn')}</Link>
      </div>
    </PublicFrame>
  );
}
