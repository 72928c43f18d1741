import { Code } from '@sunward/contracts/codes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const [form] = Form.useForm<Values>();
  const [refusal, setRefusal] = useState<string>();

  const transfer = useMutation({
    mutationFn: (values: Values) => transferPlant(plant.id, values.account.trim(), values.password),
    onSuccess: async (_data, values) => {
      void message.success(t('plants.transferDone', { name: plant.name, account: values.account.trim() }));
      onClose();
      await queryClient.invalidateQueries({ queryKey: plantKeys.all });
    },
    onError: (error) => {
      const text = refusalText(error);
      if (!text) return;
      const field = FIELD_OF_CODE[refusalCode(error) ?? -1];
      if (field) form.setFields([{ name: field, errors: [text] }]);
      else setRefusal(text);
    },
  });

  return (
    <Modal
      open
      title={t('plants.transferTitle', { name: plant.name })}
      okText={t('plants.transferSubmit')}
      cancelText={t('plants.cancel')}
      okButtonProps={{ danger: true, loading: transfer.isPending, 'data-testid': 'transfer-submit' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="transfer-modal"
    >
      <Alert
        type="warning"
        showIcon
        title={t('plants.transferWarningTitle')}
        description={t('plants.transferWarning')}
        className="sw-modal-alert"
      />
      {refusal && <Alert type="error" showIcon title={refusal} className="sw-modal-alert" />}
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onValuesChange={() => setRefusal(undefined)}
        onFinish={(values) => transfer.mutate(values)}
      >
        <Form.Item
          name="account"
          label={t('plants.transferAccount')}
          rules={[{ required: true, whitespace: true, message: t('plants.accountRequired') }]}
        >
          <Input maxLength={64} autoComplete="off" data-testid="transfer-account" />
        </Form.Item>
        <Form.Item name="password" label={t('plants.transferPassword')} rules={[{ required: true, message: t('plants.passwordRequired') }]}>
          <Input.Password maxLength={128} autoComplete="current-password" data-testid="transfer-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
