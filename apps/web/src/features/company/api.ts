import { Code } from '@sunward/contracts/codes';
import {
  AgentsSchema,
  type CompanyEdit,
  CompanyInfoSchema,
  type CompanyLogo,
  type CompanyRoleBody,
  CompanyRoleSchema,
  type StaffAdd,
  type StaffEdit,
  StaffPageSchema,
  UploadedImageSchema,
} from '@sunward/contracts/company';
import { PermissionEntrySchema } from '@sunward/contracts/permissions';
import { z } from 'zod';
import { apiRequest, authorizedFetch, fieldErrors, readEnvelope, refusalCode, refusalMessage } from '../../lib/api-client';

/** Query keys: everything under ['company'] is refetched after a change. */
export const companyKeys = {
  all: ['company'] as const,
  info: ['company', 'info'] as const,
  staff: (query: Record<string, string | number | undefined>) => ['company', 'staff', query] as const,
  roles: ['company', 'roles'] as const,
  grantable: ['company', 'grantable'] as const,
  agents: ['company', 'agents'] as const,
};

/** Refusals the company screens show beside the field or in the dialog, not as a toast. */
const HANDLED = [
  Code.VALIDATION,
  Code.NO_PERMISSION,
  Code.ACCOUNT_EXISTS,
  Code.ACCOUNT_HAS_COMPANY,
  Code.ACCOUNT_NOT_REGISTERED,
  Code.COMPANY_NAME_DUPLICATE,
  Code.OWNER_PASSWORD_WRONG,
  Code.ROLE_LIMIT,
  Code.ROLE_EXISTS,
  Code.ROLE_OWN_NOT_MODIFIABLE,
  Code.AGENT_EXISTS,
  Code.AGENT_SELF,
  Code.AGENT_INTERNAL_EMPLOYEE,
  Code.AGENT_NOT_MANAGER,
  Code.AGENT_ALREADY,
];
const Created = z.object({ id: z.number() });
const done = { schema: z.null(), tolerate: HANDLED };

export const fetchCompanyInfo = () => apiRequest('/api/v1/company/info', { schema: CompanyInfoSchema });
export const checkCompanyName = (name: string, id?: number) => apiRequest('/api/v1/company/check', { query: { name, id }, ...done });
export const editCompany = (id: number, body: CompanyEdit) =>
  apiRequest(`/api/v1/company/${id}/edit`, { method: 'POST', json: body, ...done });
export const setThemeColor = (id: number, themeColor: string) =>
  apiRequest(`/api/v1/company/${id}/themeColor`, { method: 'POST', json: { themeColor }, ...done });
export const setCompanyLogo = (id: number, logo: CompanyLogo) =>
  apiRequest(`/api/v1/company/${id}/logo`, { method: 'POST', json: logo, ...done });
export const transferAdmin = (id: number, userId: number, password: string) =>
  apiRequest(`/api/v1/company/${id}/admin`, { method: 'POST', json: { userId, password }, ...done });

/** POST company/uploadLogo (multipart): the image's URL to set as logo or icon. */
export async function uploadCompanyImage(file: File): Promise<string> {
  const body = new FormData();
  body.append('file', file, file.name);
  const response = await authorizedFetch('/api/v1/company/uploadLogo', { method: 'POST', body, headers: { accept: 'application/json' } });
  return (await readEnvelope(response, UploadedImageSchema)).url;
}

export const fetchStaff = (query: Record<string, string | number | undefined>) =>
  apiRequest('/api/v1/company/user/list', { query, schema: StaffPageSchema });
export const checkStaffAccount = (account: string) => apiRequest('/api/v1/company/user/check', { query: { account }, ...done });
export const addStaff = (body: StaffAdd) =>
  apiRequest('/api/v1/company/user/add', { method: 'POST', json: body, schema: Created, tolerate: HANDLED });
export const editStaff = (id: number, body: StaffEdit) =>
  apiRequest(`/api/v1/company/user/edit/${id}`, { method: 'POST', json: body, ...done });
export const deleteStaff = (id: number) => apiRequest(`/api/v1/company/user/delete/${id}`, { method: 'POST', ...done });

export const fetchRoles = () => apiRequest('/api/v1/company/roles', { schema: z.array(CompanyRoleSchema) });
export const fetchGrantable = () => apiRequest('/api/v1/permission/company', { schema: z.array(PermissionEntrySchema) });
export const checkRoleName = (name: string, id?: number) => apiRequest('/api/v1/company/role/check', { query: { name, id }, ...done });
export const createRole = (body: CompanyRoleBody) =>
  apiRequest('/api/v1/company/role', { method: 'POST', json: body, schema: Created, tolerate: HANDLED });
export const updateRole = (id: number, body: CompanyRoleBody) =>
  apiRequest(`/api/v1/company/role/${id}`, { method: 'POST', json: body, ...done });
export const deleteRole = (id: number) => apiRequest(`/api/v1/company/role/${id}/delete`, { method: 'POST', ...done });

export const fetchAgents = () => apiRequest('/api/v1/company/agents', { schema: AgentsSchema });
export const removeAgent = (id: number) => apiRequest(`/api/v1/company/agent/${id}/delete`, { method: 'POST', ...done });

/** Field → message, the server's words and the code of a refusal (one reading for every form, in lib/api-client). */
export { fieldErrors, refusalCode, refusalMessage };
