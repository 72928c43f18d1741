import type { ThirdPartyPurpose, ThirdPartyTokenResponse } from '@sunward/contracts/third-party';
import { z } from 'zod';
import { authorizeThirdParty } from './api';

/**
 * What the browser keeps between leaving for the provider and coming back to /loginThird, in
 * sessionStorage (this tab only, gone when it closes): the flow's browser key, and afterwards a binding
 * ticket waiting for the user to sign in. The PKCE verifier and the nonce never reach the browser.
 */
const FLOW_PREFIX = 'thirdParty.flow.';
const TICKET_KEY = 'thirdParty.ticket';

type BindingRequired = Extract<ThirdPartyTokenResponse, { outcome: 'bindingRequired' }>;

const PendingTicketSchema = z.object({
  ticket: z.string(),
  expiresAt: z.number(),
  identity: z.object({
    provider: z.object({ id: z.string(), name: z.string() }),
    email: z.string().nullable(),
    name: z.string().nullable(),
  }),
});
export type PendingTicket = z.infer<typeof PendingTicketSchema>;

/** Starts a flow and leaves for the provider; the promise rejects (ApiCallError) when the flow cannot start. */
export async function leaveForProvider(provider: string, purpose: ThirdPartyPurpose): Promise<void> {
  const flow = await authorizeThirdParty(provider, purpose);
  sessionStorage.setItem(`${FLOW_PREFIX}${flow.state}`, flow.browserKey);
  window.location.assign(flow.authorizationUrl);
}

/** The browser key of the flow with this state, removed as it is read (a flow completes once). */
export function takeBrowserKey(state: string): string | undefined {
  const key = sessionStorage.getItem(`${FLOW_PREFIX}${state}`) ?? undefined;
  sessionStorage.removeItem(`${FLOW_PREFIX}${state}`);
  return key;
}

export function keepTicket(answer: BindingRequired, now = Date.now()): void {
  const pending: PendingTicket = { ticket: answer.ticket, expiresAt: now + answer.expiresIn * 1000, identity: answer.identity };
  sessionStorage.setItem(TICKET_KEY, JSON.stringify(pending));
}

export function pendingTicket(now = Date.now()): PendingTicket | undefined {
  const raw = sessionStorage.getItem(TICKET_KEY);
  if (!raw) return undefined;
  try {
    const parsed = PendingTicketSchema.safeParse(JSON.parse(raw));
    if (parsed.success && parsed.data.expiresAt > now) return parsed.data;
  } catch {
    // A damaged entry is as good as none.
  }
  sessionStorage.removeItem(TICKET_KEY);
  return undefined;
}

export function dropTicket(): void {
  sessionStorage.removeItem(TICKET_KEY);
}

/** How the identity is shown: its e-mail, else its name, else nothing more than the provider. */
export function identityLabel(identity: PendingTicket['identity']): string {
  return identity.email ?? identity.name ?? '';
}

/** The /authorizationFailed address for a refusal code or a reason the provider gave. */
export function failurePath(reason: { code: number } | { reason: 'denied' | 'incomplete' }): string {
  return 'code' in reason ? `/authorizationFailed?code=${reason.code}` : `/authorizationFailed?reason=${reason.reason}`;
}
