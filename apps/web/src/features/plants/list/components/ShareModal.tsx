import { Code } from '@sunward/contracts/codes';
import type { ShareRole, ShareUser } from '@sunward/contracts/plants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, List, Modal, Popconfirm, Radio, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cancelShare, fetchShareUsers, plantKeys, sharePlant } from '../api';
import { refusalCode, refusalText } from '../refusal';

interface Props {
  plant: { id: number; name: string };
  locale: string;
  onClose(): void;
}

interface Values {
  account: string;
  role: ShareRole;
}

// Refusals about the account typed go beside the field; the others (not the creator, a company plant) above.
const ACCOUNT_CODES: readonly number[] = [Code.SHARE_WITH_SELF, Code.SHARE_TO_COMPANY_USER, Code.ACCOUNT_NOT_REGISTERED, Code.VALIDATION];

/** Share a plant with a guest (view) or maintainer (operate) account, and withdraw shares. */
export function ShareModal({ plant, locale, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [refusal, setRefusal] = useState<string>();
  const users = useQuery({ queryKey: plantKeys.shareUsers(plant.id), queryFn: () => fetchShareUsers(plant.id) });

  const share = useMutation({
    mutationFn: (values: Values) => sharePlant(plant.id, values.account.trim(), values.role),
    onSuccess: async (_data, values) => {
      void message.success(t('plants.shareDone', { account: values.account.trim() }));
      form.resetFields(['account']);
      await queryClient.invalidateQueries({ queryKey: plantKeys.all });
    },
    onError: (error) => {
      const text = refusalText(error);
      if (!text) return;
      if (ACCOUNT_CODES.includes(refusalCode(error) ?? -1)) form.setFields([{ name: 'account', errors: [text] }]);
      else setRefusal(text);
    },
  });

  const cancel = useMutation({
    mutationFn: (user: ShareUser) => cancelShare(plant.id, user.userId),
    onSuccess: async (_data, user) => {
      void message.success(t('plants.shareCancelled', { account: user.account }));
      await queryClient.invalidateQueries({ queryKey: plantKeys.all });
    },
  });

  return (
    <Modal
      open
      title={t('plants.shareTitle', { name: plant.name })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={560}
      data-testid="share-modal"
    >
      {refusal && <Alert type="error" showIcon title={refusal} className="sw-modal-alert" />}
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ role: 'guest' }}
        onValuesChange={() => setRefusal(undefined)}
        onFinish={(values) => share.mutate(values)}
        requiredMark={false}
      >
        <Form.Item
          name="account"
          label={t('plants.shareAccount')}
          rules={[{ required: true, whitespace: true, message: t('plants.accountRequired') }]}
        >
          <Input placeholder={t('plants.shareAccountPlaceholder')} maxLength={64} autoComplete="off" data-testid="share-account" />
        </Form.Item>
        <Form.Item name="role" label={t('plants.shareRole')}>
          <Radio.Group
            options={[
              { value: 'guest', label: t('plants.roleGuest') },
              { value: 'maintainer', label: t('plants.roleMaintainer') },
            ]}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={share.isPending} data-testid="share-submit">
          {t('plants.share')}
        </Button>
      </Form>
      <Typography.Title level={5} className="sw-gap-top">
        {t('plants.shareUsers')}
      </Typography.Title>
      <List<ShareUser>
        size="small"
        bordered
        loading={users.isPending}
        dataSource={users.data ?? []}
        locale={{ emptyText: t('plants.shareNone') }}
        data-testid="share-users"
        renderItem={(user) => (
          <List.Item
            actions={[
              <Popconfirm
                key="cancel"
                title={t('plants.shareCancelConfirm', { account: user.account })}
                okText={t('plants.shareCancel')}
                cancelText={t('plants.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => cancel.mutateAsync(user)}
              >
                <Button size="small" danger data-testid="share-cancel">
                  {t('plants.shareCancel')}
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              title={
                <span>
                  {user.account} <Tag>{t(user.role === 'guest' ? 'plants.roleGuestShort' : 'plants.roleMaintainerShort')}</Tag>
                </span>
              }
              description={t('plants.sharedSince', { date: new Date(user.sharedAt).toLocaleDateString(locale) })}
            />
          </List.Item>
        )}
      />
    </Modal>
  );
}
