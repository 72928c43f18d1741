import { Code } from '@sunward/contracts/codes';
import {
  type CustomerAdd,
  CustomerAddResultSchema,
  CustomerCheckSchema,
  type CustomerEdit,
  CustomerPageSchema,
  type CustomerTypeBody,
  CustomerTypeSchema,
  CustomerTypeTreeSchema,
} from '@sunward/contracts/customers';
import { PermissionEntrySchema } from '@sunward/contracts/permissions';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client';

/** Query keys: everything under ['customers'] is refetched after a change. */
export const customerKeys = {
  all: ['customers'] as const,
  page: (query: Record<string, string | number | undefined>) => ['customers', 'page', query] as const,
  types: ['customers', 'types'] as const,
  tree: ['customers', 'tree'] as const,
  permissions: (id: number) => ['customers', 'permissions', id] as const,
  plants: ['customers', 'plants'] as const,
};

const HANDLED = [
  Code.VALIDATION,
  Code.NO_PERMISSION,
  Code.ACCOUNT_HAS_COMPANY,
  Code.CUSTOMER_EXISTS,
  Code.ACCOUNT_EXISTS,
  Code.CUSTOMER_TYPE_HAS_SUBTYPES,
  Code.CUSTOMER_TYPE_NAME_EXISTS,
  Code.INVITATION_PENDING,
];
const Created = z.object({ id: z.number() });
const done = { schema: z.null(), tolerate: HANDLED };

export const fetchCustomers = (query: Record<string, string | number | undefined>) =>
  apiRequest('/api/v1/customers', { query, schema: CustomerPageSchema });
export const checkCustomer = (account: string) =>
  apiRequest('/api/v1/customer/check', { query: { account }, schema: CustomerCheckSchema, tolerate: HANDLED });
export const addCustomer = (body: CustomerAdd) =>
  apiRequest('/api/v1/customer', { method: 'POST', json: body, schema: CustomerAddResultSchema, tolerate: HANDLED });
export const editCustomer = (customerId: number, companyId: number, body: CustomerEdit) =>
  apiRequest(`/api/v1/customer/${customerId}/${companyId}`, { method: 'POST', json: body, ...done });
export const deleteCustomer = (companyId: number, masterId: number) =>
  apiRequest(`/api/v1/customers/delete/${companyId}/${masterId}`, { method: 'DELETE', ...done });
export const fetchCustomerPermissions = (customerId: number) =>
  apiRequest(`/api/v1/role/${customerId}`, { schema: z.array(PermissionEntrySchema) });

/** The plants a customer can be given: the caller's (company) plants, by id and name. */
export const fetchPlantOptions = () =>
  apiRequest('/api/v1/plant', { schema: z.array(z.object({ id: z.number(), name: z.string() }).loose()) });

export const fetchTypeTree = () => apiRequest('/api/v1/customer/types', { schema: CustomerTypeTreeSchema });
export const fetchTypes = () => apiRequest('/api/v1/customerTypes', { schema: z.array(CustomerTypeSchema) });
export const createType = (body: CustomerTypeBody) =>
  apiRequest('/api/v1/customerType', { method: 'POST', json: body, schema: Created, tolerate: HANDLED });
export const updateType = (id: number, body: CustomerTypeBody) =>
  apiRequest(`/api/v1/customerType/${id}`, { method: 'POST', json: body, ...done });
export const deleteType = (id: number) => apiRequest(`/api/v1/customerType/${id}/delete`, { method: 'POST', ...done });
