import { DeleteOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import type { AccountInfo, ProfileUpdate } from '@sunward/contracts/account';
import { ACCOUNT_LIMITS } from '@sunward/contracts/account';
import { LIMITS } from '@sunward/contracts/limits';
import { translate } from '@sunward/contracts/messages';
import { useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Form, Input, Space, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../lib/i18n';
import { accountKeys, fieldErrors, refusalCode, refusalText, sendBindCode, updateProfile, uploadAvatar } from './api';
import { useResendCountdown } from './useResendCountdown';

interface Fields {
  nickname: string;
  email: string;
  emailCode?: string;
  phone: string;
  phoneCode?: string;
}

/** A contact field whose new value is confirmed by a code sent to it. */
function ContactField({ kind, changed }: { kind: 'email' | 'phone'; changed: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const form = Form.useFormInstance<Fields>();
  const countdown = useResendCountdown();
  const [sending, setSending] = useState(false);

  const send = async () => {
    const value = String(form.getFieldValue(kind) ?? '').trim();
    if (value === '') return;
    setSending(true);
    try {
      const sent = await sendBindCode(value);
      countdown.start(sent.resendAfter);
      void message.success(t('me.codeSent'));
    } catch (error) {
      form.setFields([{ name: kind, errors: [refusalText(error) ?? ''] }]);
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Form.Item name={kind} label={t(kind === 'email' ? 'me.email' : 'me.phone')}>
        <Input id={`me-${kind}`} maxLength={kind === 'email' ? LIMITS.accountMaxLength : 16} placeholder={t('me.none')} />
      </Form.Item>
      {changed && (
        <Form.Item label={t('me.code')} required>
          <div className="sw-code-row">
            <Form.Item name={`${kind}Code`} noStyle>
              <Input id={`me-${kind}-code`} maxLength={ACCOUNT_LIMITS.codeLength} inputMode="numeric" autoComplete="one-time-code" />
            </Form.Item>
            <Button onClick={send} loading={sending} disabled={countdown.secondsLeft > 0} data-testid={`me-${kind}-send`}>
              {countdown.secondsLeft > 0 ? t('me.resendIn', { seconds: countdown.secondsLeft }) : t('me.sendCode')}
            </Button>
          </div>
        </Form.Item>
      )}
    </>
  );
}

/** Profile: avatar (JPG/PNG within 6 MB, checked again by content on the server), nickname, e-mail and phone. */
export function ProfileTab({ info }: { info: AccountInfo }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Fields>();
  const [saving, setSaving] = useState(false);
  const email = Form.useWatch('email', form);
  const phone = Form.useWatch('phone', form);
  const emailChanged = (email ?? '').trim() !== '' && (email ?? '').trim().toLowerCase() !== (info.email ?? '');
  const phoneChanged = (phone ?? '').trim() !== '' && (phone ?? '').trim() !== (info.phone ?? '');

  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: accountKeys.info }),
      queryClient.invalidateQueries({ queryKey: ['current-user'] }),
    ]);
  };

  const onAvatar = async (file: File) => {
    const extension = file.name.toLowerCase().split('.').pop() ?? '';
    if (!['jpg', 'jpeg', 'png'].includes(extension)) {
      void message.error(translate(currentLanguage(), 'validation.pictureType'));
      return;
    }
    if (file.size > ACCOUNT_LIMITS.avatarMaxBytes) {
      void message.error(translate(currentLanguage(), 'validation.pictureSize', { max: 6 }));
      return;
    }
    try {
      await uploadAvatar(file);
      await refresh();
      void message.success(t('me.saved'));
    } catch (error) {
      void message.error(refusalText(error) ?? t('me.avatarHint'));
    }
  };

  const removeAvatar = async () => {
    await updateProfile(info.id, { avatar: null });
    await refresh();
  };

  const onFinish = async (values: Fields) => {
    const body: ProfileUpdate = { nickname: values.nickname.trim() };
    const newEmail = values.email.trim();
    if (newEmail.toLowerCase() !== (info.email ?? ''))
      Object.assign(body, { email: newEmail, emailCode: values.emailCode?.trim() || undefined });
    const newPhone = values.phone.trim();
    if (newPhone !== (info.phone ?? '')) Object.assign(body, { phone: newPhone, phoneCode: values.phoneCode?.trim() || undefined });
    setSaving(true);
    try {
      await updateProfile(info.id, body);
      await refresh();
      form.setFieldsValue({ emailCode: undefined, phoneCode: undefined });
      void message.success(t('me.saved'));
    } catch (error) {
      const perField = Object.entries(fieldErrors(error));
      const code = refusalCode(error);
      if (perField.length > 0) form.setFields(perField.map(([name, text]) => ({ name: name as keyof Fields, errors: [text] })));
      else if (code === 5 || code === 6)
        form.setFields([{ name: emailChanged ? 'emailCode' : 'phoneCode', errors: [refusalText(error) ?? ''] }]);
      else void message.error(refusalText(error) ?? '');
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="sw-settings-form">
      <Space align="center" size="large" className="sw-gap-bottom">
        <Avatar size={72} src={info.avatar ?? undefined} icon={<UserOutlined />} data-testid="me-avatar" />
        <Space direction="vertical" size={4}>
          <Space>
            <Upload
              accept=".jpg,.jpeg,.png,image/jpeg,image/png"
              showUploadList={false}
              beforeUpload={(file) => {
                void onAvatar(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />}>{t('me.avatarUpload')}</Button>
            </Upload>
            {info.avatar && (
              <Button icon={<DeleteOutlined />} onClick={() => void removeAvatar()}>
                {t('me.avatarRemove')}
              </Button>
            )}
          </Space>
          <span className="sw-muted">{t('me.avatarHint')}</span>
        </Space>
      </Space>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        initialValues={{ nickname: info.nickname, email: info.email ?? '', phone: info.phone ?? '' }}
        data-testid="profile-form"
        className="sw-gap-top"
      >
        <Form.Item
          name="nickname"
          htmlFor="me-nickname"
          label={t('me.nickname')}
          rules={[{ required: true, whitespace: true, message: t('me.required') }]}
        >
          <Input id="me-nickname" maxLength={LIMITS.nicknameMaxLength} />
        </Form.Item>
        <ContactField kind="email" changed={emailChanged} />
        <ContactField kind="phone" changed={phoneChanged} />
        <p className="sw-muted">{t('me.contactHint')}</p>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
          {t('me.save')}
        </Button>
      </Form>
    </div>
  );
}
