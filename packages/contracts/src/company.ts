import { z } from 'zod';
import { IdParamSchema } from './ids.js';
import { SentInvitationSchema } from './invitations.js';
import { PermissionEntrySchema } from './permissions.js';

/*
 * The company area (spec 01 §2 /enterprise, §7 "Company"; spec 02 §3 company, employee, role; issue 7):
 * company information, logo and theme colour, administrator transfer, staff, custom roles and agents.
 */

export const COMPANY_LIMITS = {
  nameMax: 64,
  textMax: 64,
  addressMax: 200,
  remarkMax: 200,
  roleNameMax: 32,
  /** Spec 01 §9 / spec 02 §9: custom roles per company. */
  rolesMax: 5,
  pageSizeMax: 100,
  /** Logo or icon image size; the spec gives none, a logo is a few kilobytes. */
  logoMaxBytes: 1024 * 1024,
  /** Spec 02 §5 size guidance: expanded menu logo and collapsed (reduced) icon. */
  logoGuide: { width: 220, height: 58 },
  iconGuide: { width: 58, height: 58 },
} as const;

/** Spec 02 §5: company logo jpg, jpeg, gif or png (the type is judged by content on the server). */
export const LOGO_EXTENSIONS = ['jpg', 'jpeg', 'gif', 'png'] as const;

export const THEME_COLOR = /^#[0-9A-Fa-f]{6}$/;
/** What a logo or icon URL must look like: one the server issued from an upload. */
export const COMPANY_IMAGE_URL = /^\/api\/v1\/files\/company\/[a-f0-9]{32}\.(png|jpg|gif)$/;

const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v), z.string().max(max).nullable().optional());

export const CompanyInfoSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contactName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  logoUrl: z.string().nullable(),
  iconUrl: z.string().nullable(),
  themeColor: z.string(),
  admin: z.object({ id: z.number().int(), account: z.string(), nickname: z.string() }).nullable(),
  /** Present once the two-factor work adds companies.require_two_factor; null before. */
  requireTwoFactor: z.boolean().nullable(),
  staffCount: z.number().int(),
  createdAt: z.string(),
});
export type CompanyInfo = z.infer<typeof CompanyInfoSchema>;

export const CompanyEditSchema = z.object({
  name: z.string().trim().min(1).max(COMPANY_LIMITS.nameMax),
  contactName: optionalText(COMPANY_LIMITS.textMax),
  email: optionalText(COMPANY_LIMITS.textMax),
  phone: optionalText(16),
  address: optionalText(COMPANY_LIMITS.addressMax),
  /** Staff must sign in with two factors; applied only once the two-factor work has added the setting. */
  requireTwoFactor: z.boolean().optional(),
});
export type CompanyEdit = z.infer<typeof CompanyEditSchema>;

/** POST company/add: a company and its administrator (an existing account without a company). */
export const CompanyAddSchema = CompanyEditSchema.extend({
  /** The administrator's account; the caller's own when absent. */
  adminAccount: z.string().trim().max(64).optional(),
});
export type CompanyAdd = z.infer<typeof CompanyAddSchema>;

export const CompanyCheckQuerySchema = z.object({
  name: z.string().trim().min(1).max(COMPANY_LIMITS.nameMax),
  /** The company being edited, left out of the comparison. */
  id: IdParamSchema.optional(),
});

export const ThemeColorSchema = z.object({ themeColor: z.string().regex(THEME_COLOR) });

export const CompanyLogoSchema = z.object({
  logoUrl: z.string().regex(COMPANY_IMAGE_URL).nullable(),
  iconUrl: z.string().regex(COMPANY_IMAGE_URL).nullable(),
});
export type CompanyLogo = z.infer<typeof CompanyLogoSchema>;

export const LOGO_KINDS = ['logo', 'icon'] as const;
export const UploadedImageSchema = z.object({ url: z.string() });

export const AdminTransferSchema = z.object({
  userId: IdParamSchema,
  /** The current administrator's own password, to confirm. */
  password: z.string().min(1).max(128),
});

// ---- Staff ----

export const StaffRowSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  nickname: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  roleId: z.number().int(),
  roleName: z.string(),
  /** company_admin, company_staff or custom. */
  roleKey: z.string(),
  isAdmin: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type StaffRow = z.infer<typeof StaffRowSchema>;
export const StaffPageSchema = z.object({ infos: z.array(StaffRowSchema), total: z.number().int() });

export const StaffListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(COMPANY_LIMITS.pageSizeMax).default(20),
  keyword: z.string().trim().max(64).optional(),
  roleId: IdParamSchema.optional(),
});

const staffFields = {
  nickname: z.string().trim().min(1).max(32),
  email: optionalText(COMPANY_LIMITS.textMax),
  phone: optionalText(16),
  roleId: IdParamSchema,
};

/** POST company/user/add (form): a new account in the caller's company with one role. */
export const StaffAddSchema = z.object({
  account: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(128),
  ...staffFields,
});
export type StaffAdd = z.infer<typeof StaffAddSchema>;

export const StaffEditSchema = z.object(staffFields);
export type StaffEdit = z.infer<typeof StaffEditSchema>;

export const AccountCheckQuerySchema = z.object({ account: z.string().trim().min(1).max(64) });

// ---- Roles ----

export const CompanyRoleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  remark: z.string().nullable(),
  /** company_admin and company_staff are built in (not editable); custom roles are the company's. */
  builtIn: z.boolean(),
  key: z.string(),
  permissions: z.array(z.string()),
  memberCount: z.number().int(),
  /** The caller's own role: the editor refuses it (802). */
  own: z.boolean(),
});
export type CompanyRole = z.infer<typeof CompanyRoleSchema>;

export const CompanyRoleBodySchema = z.object({
  name: z.string().trim().min(1).max(COMPANY_LIMITS.roleNameMax),
  remark: optionalText(COMPANY_LIMITS.remarkMax),
  permissions: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string().max(64)).max(200)),
});
export type CompanyRoleBody = z.infer<typeof CompanyRoleBodySchema>;

export const RoleCheckQuerySchema = z.object({
  name: z.string().trim().min(1).max(COMPANY_LIMITS.roleNameMax),
  id: IdParamSchema.optional(),
});

// ---- Agents ----

export const AgentRowSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  account: z.string(),
  nickname: z.string(),
  companyName: z.string().nullable(),
  createdAt: z.string(),
});
export type AgentRow = z.infer<typeof AgentRowSchema>;

export const AgentsSchema = z.object({
  /** The agents this company appointed. */
  agents: z.array(AgentRowSchema),
  /** The companies the caller's company is agent of (the caller is their administrator). */
  principals: z.array(z.object({ companyId: z.number().int(), companyName: z.string(), since: z.string() })),
  /** Invitations to become its agent the company sent and that are still open (issue 15.4). */
  invitations: z.array(SentInvitationSchema),
});

export const AgentAddSchema = z.object({ account: z.string().trim().min(1).max(64) });

export const CustomerPermissionsSchema = z.array(PermissionEntrySchema);
