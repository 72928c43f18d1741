import { LIMITS } from '@sunward/contracts/limits';
import { App, Form, Input, Modal, Typography } from 'antd';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalMessage } from '../lib/api-client';
import { registerTexts } from '../lib/feature-texts';
import { sharedTexts } from './shared-texts';

registerTexts(sharedTexts);

/** The password field of a prompt, labelled. */
function PromptField({ onChange }: { onChange(value: string): void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="sw-confirm-password">
      <label htmlFor={id}>{t('shared.yourPassword')}</label>
      <Input.Password
        id={id}
        autoFocus
        maxLength={LIMITS.passwordMaxLength}
        autoComplete="current-password"
        onChange={(e) => onChange(e.target.value)}
        data-testid="confirm-password"
      />
    </div>
  );
}

export interface ConfirmPasswordModalProps<V extends object> {
  open: boolean;
  /** What is confirmed ("Turn off two-factor sign-in"). */
  title: string;
  /**
   * Above the password: why it is asked, a warning, and any fields the action needs besides the password
   * (`Form.Item`s; their values reach `onConfirm`).
   */
  children?: ReactNode;
  okText?: string;
  /** A red OK button (transfers, deletions). */
  danger?: boolean;
  onCancel(): void;
  /**
   * Runs the action. A thrown refusal is shown in the server's words (or `describeError`'s) under the
   * field `fieldOf` names (the password by default) and the dialog stays open; closing is the caller's.
   */
  onConfirm(values: V & { password: string }): Promise<unknown>;
  describeError?: (error: unknown) => string | undefined;
  fieldOf?: (error: unknown) => keyof V | 'password' | undefined;
  /** data-testid of the dialog, its password field and its OK button. */
  testIds?: { modal?: string; password?: string; ok?: string };
}

/**
 * "Enter your password again" before a consequential action (two-factor off, new recovery codes, plant
 * and company transfers): one dialog with the password field (plus the action's own fields), its busy
 * state and the refusal under the field it concerns. For a prompt inside a mutation use `usePasswordPrompt`.
 */
export function ConfirmPasswordModal<V extends object = object>({
  open,
  title,
  children,
  okText,
  danger,
  onCancel,
  onConfirm,
  describeError = refusalMessage,
  fieldOf,
  testIds = {},
}: ConfirmPasswordModalProps<V>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<V & { password: string }>();
  const [busy, setBusy] = useState(false);
  const confirm = async (values: V & { password: string }) => {
    setBusy(true);
    try {
      await onConfirm(values);
    } catch (refusal) {
      const name = fieldOf?.(refusal) ?? 'password';
      form.setFields([{ name: name as never, errors: [describeError(refusal) ?? t('shared.requestFailed')] }]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={title}
      open={open}
      onCancel={onCancel}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okText={okText ?? t('shared.confirm')}
      okButtonProps={{ danger, id: 'confirm-command', ...(testIds.ok ? { 'data-testid': testIds.ok } : {}) }}
      cancelText={t('shared.cancel')}
      destroyOnHidden
      data-testid={testIds.modal}
    >
      <Form<V & { password: string }> form={form} layout="vertical" requiredMark={false} onFinish={(values) => void confirm(values)}>
        {children}
        <Form.Item name="password" label={t('shared.yourPassword')} rules={[{ required: true, message: t('shared.passwordRequired') }]}>
          <Input.Password
            autoFocus
            maxLength={LIMITS.passwordMaxLength}
            autoComplete="current-password"
            data-testid={testIds.password ?? 'confirm-password'}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Asks for the user's password again in a confirmation dialog and answers it, or undefined when the user
 * cancels (commands that change a device: shutdown, parameter and register writes, upgrades).
 */
export function usePasswordPrompt() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return (title: string, why?: string) =>
    new Promise<string | undefined>((resolve) => {
      let value = '';
      void modal.confirm({
        title,
        content: (
          <>
            {why && <Typography.Paragraph>{why}</Typography.Paragraph>}
            <PromptField onChange={(v) => (value = v)} />
          </>
        ),
        okText: t('shared.confirm'),
        cancelText: t('shared.cancel'),
        okButtonProps: { id: 'confirm-command' },
        onOk: () => resolve(value),
        onCancel: () => resolve(undefined),
      });
    });
}
