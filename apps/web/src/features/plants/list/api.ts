import { Code } from '@sunward/contracts/codes';
import { DownloadRecordSchema } from '@sunward/contracts/files';
import {
  PlantMapSchema,
  PlantPageSchema,
  PlantRowSchema,
  PlantStatusCountSchema,
  type ShareRole,
  ShareUserSchema,
} from '@sunward/contracts/plants';
import { z } from 'zod';
import { apiRequest, authorizedFetch, fetchFile, readEnvelope } from '../../../lib/api-client';
import { fetchPlantOptions, PLANT_OPTIONS_KEY } from '../../../lib/plant-options';
import type { ApiQuery } from './list-params';

/** Query keys: everything under ['plants'] is refetched after a share, transfer or delete. */
export const plantKeys = {
  all: ['plants'] as const,
  page: (query: ApiQuery) => ['plants', 'page', query] as const,
  counts: ['plants', 'counts'] as const,
  map: (query: ApiQuery) => ['plants', 'map', query] as const,
  row: (id: number) => ['plants', 'row', id] as const,
  regions: ['plants', 'regions'] as const,
  options: PLANT_OPTIONS_KEY,
  shareUsers: (id: number) => ['plants', 'shareUsers', id] as const,
};

export function fetchPlantPage(query: ApiQuery) {
  return apiRequest('/api/v1/plants', { query, schema: PlantPageSchema });
}

export function fetchStatusCounts() {
  return apiRequest('/api/v1/overview/plantCount', { schema: PlantStatusCountSchema });
}

export function fetchMapMarkers(query: ApiQuery) {
  return apiRequest('/api/v1/plants/map', { query, schema: PlantMapSchema });
}

export function fetchPlantRow(id: number) {
  return apiRequest(`/api/v1/plant/${id}/list/info`, { schema: PlantRowSchema });
}

export function fetchRegions() {
  return apiRequest('/api/v1/plant/filter', { schema: z.object({ regions: z.array(z.string()) }) });
}

/** Plants the caller can pick, by name (the import and download dialogs); shared in lib/plant-options. */
export { fetchPlantOptions };

const WhereSchema = z.object({ code: z.literal(0), data: z.object({ inChina: z.number() }) });

/**
 * GET /anonymous/ip for the tile choice; `inChina` is undefined when the call fails, which picks the
 * China-reachable source. A plain fetch, so a failure never raises the client's "server not responding"
 * dialog. Shared with the wizard's location map (same query key, same shape).
 */
export async function fetchInChina(): Promise<{ inChina: number | undefined }> {
  try {
    const response = await fetch('/anonymous/ip', { headers: { accept: 'application/json' } });
    const parsed = WhereSchema.safeParse(await response.json());
    return { inChina: parsed.success ? parsed.data.data.inChina : undefined };
  } catch {
    return { inChina: undefined };
  }
}

export function fetchShareUsers(id: number) {
  return apiRequest(`/api/v1/plant/${id}/getShareUsers`, { schema: z.array(ShareUserSchema) });
}

/** Refusals the share dialog shows beside its fields instead of a toast. */
export const SHARE_REFUSALS = [
  Code.SHARE_WITH_SELF,
  Code.SHARE_TO_COMPANY_USER,
  Code.SHARE_COMPANY_PLANT,
  Code.ACCOUNT_NOT_REGISTERED,
  Code.NO_PERMISSION,
  Code.VALIDATION,
] as const;

export function sharePlant(id: number, account: string, role: ShareRole) {
  return apiRequest(`/api/v1/plant/${id}/share`, { method: 'POST', json: { account, role }, schema: z.null(), tolerate: SHARE_REFUSALS });
}

export function cancelShare(id: number, userId: number) {
  return apiRequest(`/api/v1/plant/${id}/cancelShare`, { method: 'POST', json: { userId }, schema: z.null() });
}

export const TRANSFER_REFUSALS = [
  Code.TRANSFER_TO_SELF,
  Code.OWNER_PASSWORD_WRONG,
  Code.TOO_MANY_ATTEMPTS,
  Code.ACCOUNT_NOT_REGISTERED,
  Code.NO_PERMISSION,
  Code.VALIDATION,
] as const;

export function transferPlant(id: number, account: string, password: string) {
  return apiRequest(`/api/v1/plant/${id}/transfer`, {
    method: 'POST',
    json: { account, password },
    schema: z.null(),
    tolerate: TRANSFER_REFUSALS,
  });
}

export function deletePlant(id: number) {
  return apiRequest(`/api/v1/plant/${id}/delete`, { method: 'POST', schema: z.null() });
}

/** POST /api/v1/predicted/import: one .xls/.xlsx file of predicted daily energy for a plant. */
export async function importPrediction(plantId: number, file: File) {
  const body = new FormData();
  body.append('plantId', String(plantId));
  body.append('file', file, file.name);
  const response = await authorizedFetch('/api/v1/predicted/import', { method: 'POST', body, headers: { accept: 'application/json' } });
  return readEnvelope(response, z.object({ imported: z.number() }));
}

/**
 * GET /api/v1/plant/generation/download: the daily generation as an .xlsx file. A refusal (706, too
 * many records) comes back as a JSON envelope instead of the file.
 */
export function downloadGeneration(plantId: number, from: string, to: string): Promise<{ blob: Blob; disposition: string | null }> {
  return fetchFile(`/api/v1/plant/generation/download?${new URLSearchParams({ plantId: String(plantId), from, to })}`);
}

/**
 * POST /api/v1/plant/generation/download/background: the same workbook prepared in the caller's download
 * centre, for periods past the immediate download's limit (issue 21).
 */
export function exportGenerationInBackground(plantId: number, from: string, to: string) {
  return apiRequest('/api/v1/plant/generation/download/background', {
    method: 'POST',
    query: { plantId: String(plantId), from, to },
    schema: DownloadRecordSchema,
  });
}
