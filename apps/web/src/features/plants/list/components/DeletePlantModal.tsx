import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deletePlant, plantKeys } from '../api';

interface Props {
  plant: { id: number; name: string };
  onClose(): void;
  onDeleted(id: number): void;
}

/** Deleting loses every record of the plant, so the name must be typed to confirm. */
export function DeletePlantModal({ plant, onClose, onDeleted }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const confirmed = typed.trim() === plant.name.trim();

  const remove = useMutation({
    mutationFn: () => deletePlant(plant.id),
    onSuccess: async () => {
      void message.success(t('plants.deleteDone', { name: plant.name }));
      onDeleted(plant.id);
      onClose();
      await queryClient.invalidateQueries({ queryKey: plantKeys.all });
    },
  });

  return (
    <Modal
      open
      title={t('plants.deleteTitle', { name: plant.name })}
      okText={t('plants.deleteSubmit')}
      cancelText={t('plants.cancel')}
      okButtonProps={{ danger: true, disabled: !confirmed, loading: remove.isPending, 'data-testid': 'delete-submit' }}
      onOk={() => remove.mutate()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="delete-modal"
    >
      <Alert
        type="error"
        showIcon
        title={t('plants.deleteWarningTitle')}
        description={t('plants.deleteWarning')}
        className="sw-modal-alert"
      />
      <Form layout="vertical" onFinish={() => confirmed && remove.mutate()}>
        <Form.Item label={t('plants.deleteConfirmLabel', { name: plant.name })}>
          <Input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder={plant.name}
            autoComplete="off"
            data-testid="delete-confirm-name"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
