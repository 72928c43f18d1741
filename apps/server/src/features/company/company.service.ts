import { Code } from '@sunward/contracts/codes';
import {
  type AgentRow,
  COMPANY_LIMITS,
  type CompanyAdd,
  type CompanyEdit,
  type CompanyInfo,
  type CompanyLogo,
  type CompanyRole,
  type CompanyRoleBody,
  type StaffAdd,
  type StaffEdit,
  type StaffRow,
} from '@sunward/contracts/company';
import type { InvitationSentResult, SentInvitation } from '@sunward/contracts/invitations';
import type { Language } from '@sunward/contracts/languages';
import { type MessageKey, type MessageParams, translate } from '@sunward/contracts/messages';
import { isPermissionKey, type PermissionKey } from '@sunward/contracts/permissions';
import { COMPANY_ASSIGNABLE_PERMISSIONS } from '@sunward/contracts/roles';
import { isEmail, isPhone, isPlainText, isRegistrationPassword } from '@sunward/contracts/validators';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { requireSecret, type SecretThrottle } from '../auth/secret-throttle.js';
import type { InvitationsService } from '../invitations/invitations.service.js';
import type { CompanyRepository } from './company.repository.js';
import { type LogoStore, sniffLogo } from './company-logo.js';

const refuse = (field: string, language: Language, key: MessageKey, params?: MessageParams) =>
  new ApiError(Code.VALIDATION, {}, { errors: [{ field, message: translate(language, key, params) }] });

/**
 * What a caller may put into a company role: the company-assignable keys they hold themselves, so no
 * one grants more than they have (a company administrator cannot hand out platform keys).
 */
export function grantablePermissions(held: ReadonlySet<PermissionKey>): PermissionKey[] {
  return COMPANY_ASSIGNABLE_PERMISSIONS.filter((key) => held.has(key));
}

/** The first requested key the caller may not grant, or undefined when all are grantable. */
export function ungrantable(requested: readonly string[], held: ReadonlySet<PermissionKey>): string | undefined {
  const allowed = new Set<string>(grantablePermissions(held));
  return requested.find((key) => !isPermissionKey(key) || !allowed.has(key));
}

function checkContact(fields: { email?: string | null; phone?: string | null }, language: Language): void {
  if (fields.email && !isEmail(fields.email)) throw refuse('email', language, 'validation.invalidFormat');
  if (fields.phone && !isPhone(fields.phone)) throw refuse('phone', language, 'validation.phone');
}

function checkPlain(field: string, value: string | null | undefined, language: Language): void {
  if (value && !isPlainText(value)) throw refuse(field, language, 'validation.specialCharacters');
}

export function createCompanyService(deps: {
  /** Counts a wrong confirmation password with sign-in's (135 once locked). */
  throttle: SecretThrottle;
  repository: CompanyRepository;
  logos: LogoStore;
  invitations: Pick<InvitationsService, 'invite' | 'sent' | 'withdraw'>;
}) {
  const { throttle } = deps;
  const { repository, logos, invitations } = deps;

  /** The caller's company, or the one named when the caller is the platform administrator; 2 otherwise. */
  async function companyFor(auth: AuthContext, id?: number): Promise<number> {
    if (auth.roleKey === 'platform_admin' && id !== undefined) {
      if (!(await repository.company(id))) throw new ApiError(Code.NO_PERMISSION);
      return id;
    }
    if (auth.companyId === null) throw new ApiError(Code.NO_PERMISSION);
    if (id !== undefined && id !== auth.companyId) throw new ApiError(Code.NO_PERMISSION);
    return auth.companyId;
  }

  async function roleId(key: 'company_admin' | 'company_staff'): Promise<number> {
    const id = await repository.builtInRoleId(key);
    if (id === undefined) throw new Error(`built-in role ${key} missing`);
    return id;
  }

  /** A role a member may be given: company staff or one of the company's custom roles (never administrator). */
  async function checkMemberRole(companyId: number, id: number, language: Language): Promise<void> {
    const role = await repository.role(id);
    const fits = role && (role.companyId === companyId || (role.companyId === null && role.key === 'company_staff'));
    if (!fits) throw refuse('roleId', language, 'company.roleUnknown');
  }

  function presentStaff(row: NonNullable<Awaited<ReturnType<CompanyRepository['staffMember']>>>, language: Language): StaffRow {
    return {
      id: row.id,
      account: row.account,
      nickname: row.nickname,
      email: row.email,
      phone: row.phone,
      roleId: row.roleId,
      roleName: row.builtIn ? translate(language, `role.${row.roleKey}` as MessageKey) : row.roleName,
      roleKey: row.roleKey,
      isAdmin: row.builtIn && row.roleKey === 'company_admin',
      disabled: row.disabledAt !== null,
      createdAt: row.createdAt,
    };
  }

  /** 104 when the account exists (here or independent), 106 when it belongs to another company. */
  async function checkStaffAccount(companyId: number, account: string): Promise<void> {
    const existing = await repository.accountByName(account);
    if (!existing) return;
    if (existing.companyId !== null && existing.companyId !== companyId) throw new ApiError(Code.ACCOUNT_HAS_COMPANY);
    throw new ApiError(Code.ACCOUNT_EXISTS);
  }

  async function customRole(auth: AuthContext, companyId: number, id: number) {
    const role = await repository.role(id);
    if (!role || role.companyId !== companyId) throw new ApiError(Code.NO_PERMISSION);
    if (role.id === auth.roleId) throw new ApiError(Code.ROLE_OWN_NOT_MODIFIABLE);
    return role;
  }

  function checkRoleBody(auth: AuthContext, body: CompanyRoleBody, language: Language): PermissionKey[] {
    checkPlain('name', body.name, language);
    const bad = ungrantable(body.permissions, auth.permissions);
    if (bad !== undefined) throw refuse('permissions', language, 'company.permissionNotGrantable', { key: bad });
    return [...new Set(body.permissions)].filter(isPermissionKey);
  }

  return {
    companyFor,

    async info(auth: AuthContext, id?: number): Promise<CompanyInfo> {
      const companyId = await companyFor(auth, id);
      const company = await repository.company(companyId);
      if (!company) throw new ApiError(Code.NO_PERMISSION);
      return {
        id: company.id,
        name: company.name,
        contactName: company.contactName,
        email: company.email,
        phone: company.phone,
        address: company.address,
        logoUrl: company.logoUrl,
        iconUrl: company.iconUrl,
        themeColor: company.themeColor,
        admin: (await repository.admin(companyId)) ?? null,
        requireTwoFactor: await repository.requireTwoFactor(companyId),
        staffCount: await repository.staffCount(companyId),
        createdAt: company.createdAt.toISOString(),
      };
    },

    /** 203 when another company has the name (case-insensitive). */
    async checkName(name: string, exceptId?: number): Promise<void> {
      if (await repository.nameTaken(name, exceptId)) throw new ApiError(Code.COMPANY_NAME_DUPLICATE);
    },

    async edit(auth: AuthContext, id: number, fields: CompanyEdit, language: Language) {
      const companyId = await companyFor(auth, id);
      checkPlain('name', fields.name, language);
      checkPlain('contactName', fields.contactName, language);
      checkContact(fields, language);
      if (await repository.nameTaken(fields.name, companyId)) throw new ApiError(Code.COMPANY_NAME_DUPLICATE);
      await repository.update(companyId, fields);
      if (fields.requireTwoFactor !== undefined && (await repository.requireTwoFactor(companyId)) !== null)
        await repository.setRequireTwoFactor(companyId, fields.requireTwoFactor);
    },

    /**
     * createCompany: a company whose administrator is an existing account without a company: the caller
     * (an independent owner starting a company) or, for the platform administrator, the account named.
     */
    async add(auth: AuthContext, input: CompanyAdd, language: Language): Promise<number> {
      checkPlain('name', input.name, language);
      checkContact(input, language);
      const forSomeoneElse = auth.roleKey === 'platform_admin';
      // Only an independent owner (an installer) starts a company; guests, customers and agents do not.
      if (!forSomeoneElse && auth.roleKey !== 'owner') throw new ApiError(Code.NO_PERMISSION);
      if (!forSomeoneElse && input.adminAccount && input.adminAccount.toLowerCase() !== auth.account)
        throw new ApiError(Code.NO_PERMISSION);
      const admin = forSomeoneElse
        ? input.adminAccount
          ? await repository.accountByName(input.adminAccount)
          : undefined
        : await repository.accountById(auth.userId);
      if (!admin) throw new ApiError(Code.ACCOUNT_NOT_REGISTERED);
      if (admin.companyId !== null) throw new ApiError(Code.ACCOUNT_HAS_COMPANY);
      if (admin.roleKey === 'platform_admin') throw new ApiError(Code.NO_PERMISSION);
      if (await repository.nameTaken(input.name)) throw new ApiError(Code.COMPANY_NAME_DUPLICATE);
      return repository.create(input, admin.id, await roleId('company_admin'));
    },

    async setTheme(auth: AuthContext, id: number, themeColor: string): Promise<void> {
      await repository.setTheme(await companyFor(auth, id), themeColor.toUpperCase());
    },

    async uploadLogo(auth: AuthContext, file: Buffer, language: Language): Promise<string> {
      await companyFor(auth);
      const type = sniffLogo(file);
      if (!type) throw refuse('file', language, 'company.logoType');
      if (file.length > COMPANY_LIMITS.logoMaxBytes)
        throw refuse('file', language, 'company.logoTooBig', { max: COMPANY_LIMITS.logoMaxBytes / 1024 });
      return logos.save(file, type);
    },

    async setLogo(auth: AuthContext, id: number, logo: CompanyLogo, language: Language): Promise<void> {
      const companyId = await companyFor(auth, id);
      for (const [field, url] of [
        ['logoUrl', logo.logoUrl],
        ['iconUrl', logo.iconUrl],
      ] as const)
        if (url !== null && !(await logos.exists(url))) throw refuse(field, language, 'validation.invalidValue');
      await repository.setLogo(companyId, logo);
    },

    /** transferAdministrator: only the administrator, confirmed with their password, to a member of the company. */
    async transferAdmin(auth: AuthContext, id: number, input: { userId: number; password: string }, language: Language) {
      const companyId = await companyFor(auth, id);
      const me = await repository.accountById(auth.userId);
      if (!me || me.companyId !== companyId || me.roleKey !== 'company_admin') throw new ApiError(Code.NO_PERMISSION);
      await requireSecret(
        throttle,
        { kind: 'password', subject: me.account, ip: auth.ip },
        () => verifyPassword(input.password, me.passwordHash),
        Code.OWNER_PASSWORD_WRONG,
      );
      const target = await repository.accountById(input.userId);
      if (!target || target.companyId !== companyId || target.id === me.id) throw refuse('userId', language, 'company.notStaff');
      await repository.transferAdmin(me.id, target.id, await roleId('company_admin'), await roleId('company_staff'));
    },

    // ---- Staff ----

    async staffPage(auth: AuthContext, query: { page: number; size: number; keyword?: string; roleId?: number }, language: Language) {
      const companyId = await companyFor(auth);
      const { total, rows } = await repository.staffPage(companyId, query);
      return { total, infos: rows.map((r) => presentStaff(r, language)) };
    },

    async staffMember(auth: AuthContext, userId: number, language: Language): Promise<StaffRow> {
      const row = await repository.staffMember(await companyFor(auth), userId);
      if (!row) throw new ApiError(Code.NO_PERMISSION);
      return presentStaff(row, language);
    },

    checkAccount: async (auth: AuthContext, account: string) => checkStaffAccount(await companyFor(auth), account),

    async addStaff(auth: AuthContext, input: StaffAdd, language: Language): Promise<number> {
      const companyId = await companyFor(auth);
      const account = input.account.toLowerCase();
      await checkStaffAccount(companyId, account);
      if (!isEmail(account) && !isPhone(account)) throw refuse('account', language, 'validation.invalidFormat');
      checkPlain('nickname', input.nickname, language);
      checkContact(input, language);
      if (!isRegistrationPassword(input.password)) throw refuse('password', language, 'company.passwordRule');
      await checkMemberRole(companyId, input.roleId, language);
      const id = await repository.createStaff({
        companyId,
        account,
        passwordHash: await hashPassword(input.password),
        nickname: input.nickname,
        email: input.email ?? null,
        phone: input.phone ?? null,
        roleId: input.roleId,
      });
      // Another request took the account between the check and the insert.
      if (id === undefined) throw new ApiError(Code.ACCOUNT_EXISTS);
      return id;
    },

    async editStaff(auth: AuthContext, userId: number, input: StaffEdit, language: Language): Promise<void> {
      const companyId = await companyFor(auth);
      const member = await repository.staffMember(companyId, userId);
      if (!member) throw new ApiError(Code.NO_PERMISSION);
      checkPlain('nickname', input.nickname, language);
      checkContact(input, language);
      if (input.roleId !== member.roleId) {
        if (member.id === auth.userId) throw new ApiError(Code.ROLE_OWN_NOT_MODIFIABLE);
        if (member.builtIn && member.roleKey === 'company_admin') throw refuse('roleId', language, 'company.adminRoleFixed');
        await checkMemberRole(companyId, input.roleId, language);
      }
      await repository.updateStaff(userId, {
        nickname: input.nickname,
        email: input.email ?? null,
        phone: input.phone ?? null,
        roleId: input.roleId,
      });
    },

    async removeStaff(auth: AuthContext, userId: number, language: Language): Promise<void> {
      const companyId = await companyFor(auth);
      const member = await repository.staffMember(companyId, userId);
      if (!member) throw new ApiError(Code.NO_PERMISSION);
      const admin = await repository.admin(companyId);
      if (member.id === auth.userId || member.id === admin?.id || !admin) throw refuse('id', language, 'company.cannotRemove');
      // Sessions go with the account (sessions cascade on delete), so the member is signed out at once.
      await repository.removeStaff(companyId, member.id, admin.id);
    },

    // ---- Roles ----

    async roles(auth: AuthContext, language: Language): Promise<CompanyRole[]> {
      const rows = await repository.roles(await companyFor(auth));
      return rows.map((r) => ({
        ...r,
        name: r.builtIn ? translate(language, `role.${r.key}` as MessageKey) : r.name,
        own: r.id === auth.roleId,
      }));
    },

    /** 801 when the company already has a role of that name. */
    async checkRoleName(auth: AuthContext, name: string, exceptId?: number): Promise<void> {
      if (await repository.roleNameTaken(await companyFor(auth), name, exceptId)) throw new ApiError(Code.ROLE_EXISTS);
    },

    async createRole(auth: AuthContext, body: CompanyRoleBody, language: Language): Promise<number> {
      const companyId = await companyFor(auth);
      const permissions = checkRoleBody(auth, body, language);
      if ((await repository.customRoleCount(companyId)) >= COMPANY_LIMITS.rolesMax) throw new ApiError(Code.ROLE_LIMIT);
      if (await repository.roleNameTaken(companyId, body.name)) throw new ApiError(Code.ROLE_EXISTS);
      const id = await repository.createRole(companyId, { name: body.name, remark: body.remark ?? null, permissions });
      if (id === undefined) throw new ApiError(Code.ROLE_EXISTS);
      return id;
    },

    async updateRole(auth: AuthContext, id: number, body: CompanyRoleBody, language: Language): Promise<void> {
      const companyId = await companyFor(auth);
      const role = await customRole(auth, companyId, id);
      const permissions = checkRoleBody(auth, body, language);
      if (await repository.roleNameTaken(companyId, body.name, role.id)) throw new ApiError(Code.ROLE_EXISTS);
      await repository.updateRole(role.id, { name: body.name, remark: body.remark ?? null, permissions });
    },

    async deleteRole(auth: AuthContext, id: number, language: Language): Promise<void> {
      const companyId = await companyFor(auth);
      const role = await customRole(auth, companyId, id);
      const members = await repository.roleMemberCount(role.id);
      if (members > 0) throw refuse('id', language, 'company.roleInUse', { count: members });
      await repository.deleteRole(role.id);
    },

    grantable: (auth: AuthContext) => grantablePermissions(auth.permissions),

    // ---- Agents ----

    async agents(auth: AuthContext): Promise<{
      agents: AgentRow[];
      principals: Awaited<ReturnType<CompanyRepository['principals']>>;
      invitations: SentInvitation[];
    }> {
      const companyId = await companyFor(auth);
      return {
        agents: await repository.agents(companyId),
        principals: await repository.principals(auth.userId),
        invitations: await invitations.sent(companyId, 'agent'),
      };
    },

    /**
     * Invites an account to become the company's agent (issue 15.4). Refused only for what the company
     * knows already: 900 its own account, 901 one of its members, 202 already its agent (210 already
     * invited). Every other account, unknown, unable to accept or a real administrator, gets the same
     * answer; spec 02 §6's other rules (902, 903) are told to the invitee when accepting.
     */
    async inviteAgent(auth: AuthContext, account: string): Promise<InvitationSentResult> {
      const companyId = await companyFor(auth);
      const name = account.toLowerCase();
      if (name === auth.account.toLowerCase()) throw new ApiError(Code.AGENT_SELF);
      const target = await repository.accountByName(name);
      if (target?.companyId === companyId) throw new ApiError(Code.AGENT_INTERNAL_EMPLOYEE);
      if (target && (await repository.agentOf(target.id)) === companyId) throw new ApiError(Code.AGENT_EXISTS);
      return invitations.invite({ kind: 'agent', companyId, invitedBy: auth.userId, account: name, details: null });
    },

    async withdrawAgentInvitation(auth: AuthContext, id: number): Promise<void> {
      await invitations.withdraw(await companyFor(auth), 'agent', id);
    },

    async removeAgent(auth: AuthContext, id: number): Promise<void> {
      if (!(await repository.removeAgent(await companyFor(auth), id))) throw new ApiError(Code.NO_PERMISSION);
    },
  };
}

export type CompanyService = ReturnType<typeof createCompanyService>;
