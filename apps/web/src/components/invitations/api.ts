import { Code } from '@sunward/contracts/codes';
import { InvitationSentResultSchema, ReceivedInvitationSchema, SentInvitationSchema } from '@sunward/contracts/invitations';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client';

/** Query keys: the invitations addressed to the caller, and those a company sent (per kind). */
export const invitationKeys = {
  received: ['invitations', 'received'] as const,
  customerSent: ['invitations', 'sent', 'customer'] as const,
};

/** Refusals the invitation screens show beside the invitation or the field, not as a toast. */
const HANDLED = [
  Code.VALIDATION,
  Code.AGENT_SELF,
  Code.INVITATION_CLOSED,
  Code.INVITATION_PENDING,
  Code.AGENT_NOT_MANAGER,
  Code.AGENT_ALREADY,
  Code.AGENT_EXISTS,
  Code.AGENT_INTERNAL_EMPLOYEE,
  Code.ACCOUNT_HAS_COMPANY,
  Code.CUSTOMER_EXISTS,
  Code.NO_PERMISSION,
];
const done = { method: 'POST' as const, schema: z.null(), tolerate: HANDLED };

export const fetchReceivedInvitations = () => apiRequest('/api/v1/invitations', { schema: z.array(ReceivedInvitationSchema) });
export const acceptInvitation = (id: number) => apiRequest(`/api/v1/invitations/${id}/accept`, done);
export const declineInvitation = (id: number) => apiRequest(`/api/v1/invitations/${id}/decline`, done);

export const inviteAgent = (account: string) =>
  apiRequest('/api/v1/company/agent', { method: 'POST', json: { account }, schema: InvitationSentResultSchema, tolerate: HANDLED });
export const withdrawAgentInvitation = (id: number) => apiRequest(`/api/v1/company/agent/invitation/${id}/withdraw`, done);

export const fetchCustomerInvitations = () => apiRequest('/api/v1/customer/invitations', { schema: z.array(SentInvitationSchema) });
export const withdrawCustomerInvitation = (id: number) => apiRequest(`/api/v1/customer/invitation/${id}/withdraw`, done);
