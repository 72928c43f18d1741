import type { SentInvitation } from '@sunward/contracts/invitations';
import { useMutation } from '@tanstack/react-query';
import { App, Button, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { registerTexts } from '../../lib/feature-texts';
import { invitationTexts } from './invitation-texts';
import { invitationDate } from './ReceivedInvitations';

registerTexts(invitationTexts);

/**
 * A company's open invitations (to become its agent or its customer): the account, when, until when, and
 * withdraw. Nothing when there are none.
 */
export function SentInvitations({
  rows,
  canEdit,
  withdraw,
  onChanged,
  testId,
}: {
  rows: readonly SentInvitation[];
  canEdit: boolean;
  withdraw: (id: number) => Promise<null>;
  onChanged: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const remove = useMutation({
    mutationFn: withdraw,
    onSuccess: () => void message.success(t('invitations.withdrawn')),
    // Answered or expired meanwhile (211): the list refreshes either way.
    onSettled: onChanged,
  });
  if (rows.length === 0) return null;
  return (
    <div data-testid={testId} style={{ marginBottom: 12 }}>
      <Typography.Text strong>{t('invitations.pending')}</Typography.Text>
      <List<SentInvitation>
        size="small"
        dataSource={[...rows]}
        renderItem={(r) => (
          <List.Item
            data-testid="sent-invitation"
            actions={
              canEdit
                ? [
                    <Button
                      key="withdraw"
                      size="small"
                      type="link"
                      danger
                      onClick={() =>
                        modal.confirm({
                          title: t('invitations.withdrawTitle', { account: r.account }),
                          okText: t('invitations.withdraw'),
                          cancelText: t('invitations.cancel'),
                          okButtonProps: { danger: true },
                          onOk: () => remove.mutateAsync(r.id).catch(() => undefined),
                        })
                      }
                    >
                      {t('invitations.withdraw')}
                    </Button>,
                  ]
                : []
            }
          >
            <Space wrap size={8}>
              <Typography.Text>{r.name ? `${r.name} (${r.account})` : r.account}</Typography.Text>
              <Tag>{t('invitations.invited', { date: invitationDate(r.createdAt) })}</Tag>
              <Typography.Text type="secondary">{t('invitations.expires', { date: invitationDate(r.expiresAt) })}</Typography.Text>
            </Space>
          </List.Item>
        )}
      />
    </div>
  );
}
