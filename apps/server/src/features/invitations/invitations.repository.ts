import { INVITATION_KINDS, type InvitationKind, type ReceivedInvitation, type SentInvitation } from '@sunward/contracts/invitations';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, sqlRows } from '../../db/rows.js';
import {
  companies,
  companyAgents,
  companyCustomerPlants,
  companyCustomers,
  customerTypes,
  invitations,
  plants,
  roles,
  users,
} from '../../db/schema.js';

const kind = computed.oneOf(INVITATION_KINDS);

/** What a customer invitation links on acceptance (stored in invitations.details). */
export interface CustomerDetails {
  name: string;
  typeId: number | null;
  remark: string | null;
  plantIds: number[];
}

export interface InvitationRecord {
  id: number;
  kind: InvitationKind;
  companyId: number;
  account: string;
  details: CustomerDetails | null;
}

/** The account an invitation is addressed to, as far as answering it goes. */
export interface InviteeRecord {
  id: number;
  account: string;
  companyId: number | null;
  roleKey: string;
  language: string;
  disabled: boolean;
}

function customerDetails(value: unknown): CustomerDetails | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<CustomerDetails>;
  if (typeof v.name !== 'string') return null;
  return {
    name: v.name,
    typeId: typeof v.typeId === 'number' ? v.typeId : null,
    remark: typeof v.remark === 'string' ? v.remark : null,
    plantIds: Array.isArray(v.plantIds) ? v.plantIds.filter((id): id is number => typeof id === 'number') : [],
  };
}

// An invitation is open while pending and not past its expiry; every read and answer says so in SQL.
const OPEN = sql`i.status = 'pending' and i.expires_at > now()`;
// What the inviter sees as open: a declined invitation too, until it expires, so a decline tells the
// inviter nothing an unknown account's silence would not (only an acceptance shows).
const OPEN_TO_INVITER = sql`i.status in ('pending', 'declined') and i.expires_at > now()`;

/** SQL of invitations: open ones by company (the inviter's view) or by account (the invitee's), answers. */
export function createInvitationsRepository(db: Database) {
  return {
    /**
     * A new pending invitation, or undefined when one of the kind from the company to the account is
     * still open to the inviter (pending, or declined and not expired). A pending one past its expiry is
     * marked expired first, so it no longer blocks.
     */
    async create(input: {
      kind: InvitationKind;
      companyId: number;
      invitedBy: number;
      account: string;
      details: CustomerDetails | null;
      validDays: number;
    }): Promise<{ id: number; expiresAt: string } | undefined> {
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`update invitations set status = 'expired' where kind = ${input.kind} and company_id = ${input.companyId}
              and account = ${input.account} and status = 'pending' and expires_at <= now()`,
        );
        const [declined] = await sqlRows(
          tx,
          { id: invitations.id },
          sql`select i.id from invitations i where i.kind = ${input.kind} and i.company_id = ${input.companyId}
              and i.account = ${input.account} and ${OPEN_TO_INVITER}`,
        );
        if (declined) return undefined;
        const [row] = await sqlRows(
          tx,
          { id: invitations.id, expires_at: invitations.expiresAt },
          sql`insert into invitations (kind, company_id, invited_by, account, details, expires_at)
              values (${input.kind}, ${input.companyId}, ${input.invitedBy}, ${input.account},
                      ${input.details === null ? null : JSON.stringify(input.details)}::jsonb,
                      now() + make_interval(days => ${input.validDays}))
              on conflict do nothing returning id, expires_at`,
        );
        return row ? { id: row.id, expiresAt: row.expires_at.toISOString() } : undefined;
      });
    },

    /** The invitations a company sent that are open to it (declined ones too, until they expire), oldest first. */
    async sent(companyId: number, kind: InvitationKind): Promise<SentInvitation[]> {
      const rows = await sqlRows(
        db,
        {
          id: invitations.id,
          account: invitations.account,
          details: invitations.details,
          created_at: invitations.createdAt,
          expires_at: invitations.expiresAt,
        },
        sql`select i.id, i.account, i.details, i.created_at, i.expires_at from invitations i
            where i.company_id = ${companyId} and i.kind = ${kind} and ${OPEN_TO_INVITER} order by i.id`,
      );
      return rows.map((r) => ({
        id: r.id,
        kind,
        account: r.account,
        name: customerDetails(r.details)?.name ?? null,
        createdAt: r.created_at.toISOString(),
        expiresAt: r.expires_at.toISOString(),
      }));
    },

    /** The open invitations addressed to an account, of the kinds given, oldest first. */
    async received(account: string, kinds: readonly InvitationKind[]): Promise<ReceivedInvitation[]> {
      if (kinds.length === 0) return [];
      const rows = await sqlRows(
        db,
        {
          id: invitations.id,
          kind,
          company_name: companies.name,
          plants: computed.number,
          created_at: invitations.createdAt,
          expires_at: invitations.expiresAt,
        },
        sql`select i.id, i.kind, c.name as company_name, i.created_at, i.expires_at,
                   (select count(*) from plants p where p.company_id = i.company_id
                      and p.id in (select (jsonb_array_elements_text(coalesce(i.details -> 'plantIds', '[]'::jsonb)))::int)) as plants
            from invitations i join companies c on c.id = i.company_id
            where i.account = ${account} and i.kind = any(${sql.param([...kinds])}::text[]) and ${OPEN} order by i.id`,
      );
      return rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        companyName: r.company_name,
        plantCount: r.plants,
        createdAt: r.created_at.toISOString(),
        expiresAt: r.expires_at.toISOString(),
      }));
    },

    /** An open invitation addressed to the account, or undefined (unknown id, someone else's, answered, expired). */
    async openFor(id: number, account: string): Promise<InvitationRecord | undefined> {
      const [row] = await sqlRows(
        db,
        { id: invitations.id, kind, company_id: invitations.companyId, account: invitations.account, details: invitations.details },
        sql`select i.id, i.kind, i.company_id, i.account, i.details from invitations i
            where i.id = ${id} and i.account = ${account} and ${OPEN}`,
      );
      if (!row) return undefined;
      return {
        id: row.id,
        kind: row.kind,
        companyId: row.company_id,
        account: row.account,
        details: customerDetails(row.details),
      };
    },

    async companyName(companyId: number): Promise<string | undefined> {
      const [row] = await sqlRows(db, { name: companies.name }, sql`select name from companies where id = ${companyId}`);
      return row?.name;
    },

    /** The account by its sign-in name (lower case), with what answering an invitation depends on. */
    async invitee(account: string): Promise<InviteeRecord | undefined> {
      const [row] = await sqlRows(
        db,
        {
          id: users.id,
          account: users.account,
          company_id: users.companyId,
          role_key: roles.key,
          language: users.language,
          disabled_at: users.disabledAt,
        },
        sql`select u.id, u.account, u.company_id, r.key as role_key, u.language, u.disabled_at
            from users u join roles r on r.id = u.role_id where u.account = ${account}`,
      );
      if (!row) return undefined;
      return {
        id: row.id,
        account: row.account,
        companyId: row.company_id === null ? null : row.company_id,
        roleKey: row.role_key,
        language: row.language,
        disabled: row.disabled_at !== null,
      };
    },

    /** The company whose agent the user is, if any. */
    async agentOf(userId: number): Promise<number | undefined> {
      const [row] = await sqlRows(
        db,
        { company_id: companyAgents.companyId },
        sql`select company_id from company_agents where agent_user_id = ${userId}`,
      );
      return row ? row.company_id : undefined;
    },

    async isCustomerOf(companyId: number, userId: number): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { id: companyCustomers.id },
        sql`select id from company_customers where company_id = ${companyId} and user_id = ${userId}`,
      );
      return rows.length > 0;
    },

    /** Declines an open invitation addressed to the account; false when it was not open. */
    async decline(id: number, account: string): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { id: invitations.id },
        sql`update invitations i set status = 'declined', answered_at = now() where i.id = ${id} and i.account = ${account} and ${OPEN}
            returning i.id`,
      );
      return rows.length > 0;
    },

    /** Withdraws an invitation open to the company (declined ones too), of that kind; false when it was not. */
    async withdraw(companyId: number, kind: InvitationKind, id: number): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { id: invitations.id },
        sql`update invitations i set status = 'withdrawn', answered_at = now()
            where i.id = ${id} and i.company_id = ${companyId} and i.kind = ${kind} and ${OPEN_TO_INVITER} returning i.id`,
      );
      return rows.length > 0;
    },

    /**
     * acceptInvitation: marks the invitation accepted (only while still open) and makes the link it offers,
     * in one transaction: the agent appointment, or the customer with the plants still the company's and
     * the type if it still exists. 'closed' when it was answered or expired meanwhile, 'taken' when the
     * link exists already (the unique indexes).
     */
    async accept(invitation: InvitationRecord, userId: number): Promise<'accepted' | 'closed' | 'taken'> {
      return db
        .transaction(async (tx) => {
          const marked = await sqlRows(
            tx,
            { id: invitations.id },
            sql`update invitations i set status = 'accepted', answered_at = now() where i.id = ${invitation.id} and ${OPEN} returning i.id`,
          );
          if (marked.length === 0) return 'closed';
          if (invitation.kind === 'agent') {
            const rows = await tx
              .insert(companyAgents)
              .values({ companyId: invitation.companyId, agentUserId: userId })
              .onConflictDoNothing()
              .returning({ id: companyAgents.id });
            if (rows.length === 0) throw new LinkTaken();
            return 'accepted';
          }
          const details = invitation.details ?? { name: invitation.account, typeId: null, remark: null, plantIds: [] };
          const [type] =
            details.typeId === null
              ? []
              : await sqlRows(
                  tx,
                  { id: customerTypes.id },
                  sql`select id from customer_types where id = ${details.typeId} and company_id = ${invitation.companyId}`,
                );
          const [row] = await tx
            .insert(companyCustomers)
            .values({
              companyId: invitation.companyId,
              userId,
              name: details.name,
              typeId: type ? type.id : null,
              remark: details.remark,
            })
            .onConflictDoNothing()
            .returning({ id: companyCustomers.id });
          if (!row) throw new LinkTaken();
          const linked =
            details.plantIds.length === 0
              ? []
              : await sqlRows(
                  tx,
                  { id: plants.id },
                  sql`select id from plants where company_id = ${invitation.companyId} and id = any(${sql.param(details.plantIds)}::int[])`,
                );
          if (linked.length > 0) await tx.insert(companyCustomerPlants).values(linked.map((p) => ({ customerId: row.id, plantId: p.id })));
          return 'accepted';
        })
        .catch((error: unknown) => {
          // The link exists already: the transaction rolled back, the invitation stays open.
          if (error instanceof LinkTaken) return 'taken' as const;
          throw error;
        });
    },
  };
}

class LinkTaken extends Error {}

export type InvitationsRepository = ReturnType<typeof createInvitationsRepository>;
