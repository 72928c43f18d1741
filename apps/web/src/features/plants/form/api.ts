import { Code } from '@sunward/contracts/codes';
import {
  DictEntrySchema,
  type GatewayBinding,
  type GatewayCheck,
  GatewayCheckSchema,
  type PlantCreate,
  PlantDetailSchema,
  type PlantFields,
  PlantGatewaySchema,
  type Tariff,
  TariffSchema,
} from '@sunward/contracts/plants';
import { z } from 'zod';
import { apiRequest, authorizedFetch, readEnvelope, validationIssues } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';

/** Query keys of the plant form; everything under ['plants'] is also what the list refetches. */
export const plantFormKeys = {
  detail: (id: number) => ['plants', 'detail', id] as const,
  tariff: (id: number) => ['plants', 'tariff', id] as const,
  gateways: (id: number) => ['plants', 'gateways', id] as const,
  dict: (name: DictName) => ['dict', name, currentLanguage()] as const,
};

/** Refusals a gateway row shows beside its fields instead of a toast (135: too many wrong keys for this SN or from here). */
export const GATEWAY_REFUSALS = [
  Code.GATEWAY_REGISTRATION_WRONG,
  Code.GATEWAY_USED,
  Code.GATEWAY_NOT_FOUND,
  Code.TOO_MANY_ATTEMPTS,
  Code.VALIDATION,
] as const;

/** Refusals the plant forms show beside the named field. */
export const FIELD_REFUSALS = [Code.VALIDATION, Code.COORDINATES_INVALID, ...GATEWAY_REFUSALS] as const;

export type { GatewayCheck };

export function checkGateway(binding: GatewayBinding) {
  return apiRequest('/api/v1/gateways/check', { method: 'POST', json: binding, schema: GatewayCheckSchema, tolerate: GATEWAY_REFUSALS });
}

export function createPlant(plant: PlantCreate) {
  return apiRequest('/api/v1/plant', { method: 'POST', json: plant, schema: z.object({ id: z.number() }), tolerate: FIELD_REFUSALS });
}

export function fetchPlant(id: number) {
  return apiRequest(`/api/v1/plant/${id}`, { schema: PlantDetailSchema, tolerate: [Code.PLANT_NOT_FOUND, Code.NO_PERMISSION] });
}

export function updatePlant(id: number, fields: PlantFields) {
  return apiRequest(`/api/v1/plant/${id}`, {
    method: 'POST',
    json: fields,
    schema: z.object({ id: z.number() }),
    tolerate: FIELD_REFUSALS,
  });
}

export function fetchTariff(id: number) {
  return apiRequest(`/api/v1/plant/${id}/income`, { schema: TariffSchema.nullable() });
}

export function saveTariff(id: number, tariff: Tariff) {
  return apiRequest(`/api/v1/plant/${id}/income`, { method: 'POST', json: tariff, schema: z.null(), tolerate: [Code.VALIDATION] });
}

export function fetchPlantGateways(id: number) {
  return apiRequest(`/api/v1/plant/${id}/gateway`, { schema: z.array(PlantGatewaySchema) });
}

export function bindGateway(id: number, binding: GatewayBinding) {
  return apiRequest(`/api/v1/plant/${id}/gateway`, { method: 'POST', json: binding, schema: z.null(), tolerate: GATEWAY_REFUSALS });
}

export type DictName = 'currencies' | 'timezones' | 'plantTypes';

export function fetchDict(name: DictName) {
  return apiRequest(`/api/v1/dict/${name}`, { schema: z.array(DictEntrySchema) });
}

/** The field problems of a code-4 refusal (one reading for every form, in lib/api-client). */
export { validationIssues };

/** POST /api/v1/plant/thumbnail, multipart field `file`: the stored picture's URL. */
export async function uploadPlantPicture(file: File): Promise<string> {
  const body = new FormData();
  body.append('file', file, file.name);
  const response = await authorizedFetch('/api/v1/plant/thumbnail', { method: 'POST', body, headers: { accept: 'application/json' } });
  return (await readEnvelope(response, z.object({ url: z.string() }))).url;
}
