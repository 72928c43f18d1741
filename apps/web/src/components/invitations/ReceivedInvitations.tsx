import { MailOutlined } from '@ant-design/icons';
import type { InvitationKind, ReceivedInvitation } from '@sunward/contracts/invitations';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, List, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { acceptInvitation, declineInvitation, fetchReceivedInvitations, invitationKeys } from './api';
import { invitationTexts } from './invitation-texts';

registerTexts(invitationTexts);

/** The day an invitation was sent or expires, in the console's language. */
export function invitationDate(iso: string): string {
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[currentLanguage()], { dateStyle: 'medium' }).format(new Date(iso));
}

/**
 * The invitations addressed to the signed-in account (to become an agent or a customer), with accept and
 * decline; nothing at all when there are none. Shown at the top of the notification centre and, for agent
 * invitations, in the company's agents card.
 */
export function ReceivedInvitations({ kinds, id }: { kinds?: readonly InvitationKind[]; id?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  // A refusal (902, 903, 106, 211) stays beside the invitation it is about.
  const [refusal, setRefusal] = useState<{ id: number; text: string }>();
  const received = useQuery({ queryKey: invitationKeys.received, queryFn: fetchReceivedInvitations });
  const answer = useMutation({
    mutationFn: ({ invitation, accept }: { invitation: ReceivedInvitation; accept: boolean }) =>
      accept ? acceptInvitation(invitation.id) : declineInvitation(invitation.id),
    onSuccess: (_, { accept }) => {
      setRefusal(undefined);
      void message.success(t(accept ? 'invitations.accepted' : 'invitations.declined'));
      // An accepted invitation changes what the account sees (agents, principals, a company's plants).
      void queryClient.invalidateQueries();
    },
    onError: (error, { invitation }) =>
      setRefusal({ id: invitation.id, text: error instanceof ApiCallError && error.message ? error.message : t('invitations.failed') }),
  });
  const rows = (received.data ?? []).filter((r) => !kinds || kinds.includes(r.kind));
  if (rows.length === 0) return null;
  return (
    <Card
      id={id}
      size="small"
      title={
        <Space>
          <MailOutlined />
          {t('invitations.title')}
        </Space>
      }
      data-testid="received-invitations"
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('invitations.hint')}
      </Typography.Paragraph>
      <List<ReceivedInvitation>
        dataSource={rows}
        renderItem={(r) => (
          <List.Item
            data-testid="received-invitation"
            actions={[
              <Button
                key="accept"
                type="primary"
                size="small"
                loading={answer.isPending && answer.variables?.invitation.id === r.id && answer.variables.accept}
                onClick={() => answer.mutate({ invitation: r, accept: true })}
              >
                {t('invitations.accept')}
              </Button>,
              <Button
                key="decline"
                size="small"
                loading={answer.isPending && answer.variables?.invitation.id === r.id && !answer.variables.accept}
                onClick={() => answer.mutate({ invitation: r, accept: false })}
              >
                {t('invitations.decline')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={
                r.kind === 'agent'
                  ? t('invitations.agent', { company: r.companyName })
                  : t('invitations.customer', { company: r.companyName, count: r.plantCount })
              }
              description={
                <>
                  <Typography.Text type="secondary">{t('invitations.expires', { date: invitationDate(r.expiresAt) })}</Typography.Text>
                  {refusal?.id === r.id && (
                    <Typography.Paragraph type="danger" style={{ margin: 0 }} data-testid="invitation-refusal">
                      {refusal.text}
                    </Typography.Paragraph>
                  )}
                </>
              }
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
