import { z } from 'zod';

/*
 * Invitations (issue 15.4): an agent appointment or a customer link is an invitation the invited account
 * accepts or declines; nothing is linked or disclosed before it accepts. The inviter gets the same answer
 * whether the account exists, can accept or not (docs/decisions.md "Invitations").
 */

export const INVITATION_KINDS = ['agent', 'customer'] as const;
export type InvitationKind = (typeof INVITATION_KINDS)[number];

export const INVITATION_LIMITS = {
  /** An invitation not answered within this many days expires. */
  validDays: 7,
} as const;

/** What the inviter sees of an invitation it sent and that is still open (not answered, not expired). */
export const SentInvitationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(INVITATION_KINDS),
  /** The account as the inviter typed it (lower case). */
  account: z.string(),
  /** The customer's name the inviter gave (customer invitations), else null. */
  name: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type SentInvitation = z.infer<typeof SentInvitationSchema>;

/** What the invited account sees: who invites it to what, and until when. */
export const ReceivedInvitationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(INVITATION_KINDS),
  companyName: z.string(),
  /** Plants the company would show to the customer (customer invitations), else 0. */
  plantCount: z.number().int(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type ReceivedInvitation = z.infer<typeof ReceivedInvitationSchema>;

/** The answer to every invitation sent: the same whatever the account is. */
export const InvitationSentResultSchema = z.object({ invitationId: z.number().int(), expiresAt: z.string() });
export type InvitationSentResult = z.infer<typeof InvitationSentResultSchema>;

/** A message in the notification centre about an invitation: which one, so the centre can link to it. */
export const InvitationMessageDataSchema = z.object({ invitationId: z.number().int(), kind: z.enum(INVITATION_KINDS) });
export type InvitationMessageData = z.infer<typeof InvitationMessageDataSchema>;
