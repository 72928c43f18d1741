import { Code } from '@sunward/contracts/codes';
import { Alert, Button, Form, Space, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { registerTexts } from '../../lib/feature-texts';
import { checkAccount, checkCode, fieldErrors, refusalCode, refusalText, requestCode, resetPassword } from './api';
import { PublicFrame } from './PublicFrame';
import { AccountField, CodeField, NewPasswordFields, showFieldErrors, useCodeSending } from './signup-fields';
import { signupTexts } from './signup-texts';

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
  const codeSending = useCodeSending();
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();

  const account = () => String(form.getFieldValue('account') ?? '').trim();

  const fail = (error: unknown, field: keyof Fields) => {
    const text = refusalText(error);
    if (showFieldErrors<Fields>(form, fieldErrors(error))) return;
    if (text) form.setFields([{ name: field, errors: [text] }]);
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
        codeSending.sent(sent);
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
      <Typography.Title level={1} style={{ fontSize: 30 }}>
        {t('forget.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('forget.subtitle')}</Typography.Paragraph>
      <Steps
        size="small"
        current={step}
        items={[{ title: t('forget.stepAccount') }, { title: t('forget.stepCode') }, { title: t('forget.stepPassword') }]}
        className="sw-gap-top"
      />
      {refusal && <Alert type="error" showIcon title={refusal} className="sw-gap-top" />}
      <Form form={form} layout="vertical" requiredMark={false} className="sw-gap-top" data-testid="forget-form" onFinish={save}>
        <AccountField prefix="forget" hidden={step !== 0} onEnter={() => void sendCode()} />
        {step === 0 && (
          <Button type="primary" size="large" block loading={busy} onClick={sendCode} data-testid="forget-send-code">
            {t('forget.next')}
          </Button>
        )}

        <CodeField prefix="forget" sending={codeSending} hidden={step !== 1} onSend={() => void sendCode()} />
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

        <NewPasswordFields prefix="forget" label={t('forget.newPassword')} hidden={step !== 2} />
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
