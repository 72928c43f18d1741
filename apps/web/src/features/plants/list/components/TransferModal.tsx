import { Code } from '@sunward/contracts/codes';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ConfirmPasswordModal } from '../../../../components/ConfirmPassword';
import { plantKeys, transferPlant } from '../api';
import { refusalCode, refusalText } from '../refusal';

interface Props {
  plant: { id: number; name: string };
  onClose(): void;
}

interface Values {
  account: string;
  password: string;
}

const FIELD_OF_CODE: Partial<Record<number, keyof Values>> = {
  [Code.TRANSFER_TO_SELF]: 'account',
  [Code.ACCOUNT_NOT_REGISTERED]: 'account',
  [Code.OWNER_PASSWORD_WRONG]: 'password',
  [Code.TOO_MANY_ATTEMPTS]: 'password',
};

/** Hands the plant to another account; the owner's password confirms it. */
export function TransferModal({ plant, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return (
    <ConfirmPasswordModal<Omit<Values, 'password'>>
      open
      title={t('plants.transferTitle', { name: plant.name })}
      okText={t('plants.transferSubmit')}
      danger
      onCancel={onClose}
      onConfirm={async (values) => {
        await transferPlant(plant.id, values.account.trim(), values.password);
        void message.success(t('plants.transferDone', { name: plant.name, account: values.account.trim() }));
        onClose();
        await queryClient.invalidateQueries({ queryKey: plantKeys.all });
      }}
      describeError={refusalText}
      fieldOf={(error) => FIELD_OF_CODE[refusalCode(error) ?? -1]}
      testIds={{ modal: 'transfer-modal', password: 'transfer-password', ok: 'transfer-submit' }}
    >
      <Alert
        type="warning"
        showIcon
        title={t('plants.transferWarningTitle')}
        description={t('plants.transferWarning')}
        className="sw-modal-alert"
      />
      <Form.Item
        name="account"
        label={t('plants.transferAccount')}
        rules={[{ required: true, whitespace: true, message: t('plants.accountRequired') }]}
      >
        <Input maxLength={64} autoComplete="off" data-testid="transfer-account" />
      </Form.Item>
    </ConfirmPasswordModal>
  );
}
