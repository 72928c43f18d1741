import type { AccountInfo } from '@sunward/contracts/account';
import { Code } from '@sunward/contracts/codes';
import { LIMITS } from '@sunward/contracts/limits';
import { App, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changePassword, fieldErrors, refusalCode, refusalText } from './api';
import { NewPasswordFields } from './signup-fields';

interface Fields {
  oldPassword: string;
  password: string;
  confirm: string;
}

/** Password change: 108 beside the current password; every other session of the account is signed out. */
export function PasswordTab({ info }: { info: AccountInfo }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Fields>();
  const [saving, setSaving] = useState(false);
  const rule = info.passwordRule;

  const onFinish = async (values: Fields) => {
    setSaving(true);
    try {
      const done = await changePassword(info.id, { oldPassword: values.oldPassword, password: values.password });
      form.resetFields();
      void message.success(t('me.passwordChanged', { count: done.otherSessionsSignedOut }));
    } catch (error) {
      const perField = Object.entries(fieldErrors(error));
      if (perField.length > 0) form.setFields(perField.map(([name, text]) => ({ name: name as keyof Fields, errors: [text] })));
      else if (refusalCode(error) === Code.OLD_PASSWORD_WRONG)
        form.setFields([{ name: 'oldPassword', errors: [refusalText(error) ?? ''] }]);
      else void message.error(refusalText(error) ?? '');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={onFinish} className="sw-settings-form" data-testid="password-form">
      <Form.Item name="oldPassword" label={t('me.oldPassword')} rules={[{ required: true, message: t('me.required') }]}>
        <Input.Password id="me-old-password" maxLength={LIMITS.passwordMaxLength} autoComplete="current-password" />
      </Form.Item>
      <NewPasswordFields
        prefix="me"
        label={t('me.newPassword')}
        confirmLabel={t('me.confirmPassword')}
        rule={rule}
        ids={{ password: 'me-new-password', confirm: 'me-confirm-password' }}
        icons={false}
      />
      <Button type="primary" htmlType="submit" loading={saving} data-testid="password-save">
        {t('me.changePassword')}
      </Button>
    </Form>
  );
}
