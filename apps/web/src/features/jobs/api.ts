import { BackgroundJobListSchema } from '@sunward/contracts/jobs';
import { apiRequest } from '../../lib/api-client';

export const jobKeys = { list: ['jobs', 'list'] as const };

export const fetchJobs = () => apiRequest('/api/v1/system/jobs', { schema: BackgroundJobListSchema });
