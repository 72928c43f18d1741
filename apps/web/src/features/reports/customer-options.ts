import { CustomerPageSchema } from '@sunward/contracts/customers';
import { apiRequest } from '../../lib/api-client';

/** The company's customers to report on, by name (the first 100; a customer report takes all their plants). */
export async function fetchCustomerOptions(): Promise<{ id: number; name: string }[]> {
  const page = await apiRequest('/api/v1/customers', { query: { page: 1, size: 100 }, schema: CustomerPageSchema });
  return page.infos.map((c) => ({ id: c.customerId, name: c.name }));
}
