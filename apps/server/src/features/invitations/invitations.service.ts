import { Code } from '@sunward/contracts/codes';
import {
  INVITATION_KINDS,
  INVITATION_LIMITS,
  type InvitationKind,
  type InvitationSentResult,
  type ReceivedInvitation,
  type SentInvitation,
} from '@sunward/contracts/invitations';
import { isLanguage } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { CustomerDetails, InvitationsRepository, InviteeRecord } from './invitations.repository.js';

/** The one message a new invitation leaves in the invitee's notification centre. */
export interface InvitationMessage {
  userId: number;
  title: string;
  content: string;
  invitation: { invitationId: number; kind: InvitationKind };
}

/**
 * Whether an account may answer an invitation of this kind at all: agents are other companies'
 * administrators (spec 02 §6), customers are accounts without a company. An account that may not is never
 * shown the invitation, and the inviter is never told (the invitation just expires).
 */
export function mayAnswer(kind: InvitationKind, account: Pick<InviteeRecord, 'companyId' | 'roleKey'>): boolean {
  switch (kind) {
    case 'agent':
      return account.roleKey === 'company_admin' && account.companyId !== null;
    case 'customer':
      return account.companyId === null && account.roleKey !== 'platform_admin';
  }
}

/**
 * Invitations (issue 15.4): agent appointments and customer links wait for the invited account. The
 * inviter's answer never depends on the account (unknown, unable to accept or real); the invitee alone
 * answers, and only while the invitation is open.
 */
export function createInvitationsService(deps: {
  repository: InvitationsRepository;
  notify: (message: InvitationMessage) => Promise<void>;
}) {
  const { repository, notify } = deps;

  /** The agent rules that only the invitee's own account decides (spec 02 §6), told to the invitee alone. */
  async function checkAgent(companyId: number, invitee: InviteeRecord): Promise<void> {
    if (invitee.companyId === companyId) throw new ApiError(Code.AGENT_INTERNAL_EMPLOYEE);
    if (invitee.roleKey === 'agent') throw new ApiError(Code.AGENT_ALREADY);
    if (!mayAnswer('agent', invitee)) throw new ApiError(Code.AGENT_NOT_MANAGER);
    const current = await repository.agentOf(invitee.id);
    if (current === companyId) throw new ApiError(Code.AGENT_EXISTS);
    if (current !== undefined) throw new ApiError(Code.AGENT_ALREADY);
  }

  async function checkCustomer(companyId: number, invitee: InviteeRecord): Promise<void> {
    if (invitee.companyId !== null) throw new ApiError(Code.ACCOUNT_HAS_COMPANY);
    if (!mayAnswer('customer', invitee)) throw new ApiError(Code.NO_PERMISSION);
    if (await repository.isCustomerOf(companyId, invitee.id)) throw new ApiError(Code.CUSTOMER_EXISTS);
  }

  async function invitee(auth: AuthContext): Promise<InviteeRecord> {
    const me = await repository.invitee(auth.account);
    if (!me || me.id !== auth.userId) throw new ApiError(Code.INVITATION_CLOSED);
    return me;
  }

  return {
    /**
     * Sends an invitation to the account (lower case). The answer is the same whatever the account is;
     * 210 only when this company's invitation of this kind to that name is still open (the inviter lists it).
     * A message reaches the account only when it exists and may answer.
     */
    async invite(input: {
      kind: InvitationKind;
      companyId: number;
      invitedBy: number;
      account: string;
      details: CustomerDetails | null;
    }): Promise<InvitationSentResult> {
      const account = input.account.toLowerCase();
      const created = await repository.create({ ...input, account, validDays: INVITATION_LIMITS.validDays });
      if (!created) throw new ApiError(Code.INVITATION_PENDING);
      const target = await repository.invitee(account);
      if (target && !target.disabled && mayAnswer(input.kind, target)) {
        const language = isLanguage(target.language) ? target.language : 'en';
        const company = (await repository.companyName(input.companyId)) ?? '';
        const days = INVITATION_LIMITS.validDays;
        const [title, content] =
          input.kind === 'agent'
            ? [translate(language, 'invitation.agentTitle'), translate(language, 'invitation.agentContent', { company, days })]
            : [
                translate(language, 'invitation.customerTitle'),
                translate(language, 'invitation.customerContent', { company, days, count: input.details?.plantIds.length ?? 0 }),
              ];
        await notify({ userId: target.id, title, content, invitation: { invitationId: created.id, kind: input.kind } });
      }
      return { invitationId: created.id, expiresAt: created.expiresAt };
    },

    sent: (companyId: number, kind: InvitationKind): Promise<SentInvitation[]> => repository.sent(companyId, kind),

    /** 211 when the company has no open invitation of that kind with that id (another company's id too). */
    async withdraw(companyId: number, kind: InvitationKind, id: number): Promise<void> {
      if (!(await repository.withdraw(companyId, kind, id))) throw new ApiError(Code.INVITATION_CLOSED);
    },

    /** The open invitations addressed to the caller that the caller's account may answer. */
    async received(auth: AuthContext): Promise<ReceivedInvitation[]> {
      const me = await repository.invitee(auth.account);
      if (!me) return [];
      return repository.received(
        me.account,
        INVITATION_KINDS.filter((kind) => mayAnswer(kind, me)),
      );
    },

    /**
     * The invitee accepts: the rules of the link are checked against their own account (902, 903, 106,
     * 204 tell them about themselves only), then the link is made. 211 for any id not open to them.
     */
    async accept(auth: AuthContext, id: number): Promise<void> {
      const me = await invitee(auth);
      const invitation = await repository.openFor(id, me.account);
      if (!invitation) throw new ApiError(Code.INVITATION_CLOSED);
      if (invitation.kind === 'agent') await checkAgent(invitation.companyId, me);
      else await checkCustomer(invitation.companyId, me);
      const result = await repository.accept(invitation, me.id);
      if (result === 'closed') throw new ApiError(Code.INVITATION_CLOSED);
      if (result === 'taken') throw new ApiError(invitation.kind === 'agent' ? Code.AGENT_ALREADY : Code.CUSTOMER_EXISTS);
    },

    async decline(auth: AuthContext, id: number): Promise<void> {
      const me = await invitee(auth);
      if (!(await repository.decline(id, me.account))) throw new ApiError(Code.INVITATION_CLOSED);
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
