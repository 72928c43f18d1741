import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { LIMITS } from '@sunward/contracts/limits';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useSession } from '../../app/session';
import { LanguagePickerLite } from '../../components/LanguagePickerLite';
import { ApiCallError } from '../../lib/api-client';
import { passwordRule } from '../../lib/form-rules';

interface LoginValues {
  account: string;
  password: string;
}

export function LoginPage() {
  const { t } = useTranslation();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [form] = Form.useForm<LoginValues>();
  const [submitting, setSubmitting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const onFinish = async (values: LoginValues) => {
    setSubmitting(true);
    setRefusal(null);
    try {
      await signIn(values.account.trim(), values.password);
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from && from !== '/login' ? from : '/', { replace: true });
    } catch (error) {
      if (error instanceof ApiCallError && error.code === Code.WRONG_CREDENTIALS) {
        form.setFields([{ name: 'password', errors: [error.message] }]);
      } else if (error instanceof ApiCallError && error.message) {
        setRefusal(error.message);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <main className="sw-login">
      <section className="sw-login-hero" aria-hidden="true">
        <div className="sw-login-brand">
          <img src="/favicon.svg" alt="" width={40} height={40} />
          <span>{t('app.name')}</span>
        </div>
        <div className="sw-login-sun" />
        <h2>{t('login.heroTitle')}</h2>
        <ul>
          <li>{t('login.heroPoint1')}</li>
          <li>{t('login.heroPoint2')}</li>
          <li>{t('login.heroPoint3')}</li>
        </ul>
      </section>
      <section className="sw-login-panel">
        <div className="sw-login-lang">
          <LanguagePickerLite />
        </div>
        <div className="sw-login-card">
          <h1>{t('login.title')}</h1>
          <p className="sw-muted">{t('login.subtitle')}</p>
          {refusal && <Alert type="error" showIcon title={refusal} className="sw-login-alert" data-testid="login-refusal" />}
          <Form form={form} layout="vertical" requiredMark={false} onFinish={onFinish} size="large">
            <Form.Item
              name="account"
              label={t('login.account')}
              rules={[{ required: true, whitespace: true, message: t('login.accountRequired') }]}
            >
              <Input
                prefix={<UserOutlined />}
                placeholder={t('login.accountPlaceholder')}
                autoComplete="username"
                maxLength={LIMITS.accountMaxLength}
                autoFocus
              />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('login.password')}
              rules={[{ required: true, message: t('login.passwordRequired') }, passwordRule(t)]}
            >
              <Input.Password
                prefix={<LockOutlined />}
                placeholder={t('login.passwordPlaceholder')}
                autoComplete="current-password"
                maxLength={LIMITS.passwordMaxLength}
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
              {t('login.submit')}
            </Button>
          </Form>
          <div className="sw-login-links">
            <Link to="/forget">{t('login.forgot')}</Link>
            <Link to="/reg">{t('login.register')}</Link>
          </div>
          <div className="sw-login-third">
            <Link to="/loginThird">{t('login.third')}</Link>
          </div>
        </div>
      </section>
    </main>
  );
}
