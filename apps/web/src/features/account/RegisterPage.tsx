import { UserOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { LIMITS } from '@sunward/contracts/limits';
import { translate } from '@sunward/contracts/messages';
import { Alert, Button, Checkbox, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { checkAccount, fieldErrors, refusalCode, refusalText, requestCode, signup } from './api';
import { PublicFrame } from './PublicFrame';
import { AccountField, CodeField, NewPasswordFields, showFieldErrors, useCodeSending } from './signup-fields';
import { signupTexts } from './signup-texts';

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
  const codeSending = useCodeSending();
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [refusal, setRefusal] = useState<string>();

  const showRefusal = (error: unknown) => {
    if (showFieldErrors<Fields>(form, fieldErrors(error), ['account', 'password', 'agree', 'code'])) return;
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
      codeSending.sent(sent);
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
      <Typography.Title level={1} style={{ fontSize: 30 }}>
        {t('signup.title')}
      </Typography.Title>
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
        <AccountField prefix="reg" />
        <CodeField prefix="reg" sending={codeSending} onSend={sendCode} busy={sending} sendTestId="reg-send-code" />
        <Form.Item name="nickname" htmlFor="reg-nickname" label={t('signup.nickname')}>
          <Input id="reg-nickname" prefix={<UserOutlined />} maxLength={LIMITS.nicknameMaxLength} />
        </Form.Item>
        <NewPasswordFields prefix="reg" label={t('signup.password')} />
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
