import { Code } from '@sunward/contracts/codes';
import type {
  CustomerAdd,
  CustomerAddResult,
  CustomerEdit,
  CustomerType,
  CustomerTypeBody,
  CustomerTypeTree,
} from '@sunward/contracts/customers';
import type { SentInvitation } from '@sunward/contracts/invitations';
import type { Language } from '@sunward/contracts/languages';
import { type MessageKey, type MessageParams, translate } from '@sunward/contracts/messages';
import { isEmail, isPhone, isPlainText, isRegistrationPassword } from '@sunward/contracts/validators';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { hashPassword } from '../auth/password.js';
import type { CompanyRepository } from '../company/company.repository.js';
import type { InvitationsService } from '../invitations/invitations.service.js';
import type { CustomersRepository } from './customers.repository.js';

const refuse = (field: string, language: Language, key: MessageKey, params?: MessageParams) =>
  new ApiError(Code.VALIDATION, {}, { errors: [{ field, message: translate(language, key, params) }] });

/** Primary labels with their secondary labels under them, in the order the repository gives. */
export function typeTree(types: readonly CustomerType[]): CustomerTypeTree {
  return types
    .filter((t) => t.parentId === null)
    .map((primary) => ({ ...primary, children: types.filter((t) => t.parentId === primary.id) }));
}

export function createCustomersService(deps: {
  repository: CustomersRepository;
  accounts: Pick<CompanyRepository, 'accountByName' | 'builtInRoleId'>;
  invitations: Pick<InvitationsService, 'invite' | 'sent' | 'withdraw'>;
}) {
  const { repository, accounts, invitations } = deps;

  /** Customers belong to the caller's company; an account without one has none to manage (2). */
  function companyOf(auth: AuthContext, claimed?: number): number {
    if (auth.companyId === null) throw new ApiError(Code.NO_PERMISSION);
    if (claimed !== undefined && claimed !== auth.companyId) throw new ApiError(Code.NO_PERMISSION);
    return auth.companyId;
  }

  async function checkFields(companyId: number, input: CustomerEdit, language: Language) {
    if (!isPlainText(input.name)) throw refuse('name', language, 'validation.specialCharacters');
    if (input.typeId != null && !(await repository.type(companyId, input.typeId)))
      throw refuse('typeId', language, 'validation.invalidValue');
    const plantIds = [...new Set(input.plantIds)];
    const own = await repository.companyPlantIds(companyId, plantIds);
    if (plantIds.some((id) => !own.has(id))) throw refuse('plantIds', language, 'company.plantNotCompany');
    return { name: input.name, typeId: input.typeId ?? null, remark: input.remark ?? null, plantIds };
  }

  /**
   * The account if it exists; 204 when it is one of ours already. Nothing else about it is told (issue
   * 15.4): whether it exists is what sign-up tells anyone too, whether it belongs to a company is not.
   */
  async function checkCandidate(companyId: number, account: string) {
    const existing = await accounts.accountByName(account);
    if (existing && (await repository.find(companyId, { userId: existing.id }))) throw new ApiError(Code.CUSTOMER_EXISTS);
    return existing;
  }

  async function customer(companyId: number, customerId: number) {
    const found = await repository.find(companyId, { customerId });
    if (!found) throw new ApiError(Code.NO_PERMISSION);
    return found;
  }

  async function checkType(companyId: number, body: CustomerTypeBody, language: Language, selfId?: number) {
    if (!isPlainText(body.name)) throw refuse('name', language, 'validation.specialCharacters');
    const parentId = body.parentId ?? null;
    if (parentId !== null) {
      const parent = await repository.type(companyId, parentId);
      // Two levels only: the parent is a primary label, and a primary with subtypes stays primary.
      if (!parent || parent.parentId !== null || parent.id === selfId) throw refuse('parentId', language, 'company.typeParent');
      if (selfId !== undefined && (await repository.childCount(selfId)) > 0) throw refuse('parentId', language, 'company.typeParent');
    }
    if (await repository.typeNameTaken(companyId, parentId, body.name, selfId)) throw new ApiError(Code.CUSTOMER_TYPE_NAME_EXISTS);
    return { name: body.name, remark: body.remark ?? null, parentId };
  }

  return {
    page: (auth: AuthContext, query: { page: number; size: number; keyword?: string; typeId?: number }) =>
      repository.page(companyOf(auth), query),

    options: (auth: AuthContext) => repository.options(companyOf(auth)),

    async check(auth: AuthContext, account: string) {
      return { exists: (await checkCandidate(companyOf(auth), account)) !== undefined };
    },

    /**
     * addCustomer: a new account is created with the customer role and the password given, and linked at
     * once (the company made it). An existing account is never linked without its consent: it gets an
     * invitation it accepts or declines (issue 15.4), the same answer whatever the account is.
     */
    async add(auth: AuthContext, input: CustomerAdd, language: Language): Promise<CustomerAddResult> {
      const companyId = companyOf(auth);
      const account = input.account.toLowerCase();
      const fields = await checkFields(companyId, input, language);
      const existing = await checkCandidate(companyId, account);
      if (existing) {
        const sent = await invitations.invite({ kind: 'customer', companyId, invitedBy: auth.userId, account, details: fields });
        return { id: null, invitationId: sent.invitationId, expiresAt: sent.expiresAt };
      }
      if (!isEmail(account) && !isPhone(account)) throw refuse('account', language, 'validation.invalidFormat');
      if (!input.password || !isRegistrationPassword(input.password)) throw refuse('password', language, 'company.passwordRule');
      const roleId = await accounts.builtInRoleId('customer');
      if (roleId === undefined) throw new Error('built-in role customer missing');
      const newAccount = { account, passwordHash: await hashPassword(input.password), roleId };
      const id = await repository.create({ companyId, newAccount, ...fields });
      // Another request took the account between the check and the insert.
      if (id === undefined) throw new ApiError(Code.ACCOUNT_EXISTS);
      return { id, invitationId: null, expiresAt: null };
    },

    /** The company's open invitations to become its customer. */
    invitations: (auth: AuthContext): Promise<SentInvitation[]> => invitations.sent(companyOf(auth), 'customer'),

    withdrawInvitation: (auth: AuthContext, id: number): Promise<void> => invitations.withdraw(companyOf(auth), 'customer', id),

    async edit(auth: AuthContext, customerId: number, claimedCompanyId: number, input: CustomerEdit, language: Language) {
      const companyId = companyOf(auth, claimedCompanyId);
      const found = await customer(companyId, customerId);
      await repository.update(found.customerId, await checkFields(companyId, input, language));
    },

    /** Ends the link: the account stays (it is the person's), without the company's plants. */
    async remove(auth: AuthContext, claimedCompanyId: number, masterId: number): Promise<void> {
      if (!(await repository.remove(companyOf(auth, claimedCompanyId), masterId))) throw new ApiError(Code.NO_PERMISSION);
    },

    /** The customer's account id, for GET role/{customerId} to list its permissions. */
    async accountOf(auth: AuthContext, customerId: number): Promise<number> {
      return (await customer(companyOf(auth), customerId)).masterId;
    },

    // ---- Customer types ----

    async types(auth: AuthContext) {
      return repository.types(companyOf(auth));
    },

    async typeTree(auth: AuthContext) {
      return typeTree(await repository.types(companyOf(auth)));
    },

    async type(auth: AuthContext, id: number): Promise<CustomerType> {
      const found = (await repository.types(companyOf(auth))).find((t) => t.id === id);
      if (!found) throw new ApiError(Code.NO_PERMISSION);
      return found;
    },

    async createType(auth: AuthContext, body: CustomerTypeBody, language: Language): Promise<number> {
      const companyId = companyOf(auth);
      const id = await repository.createType(companyId, await checkType(companyId, body, language));
      if (id === undefined) throw new ApiError(Code.CUSTOMER_TYPE_NAME_EXISTS);
      return id;
    },

    async updateType(auth: AuthContext, id: number, body: CustomerTypeBody, language: Language): Promise<void> {
      const companyId = companyOf(auth);
      if (!(await repository.type(companyId, id))) throw new ApiError(Code.NO_PERMISSION);
      if (!(await repository.updateType(id, await checkType(companyId, body, language, id))))
        throw new ApiError(Code.CUSTOMER_TYPE_NAME_EXISTS);
    },

    /** 205 while it has subtypes; its customers keep no type afterwards. */
    async deleteType(auth: AuthContext, id: number): Promise<void> {
      const companyId = companyOf(auth);
      if (!(await repository.type(companyId, id))) throw new ApiError(Code.NO_PERMISSION);
      if ((await repository.childCount(id)) > 0) throw new ApiError(Code.CUSTOMER_TYPE_HAS_SUBTYPES);
      await repository.deleteType(companyId, id);
    },
  };
}

export type CustomersService = ReturnType<typeof createCustomersService>;
