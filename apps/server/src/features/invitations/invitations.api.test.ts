import { Code } from '@sunward/contracts/codes';
import type { AgentsSchema } from '@sunward/contracts/company';
import type { CustomerAddResult, CustomerRow } from '@sunward/contracts/customers';
import type { ReceivedInvitation, SentInvitation } from '@sunward/contracts/invitations';
import type { MessagePage } from '@sunward/contracts/notifications';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createPlant } from '../../test/api.js';
import { type CallResult, call, signIn } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/*
 * Issue 15.4: an agent appointment or a customer link of an existing account is an invitation the account
 * accepts; nothing is linked or disclosed before, and the inviter's answer never tells what the account is.
 * On the code before, appointing listed the other company's administrator at once, answered 105/902/903
 * by account, and POST customer linked another company's customer without asking.
 */

let server: TestServer;
type Method = 'GET' | 'POST' | 'DELETE';
type Agents = z.infer<typeof AgentsSchema>;
interface Member {
  id: number;
  account: string;
  password: string;
  token: string;
}

async function as<T = unknown>(token: string, method: Method, url: string, json?: unknown): Promise<CallResult<T>['body']> {
  return (await call<T>(server.app, method, url, { token, json })).body;
}

async function member(role: Parameters<TestServer['createUser']>[0], company?: number): Promise<Member> {
  const user = await server.createUser(role, undefined, company === undefined ? {} : { companyId: company });
  return { ...user, token: (await signIn(server.app, user.account, user.password)).access_token };
}

async function company(name: string): Promise<{ id: number; admin: Member }> {
  const id = await server.createCompany(name);
  return { id, admin: await member('company_admin', id) };
}

/** A plant of the caller's (through the wizard's call), by name. */
const plantOf = async (token: string, name: string) => (await createPlant(server, token, { name })).id;

const invite = (token: string, account: string) =>
  as<{ invitationId: number; expiresAt: string }>(token, 'POST', '/api/v1/company/agent', { account });
const agents = async (token: string) => (await as<Agents>(token, 'GET', '/api/v1/company/agents')).data;
const received = async (token: string) => (await as<ReceivedInvitation[]>(token, 'GET', '/api/v1/invitations')).data;
const answer = (token: string, id: number, how: 'accept' | 'decline') => as(token, 'POST', `/api/v1/invitations/${id}/${how}`);
const plantIds = async (token: string) =>
  (await as<{ records: { id: number }[] }>(token, 'GET', '/api/v1/plants')).data.records.map((p) => p.id).sort((a, b) => a - b);

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('agent invitations', () => {
  it('lists and discloses nothing until the invited administrator accepts; then both sides see the appointment', async () => {
    const alpha = await company('Alpha Installers');
    const beta = await company('Beta Service');
    const gamma = await company('Gamma Energy');

    const sent = await invite(alpha.admin.token, beta.admin.account.toUpperCase());
    expect(sent.code).toBe(0);
    expect(sent.data.invitationId).toEqual(expect.any(Number));
    const invitationId = sent.data.invitationId;

    // Nothing is linked yet: no agent (nickname, company name) for Alpha, no principal for Beta.
    const before = await agents(alpha.admin.token);
    expect(before.agents).toEqual([]);
    expect(before.invitations).toEqual([expect.objectContaining({ id: invitationId, kind: 'agent', account: beta.admin.account })]);
    expect((await agents(beta.admin.token)).principals).toEqual([]);
    expect(JSON.stringify(before)).not.toContain('Beta Service');

    // Beta sees the invitation and a message in its notification centre that points to it.
    expect(await received(beta.admin.token)).toEqual([
      expect.objectContaining({ id: invitationId, kind: 'agent', companyName: 'Alpha Installers' }),
    ]);
    const messages = await as<MessagePage>(beta.admin.token, 'GET', '/api/v1/messages');
    expect(messages.data.infos).toEqual([
      expect.objectContaining({ invitation: { invitationId, kind: 'agent' }, content: expect.stringContaining('Alpha Installers') }),
    ]);
    expect(messages.data.unread).toBe(1);

    // Only the invitee answers: the inviter and a third company get the answer an unknown id gets.
    expect((await answer(alpha.admin.token, invitationId, 'accept')).code).toBe(Code.INVITATION_CLOSED);
    expect((await answer(gamma.admin.token, invitationId, 'accept')).code).toBe(Code.INVITATION_CLOSED);
    expect((await answer(gamma.admin.token, invitationId, 'decline')).code).toBe(Code.INVITATION_CLOSED);
    expect((await answer(beta.admin.token, 999_999, 'accept')).code).toBe(Code.INVITATION_CLOSED);
    expect(await received(gamma.admin.token)).toEqual([]);
    // Another company cannot withdraw it either.
    expect((await as(gamma.admin.token, 'POST', `/api/v1/company/agent/invitation/${invitationId}/withdraw`)).code).toBe(
      Code.INVITATION_CLOSED,
    );

    expect((await answer(beta.admin.token, invitationId, 'accept')).code).toBe(0);
    const after = await agents(alpha.admin.token);
    expect(after.agents).toEqual([expect.objectContaining({ account: beta.admin.account, companyName: 'Beta Service' })]);
    expect(after.invitations).toEqual([]);
    expect((await agents(beta.admin.token)).principals.map((p) => p.companyName)).toEqual(['Alpha Installers']);
    expect((await answer(beta.admin.token, invitationId, 'accept')).code).toBe(Code.INVITATION_CLOSED);
    expect(await received(beta.admin.token)).toEqual([]);
    // Inviting an agent the company has already: 202 (the company lists it).
    expect((await invite(alpha.admin.token, beta.admin.account)).code).toBe(Code.AGENT_EXISTS);
  });

  it('answers the same for an unknown account, a member of another company, a third-party agent and an administrator', async () => {
    const alpha = await company('Alpha Same Answer');
    const other = await company('Other Same Answer');
    const staff = await member('company_staff', other.id);
    const thirdParty = await member('agent');
    const owner = await member('owner');
    const targets = ['nobody@nowhere.test', staff.account, thirdParty.account, owner.account, other.admin.account];
    const answers = [];
    for (const account of targets) {
      const result = await invite(alpha.admin.token, account);
      answers.push({ ...result, data: { ...result.data, invitationId: 0, expiresAt: result.data.expiresAt.slice(0, 10) } });
    }
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]?.code).toBe(0);
    // The pending list does not tell them apart either.
    expect((await agents(alpha.admin.token)).invitations.map((i) => i.account)).toEqual(targets);
    // Asked again, every one answers 210 alike.
    for (const account of targets) expect((await invite(alpha.admin.token, account)).code).toBe(Code.INVITATION_PENDING);

    // Refused only for what the company knows: itself, its own members.
    const ownStaff = await member('company_staff', alpha.id);
    expect((await invite(alpha.admin.token, alpha.admin.account)).code).toBe(Code.AGENT_SELF);
    expect((await invite(alpha.admin.token, ownStaff.account)).code).toBe(Code.AGENT_INTERNAL_EMPLOYEE);

    // Accounts that may not be agents never see the invitation; if they try its id, they learn about themselves only.
    expect(await received(staff.token)).toEqual([]);
    expect(await received(owner.token)).toEqual([]);
    const staffInvitation = (await agents(alpha.admin.token)).invitations.find((i) => i.account === staff.account);
    if (!staffInvitation) throw new Error('invitation to the member not listed');
    expect((await answer(staff.token, staffInvitation.id, 'accept')).code).toBe(Code.AGENT_NOT_MANAGER);
    const agentInvitation = (await agents(alpha.admin.token)).invitations.find((i) => i.account === thirdParty.account);
    if (!agentInvitation) throw new Error('invitation to the third-party agent not listed');
    expect((await answer(thirdParty.token, agentInvitation.id, 'accept')).code).toBe(Code.AGENT_ALREADY);
    expect((await agents(alpha.admin.token)).agents).toEqual([]);
    // No message for an account that cannot accept.
    expect((await as<MessagePage>(staff.token, 'GET', '/api/v1/messages')).data.total).toBe(0);
  });

  it('links nothing after a decline, a withdrawal or the expiry; a decline looks to the inviter like no answer', async () => {
    const alpha = await company('Alpha Decline');
    const beta = await company('Beta Decline');
    const noAgent = async () => {
      expect((await agents(alpha.admin.token)).agents).toEqual([]);
      expect((await agents(beta.admin.token)).principals).toEqual([]);
    };

    const first = (await invite(alpha.admin.token, beta.admin.account)).data.invitationId;
    const unknown = (await invite(alpha.admin.token, 'nobody-decline@nowhere.test')).data.invitationId;
    expect((await answer(beta.admin.token, first, 'decline')).code).toBe(0);
    expect((await answer(beta.admin.token, first, 'accept')).code).toBe(Code.INVITATION_CLOSED);
    expect(await received(beta.admin.token)).toEqual([]);
    await noAgent();
    // The inviter cannot tell the declined invitation from the unanswered one: both open, both 210 again.
    expect((await agents(alpha.admin.token)).invitations.map((i) => i.id)).toEqual([first, unknown]);
    expect((await invite(alpha.admin.token, beta.admin.account)).code).toBe(Code.INVITATION_PENDING);
    expect((await invite(alpha.admin.token, 'nobody-decline@nowhere.test')).code).toBe(Code.INVITATION_PENDING);
    for (const id of [first, unknown])
      expect((await as(alpha.admin.token, 'POST', `/api/v1/company/agent/invitation/${id}/withdraw`)).code).toBe(0);

    const second = (await invite(alpha.admin.token, beta.admin.account)).data.invitationId;
    expect((await as(alpha.admin.token, 'POST', `/api/v1/company/agent/invitation/${second}/withdraw`)).code).toBe(0);
    expect((await as(alpha.admin.token, 'POST', `/api/v1/company/agent/invitation/${second}/withdraw`)).code).toBe(Code.INVITATION_CLOSED);
    expect(await received(beta.admin.token)).toEqual([]);
    expect((await answer(beta.admin.token, second, 'accept')).code).toBe(Code.INVITATION_CLOSED);
    await noAgent();

    const third = await invite(alpha.admin.token, beta.admin.account);
    const days = (Date.parse(third.data.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    // Seven days pass.
    await server.database.db.execute(
      sql`update invitations set expires_at = now() - interval '1 minute' where id = ${third.data.invitationId}`,
    );
    expect(await received(beta.admin.token)).toEqual([]);
    expect((await agents(alpha.admin.token)).invitations).toEqual([]);
    expect((await answer(beta.admin.token, third.data.invitationId, 'accept')).code).toBe(Code.INVITATION_CLOSED);
    expect((await answer(beta.admin.token, third.data.invitationId, 'decline')).code).toBe(Code.INVITATION_CLOSED);
    await noAgent();
    expect((await invite(alpha.admin.token, beta.admin.account)).code).toBe(0);
  });
});

describe('customer invitations', () => {
  it("links another company's customer only when that customer accepts", async () => {
    const alpha = await company('Alpha Customers');
    const beta = await company('Beta Customers');
    const alphaPlant = await plantOf(alpha.admin.token, 'Alpha Roof');
    const betaPlant = await plantOf(beta.admin.token, 'Beta Roof');

    // Alpha creates an account for its customer: a new account is linked at once, as before.
    const created = await as<CustomerAddResult>(alpha.admin.token, 'POST', '/api/v1/customer', {
      account: 'shared-client@home.test',
      password: 'Client2024x',
      name: 'Shared Client',
      plantIds: [alphaPlant],
    });
    expect(created.code).toBe(0);
    expect(created.data.id).toEqual(expect.any(Number));
    expect(created.data.invitationId).toBeNull();
    const client = (await signIn(server.app, 'shared-client@home.test', 'Client2024x')).access_token;
    expect(await plantIds(client)).toEqual([alphaPlant]);

    // Beta adds the same account: an invitation, and Beta's plant does not reach the customer yet.
    const invited = await as<CustomerAddResult>(beta.admin.token, 'POST', '/api/v1/customer', {
      account: 'Shared-Client@home.test',
      name: 'Beta Name',
      plantIds: [betaPlant],
    });
    expect(invited.code).toBe(0);
    expect(invited.data).toMatchObject({ id: null, invitationId: expect.any(Number) });
    const invitationId = invited.data.invitationId ?? 0;
    expect(await plantIds(client)).toEqual([alphaPlant]);
    const betaCustomers = await as<{ infos: CustomerRow[] }>(beta.admin.token, 'GET', '/api/v1/customers');
    expect(betaCustomers.data.infos).toEqual([]);
    const pending = await as<SentInvitation[]>(beta.admin.token, 'GET', '/api/v1/customer/invitations');
    expect(pending.data).toEqual([expect.objectContaining({ id: invitationId, account: 'shared-client@home.test', name: 'Beta Name' })]);
    expect((await as(beta.admin.token, 'POST', '/api/v1/customer', { account: 'shared-client@home.test', name: 'Again' })).code).toBe(
      Code.INVITATION_PENDING,
    );
    // Alpha cannot see or withdraw Beta's invitation.
    expect((await as<SentInvitation[]>(alpha.admin.token, 'GET', '/api/v1/customer/invitations')).data).toEqual([]);
    expect((await as(alpha.admin.token, 'POST', `/api/v1/customer/invitation/${invitationId}/withdraw`)).code).toBe(Code.INVITATION_CLOSED);

    expect(await received(client)).toEqual([
      expect.objectContaining({ id: invitationId, kind: 'customer', companyName: 'Beta Customers', plantCount: 1 }),
    ]);
    expect((await answer(beta.admin.token, invitationId, 'accept')).code).toBe(Code.INVITATION_CLOSED);
    expect((await answer(client, invitationId, 'accept')).code).toBe(0);
    expect(await plantIds(client)).toEqual([alphaPlant, betaPlant].sort((a, b) => a - b));
    const linked = await as<{ infos: CustomerRow[] }>(beta.admin.token, 'GET', '/api/v1/customers');
    expect(linked.data.infos).toEqual([
      expect.objectContaining({ account: 'shared-client@home.test', name: 'Beta Name', plants: [{ id: betaPlant, name: 'Beta Roof' }] }),
    ]);
    expect((await as(beta.admin.token, 'POST', '/api/v1/customer', { account: 'shared-client@home.test', name: 'Again' })).code).toBe(
      Code.CUSTOMER_EXISTS,
    );
  });

  it('answers alike for an account of another company and one without; such an account cannot accept', async () => {
    const alpha = await company('Alpha Quiet');
    const other = await company('Other Quiet');
    const owner = await member('owner');
    const body = { name: 'Someone', plantIds: [] };
    const toAdmin = await as<CustomerAddResult>(alpha.admin.token, 'POST', '/api/v1/customer', { ...body, account: other.admin.account });
    const toOwner = await as<CustomerAddResult>(alpha.admin.token, 'POST', '/api/v1/customer', { ...body, account: owner.account });
    // Before: 106 "linked to another company" for the administrator.
    expect(toAdmin.code).toBe(0);
    expect(toOwner.code).toBe(0);
    expect(Object.keys(toAdmin.data)).toEqual(Object.keys(toOwner.data));
    for (const account of [other.admin.account, owner.account]) {
      const check = await as<{ exists: boolean }>(
        alpha.admin.token,
        'GET',
        `/api/v1/customer/check?account=${encodeURIComponent(account)}`,
      );
      expect(check).toMatchObject({ code: 0, data: { exists: true } });
    }
    // The company administrator never sees it; trying the id tells them about their own account only.
    expect(await received(other.admin.token)).toEqual([]);
    expect((await answer(other.admin.token, toAdmin.data.invitationId ?? 0, 'accept')).code).toBe(Code.ACCOUNT_HAS_COMPANY);
    // The owner declines: nothing is linked.
    expect((await answer(owner.token, toOwner.data.invitationId ?? 0, 'decline')).code).toBe(0);
    expect((await as<{ infos: CustomerRow[] }>(alpha.admin.token, 'GET', '/api/v1/customers')).data.infos).toEqual([]);
    // The decline is not told: both still wait, as for an account that never answers.
    const open = await as<SentInvitation[]>(alpha.admin.token, 'GET', '/api/v1/customer/invitations');
    expect(open.data.map((i) => i.account)).toEqual([other.admin.account, owner.account]);
    // Withdrawn: nothing to accept.
    for (const id of [toAdmin.data.invitationId, toOwner.data.invitationId])
      expect((await as(alpha.admin.token, 'POST', `/api/v1/customer/invitation/${id}/withdraw`)).code).toBe(0);
    expect((await as<SentInvitation[]>(alpha.admin.token, 'GET', '/api/v1/customer/invitations')).data).toEqual([]);
  });
});
