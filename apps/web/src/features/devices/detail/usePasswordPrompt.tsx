import { App, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Asks for the user's password again (spec: shutdown, parameter and register writes). */
export function usePasswordPrompt() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return (title: string) =>
    new Promise<string | undefined>((resolve) => {
      let value = '';
      void modal.confirm({
        title,
        content: (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Typography.Text>{t('devices.confirmPassword')}</Typography.Text>
            <Input.Password autoFocus onChange={(e) => (value = e.target.value)} data-testid="confirm-password" />
          </Space>
        ),
        okButtonProps: { id: 'confirm-command' },
        onOk: () => resolve(value),
        onCancel: () => resolve(undefined),
      });
    });
}
