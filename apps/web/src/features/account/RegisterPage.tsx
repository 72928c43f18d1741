import { LockOutlined, MailOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { ACCOUNT_LIMITS } from '@sunward/contracts/account';
import { Code } from '@sunward/contracts/codes';
import { LIMITS } from '@sunward/contracts/limits';
import { translate } from '@sunward/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { accountKeys, checkAccount, fetchPasswordPolicy, fieldErrors, refusalCode, refusalText, requestCode, signup } from './api';
import { PublicFrame } from './PublicFrame';
import { accountRules, newPasswordError, passwordRuleText } from './password-rule';
import { signupTexts } from './signup-texts';
import { useResendCountdown } from './useResendCountdown';

registerTexts(signupTexts);

interface Fields {
  account: string;
  code: string;
  nickname?: string;
  password: string;
  confirm: string;
  agree: boolean;
}

/** Which field a refusal belongs to, so it shows beside it. */
function fieldOfRefusal(code: number | undefined): keyof Fields | undefined {
  if (code === Code.VERIFICATION_CODE_WRONG || code === Code.VERIFICATION_CODE_EXPIRED) return 'code';
  if (code === Code.ACCOUNT_REGISTERED || code === Code.ACCOUNT_FORMAT_INVALID || code === Code.RATE_LIMITED) return 'account';
  return undefined;
}

/**
 * /reg: registration with a verification code sent to the e-mail (or by SMS to a mainland mobile
 * number), the password rule of PASSWORD_POLICY, and the agreement ticked. Then on to sign-in.
 */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Fields>();
  const policy = useQuery({ queryKey: accountKeys.policy, queryFn: fetchPasswordPolicy, staleTime: Number.POSITIVE_INFINITY });
  const rule = policy.data?.rule ?? 'strict';
  const countdown = useResendCountdown();
  const [sentBy, setSentBy] = useState<'email' | 'sms'>();
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [refusal, setRefusal] = useState<string>();

  const showRefusal = (error: unknown) => {
    const perField = fieldErrors(error);
    const fields = Object.entries(perField).filter(([name]) => ['account', 'password', 'agree', 'code'].includes(name));
    if (fields.length > 0) {
      form.setFields(fields.map(([name, message]) => ({ name: name as keyof Fields, errors: [message] })));
      return;
    }
    const field = fieldOfRefusal(refusalCode(error));
    const text = refusalText(error);
    if (field && text) form.setFields([{ name: field, errors: [text] }]);
    else setRefusal(text);
  };

  const sendCode = async () => {
    setRefusal(undefined);
    try {
      const { account } = await form.validateFields(['account']);
      setSending(true);
      await checkAccount(account.trim(), 'register');
      const sent = await requestCode(account.trim(), 'register');
      setSentBy(sent.channel);
      countdown.start(sent.resendAfter);
    } catch (error) {
      if (error && typeof error === 'object' && 'errorFields' in error) return;
      showRefusal(error);
    } finally {
      setSending(false);
    }
  };

  const onFinish = async (values: Fields) => {
    setSubmitting(true);
    setRefusal(undefined);
    try {
      const done = await signup({
        account: values.account.trim(),
        code: values.code.trim(),
        password: values.password,
        nickname: values.nickname?.trim() || undefined,
        agree: values.agree,
      });
      await navigate('/login', { replace: true, state: { account: done.account, registered: true } });
    } catch (error) {
      showRefusal(error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <PublicFrame>
      <Typography.Title level={2}>{t('signup.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('signup.subtitle')}</Typography.Paragraph>
      {refusal && <Alert type="error" showIcon title={refusal} className="sw-gap-top" />}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        data-testid="register-form"
        initialValues={{ agree: false }}
      >
        <Form.Item name="account" label={t('signup.account')} rules={accountRules(t('signup.required'))}>
          <Input
            id="reg-account"
            prefix={<MailOutlined />}
            placeholder={t('signup.accountPlaceholder')}
            maxLength={LIMITS.accountMaxLength}
            autoComplete="username"
          />
        </Form.Item>
        <Form.Item
          label={t('signup.code')}
          required
          extra={sentBy ? t(sentBy === 'email' ? 'signup.codeSentEmail' : 'signup.codeSentSms') : undefined}
        >
          <div className="sw-code-row">
            <Form.Item name="code" noStyle rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: t('signup.codeRequired') }]}>
              <Input
                id="reg-code"
                prefix={<SafetyOutlined />}
                placeholder={t('signup.codePlaceholder')}
                maxLength={ACCOUNT_LIMITS.codeLength}
                inputMode="numeric"
                autoComplete="one-time-code"
              />
            </Form.Item>
            <Button onClick={sendCode} loading={sending} disabled={countdown.secondsLeft > 0} data-testid="reg-send-code">
              {countdown.secondsLeft > 0 ? t('signup.resendIn', { seconds: countdown.secondsLeft }) : t('signup.sendCode')}
            </Button>
          </div>
        </Form.Item>
        <Form.Item name="nickname" htmlFor="reg-nickname" label={t('signup.nickname')}>
          <Input id="reg-nickname" prefix={<UserOutlined />} maxLength={LIMITS.nicknameMaxLength} />
        </Form.Item>
        <Form.Item
          name="password"
          htmlFor="reg-password"
          label={t('signup.password')}
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
          <Input.Password id="reg-password" prefix={<LockOutlined />} maxLength={LIMITS.passwordMaxLength} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          htmlFor="reg-confirm"
          label={t('signup.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('signup.required') },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('signup.mismatch'))),
            }),
          ]}
        >
          <Input.Password id="reg-confirm" prefix={<LockOutlined />} maxLength={LIMITS.passwordMaxLength} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="agree"
          valuePropName="checked"
          rules={[
            {
              validator: (_, value: boolean) =>
                value ? Promise.resolve() : Promise.reject(new Error(translate(currentLanguage(), 'account.agreement'))),
            },
          ]}
        >
          <Checkbox id="reg-agree">
            {t('signup.agreePrefix')}{' '}
            <Link to="/register/userAgreement" target="_blank" rel="noopener">
              {t('signup.agreementLink')}
            </Link>
          </Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={submitting} data-testid="reg-submit">
          {t('signup.submit')}
        </Button>
      </Form>
      <div className="sw-gap-top">
        <Link to="/login">{t('signup.haveAccount')}</Link>
      </div>
    </PublicFrame>
  );
}
