import { type ChannelChildAdd, type ChannelSettings, ChannelTreeSchema } from '@sunward/contracts/channel';
import { Code } from '@sunward/contracts/codes';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client';

/** Query keys: everything under ['channel'] is refetched after a change. */
export const channelKeys = { all: ['channel'] as const, tree: ['channel', 'tree'] as const };

const HANDLED = [Code.VALIDATION, Code.COMPANY_NAME_DUPLICATE, Code.ACCOUNT_EXISTS];

export const fetchChannelTree = () => apiRequest('/api/v1/channel/tree', { schema: ChannelTreeSchema });

export const addChildCompany = (input: ChannelChildAdd) =>
  apiRequest('/api/v1/channel/company', { method: 'POST', json: input, schema: z.object({ id: z.number() }), tolerate: HANDLED });

export const saveChannelSettings = (settings: ChannelSettings) =>
  apiRequest('/api/v1/channel/settings', { method: 'POST', json: settings, schema: z.null() });
