import {
  type ChannelChildAdd,
  type ChannelCounts,
  type ChannelNode,
  type ChannelSettings,
  type ChannelTree,
  childKindsOf,
} from '@sunward/contracts/channel';
import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { type MessageKey, translate } from '@sunward/contracts/messages';
import { isEmail, isPhone, isPlainText, isRegistrationPassword } from '@sunward/contracts/validators';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { hashPassword } from '../auth/password.js';
import type { ChannelCompanyRow, ChannelRepository } from './channel.repository.js';

const refuse = (field: string, language: Language, key: MessageKey) =>
  new ApiError(Code.VALIDATION, {}, { errors: [{ field, message: translate(language, key) }] });

function add(a: ChannelCounts, b: ChannelCounts): ChannelCounts {
  return {
    plants: a.plants + b.plants,
    devices: a.devices + b.devices,
    online: a.online + b.online,
    openAlarms: a.openAlarms + b.openAlarms,
    powerW: a.powerW + b.powerW,
    energyTodayWh: a.energyTodayWh + b.energyTodayWh,
  };
}

/**
 * The tree as the dashboard shows it: parents before children (depth-first, children by name), each node
 * with its own counts and its subtree's (its own plus every descendant's, so a parent's figure is the
 * sum of its children's plus its own).
 */
export function rollUp(rows: readonly ChannelCompanyRow[], rootId: number | null): ChannelNode[] {
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<number | null, ChannelCompanyRow[]>();
  for (const row of rows) {
    const parent = row.parentId !== null && ids.has(row.parentId) ? row.parentId : null;
    // Inside a caller's tree the root is the only company whose parent is outside it.
    if (rootId !== null && parent === null && row.id !== rootId) continue;
    children.set(parent, [...(children.get(parent) ?? []), row]);
  }
  const nodes: ChannelNode[] = [];
  const visit = (row: ChannelCompanyRow, depth: number): ChannelCounts => {
    const node: ChannelNode = {
      id: row.id,
      name: row.name,
      kind: row.kind,
      parentId: row.parentId,
      depth,
      childBranding: row.childBranding,
      notifySubtree: row.notifySubtree,
      own: row.own,
      subtree: row.own,
    };
    nodes.push(node);
    let total = row.own;
    for (const child of children.get(row.id) ?? []) total = add(total, visit(child, depth + 1));
    node.subtree = total;
    return total;
  };
  for (const root of children.get(null) ?? []) visit(root, 0);
  return nodes;
}

export function createChannelService(deps: { repository: ChannelRepository }) {
  const { repository } = deps;

  async function ownCompany(auth: AuthContext) {
    const company = auth.companyId === null ? undefined : await repository.company(auth.companyId);
    if (!company) throw new ApiError(Code.NO_PERMISSION);
    return company;
  }

  return {
    /** The caller's company and its subtree (the platform administrator: every tree). */
    async tree(auth: AuthContext): Promise<ChannelTree> {
      if (auth.roleKey === 'platform_admin' && auth.companyId === null)
        return { nodes: rollUp(await repository.tree(null), null), childKinds: [] };
      const company = await ownCompany(auth);
      return { nodes: rollUp(await repository.tree(company.id), company.id), childKinds: childKindsOf(company.kind) };
    },

    /** A parent's administrator creates a child company (a kind below its own) with its first administrator. */
    async addChild(auth: AuthContext, input: ChannelChildAdd, language: Language): Promise<number> {
      const parent = await ownCompany(auth);
      if (!childKindsOf(parent.kind).includes(input.kind)) throw refuse('kind', language, 'channel.kindBelowParent');
      if (!isPlainText(input.name)) throw refuse('name', language, 'validation.specialCharacters');
      if (!isPlainText(input.adminNickname)) throw refuse('adminNickname', language, 'validation.specialCharacters');
      const account = input.adminAccount.trim().toLowerCase();
      if (!isEmail(account) && !isPhone(account)) throw refuse('adminAccount', language, 'validation.invalidFormat');
      if (!isRegistrationPassword(input.adminPassword)) throw refuse('adminPassword', language, 'company.passwordRule');
      if (await repository.nameTaken(input.name)) throw new ApiError(Code.COMPANY_NAME_DUPLICATE);
      if (await repository.accountTaken(account)) throw new ApiError(Code.ACCOUNT_EXISTS);
      const id = await repository.createChild({
        parentId: parent.id,
        name: input.name,
        kind: input.kind,
        account,
        passwordHash: await hashPassword(input.adminPassword),
        nickname: input.adminNickname,
      });
      // Another request took the name or the account between the check and the insert.
      if (id === undefined) throw new ApiError(Code.COMPANY_NAME_DUPLICATE);
      return id;
    },

    async settings(auth: AuthContext, settings: ChannelSettings): Promise<void> {
      const company = await ownCompany(auth);
      await repository.setSettings(company.id, settings);
    },
  };
}

export type ChannelService = ReturnType<typeof createChannelService>;
