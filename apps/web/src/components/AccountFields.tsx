import { isEmail, isPhone, isRegistrationPassword } from '@sunward/contracts/validators';
import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalMessage } from '../lib/api-client';
import { registerTexts } from '../lib/feature-texts';
import { sharedTexts } from './shared-texts';

registerTexts(sharedTexts);

/**
 * The account of a person added by someone else (a company member, a customer): an e-mail address or a
 * phone number, checked with the server as the user types (`check` throws its refusal); fixed when editing.
 */
export function AccountField({
  id,
  editing,
  check,
  extra,
}: {
  id: string;
  editing: boolean;
  check(account: string): Promise<unknown>;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="account"
      label={t('shared.account')}
      validateDebounce={400}
      extra={extra}
      rules={[
        { required: true, message: t('shared.required') },
        {
          validator: async (_, v?: string) => {
            if (editing || !v) return;
            if (!isEmail(v) && !isPhone(v)) throw new Error(t('shared.invalidAccount'));
            await check(v).catch((error: unknown) => {
              throw new Error(refusalMessage(error) ?? t('shared.requestFailed'));
            });
          },
        },
      ]}
    >
      <Input id={id} disabled={editing} autoComplete="off" />
    </Form.Item>
  );
}

/** The first password of an account someone else creates: the registration rule, required or not. */
export function NewPasswordField({ id, label, required }: { id: string; label: string; required: boolean }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="password"
      label={label}
      extra={t('shared.passwordRule')}
      rules={[
        ...(required ? [{ required: true, message: t('shared.required') }] : []),
        {
          validator: (_, v?: string) =>
            !v || isRegistrationPassword(v) ? Promise.resolve() : Promise.reject(new Error(t('shared.passwordRule'))),
        },
      ]}
    >
      <Input.Password id={id} autoComplete="new-password" />
    </Form.Item>
  );
}

const CONTACTS = [
  { name: 'email', label: 'shared.email', valid: isEmail, problem: 'shared.invalidEmail' },
  { name: 'phone', label: 'shared.phone', valid: isPhone, problem: 'shared.invalidPhone' },
] as const;

/** Optional e-mail and phone of a person, each checked as typed. */
export function ContactFields({ idPrefix }: { idPrefix: string }) {
  const { t } = useTranslation();
  return CONTACTS.map(({ name, label, valid, problem }) => (
    <Form.Item
      key={name}
      name={name}
      label={t(label)}
      rules={[{ validator: (_, v?: string) => (!v || valid(v) ? Promise.resolve() : Promise.reject(new Error(t(problem)))) }]}
    >
      <Input id={`${idPrefix}-${name}`} />
    </Form.Item>
  ));
}
