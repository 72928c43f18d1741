import {
  GatewayCountsSchema,
  GatewayImportResultSchema,
  GatewayPageSchema,
  GatewayRefusalsSchema,
  GatewayReplaceResultSchema,
  GatewaySettingsSchema,
  ServerAddressSchema,
} from '@sunward/contracts/gateways';
import { z } from 'zod';
import { ApiCallError, apiRequest, authorizedFetch, readEnvelope, validationIssues } from '../../../lib/api-client';

export type GatewayQuery = Record<string, string | number | undefined>;

/** Query keys: everything under ['gateways'] is refetched after a change. */
export const gatewayKeys = {
  all: ['gateways'] as const,
  page: (query: GatewayQuery) => ['gateways', 'page', query] as const,
  counts: (query: GatewayQuery) => ['gateways', 'counts', query] as const,
  serverAddress: (id: number) => ['gateways', 'serverAddress', id] as const,
  refusals: (id: number) => ['gateways', 'refusals', id] as const,
};

/** Refusals the gateway screens show themselves (in the form or modal), not as a toast. */
const HANDLED = [2, 4, 300, 301, 305, 306, 307, 707];

export const fetchGatewayPage = (query: GatewayQuery) => apiRequest('/api/v1/gateways', { query, schema: GatewayPageSchema });

export const fetchGatewayCounts = (query: GatewayQuery) => apiRequest('/api/v1/gateways/count', { query, schema: GatewayCountsSchema });

export const renameGateway = (id: number, alias: string) =>
  apiRequest(`/api/v1/gateway/${id}/alias`, { method: 'POST', json: { alias }, schema: z.null(), tolerate: HANDLED });

export const fetchGatewayRefusals = (id: number) => apiRequest(`/api/v1/gateway/${id}/refusals`, { schema: GatewayRefusalsSchema });

export const fetchServerAddress = (id: number) => apiRequest(`/api/v1/gateway/${id}/serverAddress`, { schema: ServerAddressSchema });

export const setServerAddress = (id: number, host: string, port: number) =>
  apiRequest(`/api/v1/gateway/${id}/serverAddress`, {
    method: 'POST',
    json: { host, port },
    schema: GatewaySettingsSchema,
    tolerate: HANDLED,
  });

export const setLocked = (id: number, locked: boolean) =>
  apiRequest(`/api/v1/gateway/${id}/${locked ? 'lock' : 'unlock'}`, { method: 'POST', schema: GatewaySettingsSchema, tolerate: HANDLED });

export const setDigitalOutput = (id: number, on: boolean) =>
  apiRequest(`/api/v1/gateway/${id}/digitalOutput`, { method: 'POST', json: { on }, schema: GatewaySettingsSchema, tolerate: HANDLED });

export const setConnectionPassword = (id: number, password: string) =>
  apiRequest(`/api/v1/gateway/${id}/connectionPassword`, {
    method: 'POST',
    json: { password },
    schema: GatewaySettingsSchema,
    tolerate: HANDLED,
  });

export const replaceGateway = (id: number, newSn: string, newKey: string) =>
  apiRequest(`/api/v1/gateway/${id}/replace`, {
    method: 'POST',
    json: { newSn, newKey },
    schema: GatewayReplaceResultSchema,
    tolerate: HANDLED,
  });

export const deleteGateway = (id: number) =>
  apiRequest(`/api/v1/gateway/${id}/delete`, { method: 'POST', schema: z.null(), tolerate: HANDLED });

/** POST /api/v1/gateways/import: one .xls/.xlsx file; good rows registered, bad ones listed. */
export async function importGateways(file: File) {
  const body = new FormData();
  body.append('file', file, file.name);
  const response = await authorizedFetch('/api/v1/gateways/import', { method: 'POST', body, headers: { accept: 'application/json' } });
  return readEnvelope(response, GatewayImportResultSchema);
}

/**
 * The server's words for a refusal: for code 4 the field's own problem (e.g. "the gateway is locked:
 * unlock it first") rather than the generic "some values are not valid".
 */
export function refusalMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiCallError)) return undefined;
  return validationIssues(error)[0]?.message ?? (error.message || undefined);
}
