import {
  type ApiKeyCreate,
  ApiKeyCreatedSchema,
  ApiKeyRowSchema,
  type WebhookCreate,
  WebhookCreatedSchema,
  WebhookDeliverySchema,
  WebhookRowSchema,
} from '@sunward/contracts/open-api';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client';

export const openApiKeys = {
  keys: ['openApi', 'keys'] as const,
  webhooks: ['openApi', 'webhooks'] as const,
  deliveries: (id: number) => ['openApi', 'webhooks', id, 'deliveries'] as const,
};

export const fetchApiKeys = () => apiRequest('/api/v1/openApi/keys', { schema: z.array(ApiKeyRowSchema) });

export const createApiKey = (input: ApiKeyCreate) =>
  apiRequest('/api/v1/openApi/keys', { method: 'POST', json: input, schema: ApiKeyCreatedSchema });

export const revokeApiKey = (id: number) => apiRequest(`/api/v1/openApi/keys/${id}/revoke`, { method: 'POST', json: {}, schema: z.null() });

export const fetchWebhooks = () => apiRequest('/api/v1/openApi/webhooks', { schema: z.array(WebhookRowSchema) });

export const createWebhook = (input: WebhookCreate) =>
  apiRequest('/api/v1/openApi/webhooks', { method: 'POST', json: input, schema: WebhookCreatedSchema });

export const deleteWebhook = (id: number) =>
  apiRequest(`/api/v1/openApi/webhooks/${id}/delete`, { method: 'POST', json: {}, schema: z.null() });

export const fetchDeliveries = (id: number) =>
  apiRequest(`/api/v1/openApi/webhooks/${id}/deliveries`, { schema: z.array(WebhookDeliverySchema) });
