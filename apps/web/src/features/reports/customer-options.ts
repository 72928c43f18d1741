import { CustomerPageSchema } from '@sunward/contracts/customers';
import { apiRequest } from '../../lib/api-client';

/**
 * The company's customers to report on whose name or account contains `keyword`, searched on the server
 * (the first 100 matches; a customer report takes all their plants).
 */
export async function fetchCustomerOptions(keyword: string): Promise<{ id: number; name: string }[]> {
  const query = { page: 1, size: 100, ...(keyword.trim() ? { keyword: keyword.trim() } : {}) };
  const page = await apiRequest('/api/v1/customers', { query, schema: CustomerPageSchema });
  return page.infos.map((c) => ({ id: c.customerId, name: c.name }));
}
