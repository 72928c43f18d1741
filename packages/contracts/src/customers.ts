import { z } from 'zod';
import { IdParamSchema } from './ids.js';

/*
 * Customers of a company and customer types (spec 01 §3 "Customer/user: customerId, companyId, masterId,
 * account", §7 "Customers and roles"; spec 02 §3 customer and customer type; issue 7). A customer is an
 * account (masterId) linked to one company; it sees the company plants assigned to it, read-only.
 */

export const CUSTOMER_LIMITS = {
  nameMax: 32,
  remarkMax: 200,
  typeNameMax: 32,
  pageSizeMax: 100,
  plantsMax: 500,
} as const;

const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v), z.string().max(max).nullable().optional());

const idList = z.preprocess(
  (v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v]),
  z.array(IdParamSchema).max(CUSTOMER_LIMITS.plantsMax),
);

export const CustomerRowSchema = z.object({
  customerId: z.number().int(),
  companyId: z.number().int(),
  /** The customer's account (user) id. */
  masterId: z.number().int(),
  account: z.string(),
  name: z.string(),
  typeId: z.number().int().nullable(),
  typeName: z.string().nullable(),
  remark: z.string().nullable(),
  plants: z.array(z.object({ id: z.number().int(), name: z.string() })),
  createdAt: z.string(),
});
export type CustomerRow = z.infer<typeof CustomerRowSchema>;
export const CustomerPageSchema = z.object({ infos: z.array(CustomerRowSchema), total: z.number().int() });

export const CustomerListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(CUSTOMER_LIMITS.pageSizeMax).default(20),
  keyword: z.string().trim().max(64).optional(),
  typeId: IdParamSchema.optional(),
});

export const CustomerOptionSchema = z.object({
  customerId: z.number().int(),
  masterId: z.number().int(),
  account: z.string(),
  name: z.string(),
});

const customerFields = {
  name: z.string().trim().min(1).max(CUSTOMER_LIMITS.nameMax),
  typeId: z.preprocess((v) => (v === '' ? null : v), IdParamSchema.nullable().optional()),
  remark: optionalText(CUSTOMER_LIMITS.remarkMax),
  plantIds: idList,
};

/**
 * POST customer: a new account is created with the password given (then required) and linked; an existing
 * account is invited and linked only when it accepts (issue 15.4).
 */
export const CustomerAddSchema = z.object({
  account: z.string().trim().min(1).max(64),
  password: z.string().max(128).optional(),
  ...customerFields,
});
export type CustomerAdd = z.infer<typeof CustomerAddSchema>;

/** The answer to POST customer: the customer (a new account, linked at once) or the invitation sent. */
export const CustomerAddResultSchema = z.object({
  id: z.number().int().nullable(),
  invitationId: z.number().int().nullable(),
  expiresAt: z.string().nullable(),
});
export type CustomerAddResult = z.infer<typeof CustomerAddResultSchema>;

export const CustomerEditSchema = z.object(customerFields);
export type CustomerEdit = z.infer<typeof CustomerEditSchema>;

/** GET customer/check: whether the account exists (then it is invited, no password is asked); 204 when ours already. */
export const CustomerCheckSchema = z.object({ exists: z.boolean() });

// ---- Customer types (primary labels with secondary labels under them) ----

export const CustomerTypeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  remark: z.string().nullable(),
  /** null for a primary label. */
  parentId: z.number().int().nullable(),
  customerCount: z.number().int(),
});
export type CustomerType = z.infer<typeof CustomerTypeSchema>;

export const CustomerTypeTreeSchema = z.array(CustomerTypeSchema.extend({ children: z.array(CustomerTypeSchema) }));
export type CustomerTypeTree = z.infer<typeof CustomerTypeTreeSchema>;

export const CustomerTypeBodySchema = z.object({
  name: z.string().trim().min(1).max(CUSTOMER_LIMITS.typeNameMax),
  remark: optionalText(CUSTOMER_LIMITS.remarkMax),
  /** The primary label a secondary label sits under; null or absent for a primary label. */
  parentId: z.preprocess((v) => (v === '' ? null : v), IdParamSchema.nullable().optional()),
});
export type CustomerTypeBody = z.infer<typeof CustomerTypeBodySchema>;
