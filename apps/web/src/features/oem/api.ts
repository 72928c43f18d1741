import { Code } from '@sunward/contracts/codes';
import { type OemFields, type OemImageSlot, OemListSchema, OemProjectSchema } from '@sunward/contracts/oem';
import { z } from 'zod';
import { apiRequest, authorizedFetch, readEnvelope } from '../../lib/api-client';

export const oemKeys = {
  all: ['oem'] as const,
  list: ['oem', 'list'] as const,
  companies: (keyword: string) => ['oem', 'companies', keyword] as const,
};

const HANDLED = [
  Code.VALIDATION,
  Code.NOT_FOUND,
  Code.OEM_DOMAIN_EXISTS,
  Code.OEM_DOMAIN_FORMAT,
  Code.OEM_DOMAIN_CHANGE_TOO_SOON,
  Code.OEM_COMPANY_TAKEN,
  Code.OEM_APK_EXISTS,
];

export const fetchOemProjects = () => apiRequest('/api/v1/oems', { schema: OemListSchema });

export const fetchOemCompanies = (keyword: string) =>
  apiRequest('/api/v1/oem/companies', {
    query: { keyword: keyword || undefined },
    schema: z.array(z.object({ id: z.number(), name: z.string() })),
  });

export const createOem = (fields: OemFields) =>
  apiRequest('/api/v1/oem', { method: 'POST', json: fields, schema: OemProjectSchema, tolerate: HANDLED });

export const updateOem = (id: number, fields: OemFields) =>
  apiRequest(`/api/v1/oem/${id}`, { method: 'POST', json: fields, schema: OemProjectSchema, tolerate: HANDLED });

export const setOemEnabled = (id: number, enabled: boolean) =>
  apiRequest(`/api/v1/oem/${id}/enabled`, { method: 'POST', json: { enabled }, schema: OemProjectSchema, tolerate: HANDLED });

export const deleteOemApk = (id: number, apkId: number) =>
  apiRequest(`/api/v1/oem/${id}/apk/${apkId}/delete`, { method: 'POST', json: {}, schema: OemProjectSchema, tolerate: HANDLED });

/** Sends a file as the request body (the server judges it by its content, not its name). */
async function sendFile(path: string, file: Blob) {
  const response = await authorizedFetch(path, { method: 'POST', body: file, headers: { 'content-type': 'application/octet-stream' } });
  return readEnvelope(response, OemProjectSchema);
}

export const uploadOemImage = (id: number, slot: OemImageSlot, file: Blob) => sendFile(`/api/v1/oem/${id}/image/${slot}`, file);

export const uploadOemApk = (id: number, version: string, file: Blob) =>
  sendFile(`/api/v1/oem/${id}/apk?version=${encodeURIComponent(version)}`, file);
