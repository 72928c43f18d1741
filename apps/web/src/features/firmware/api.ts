import { Code } from '@sunward/contracts/codes';
import {
  type FirmwareFields,
  FirmwarePageSchema,
  FirmwareRowSchema,
  FirmwareSettingsSchema,
  type FirmwareType,
} from '@sunward/contracts/firmware';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { z } from 'zod';
import { ApiCallError, apiRequest, authorizedFetch, fetchFile, fieldErrors, readEnvelope, refusalMessage } from '../../lib/api-client';
import { currentLanguage } from '../../lib/i18n';
import { storedSession } from '../../lib/storage';

export type FirmwareQuery = Record<string, string | number | undefined>;

/** Query keys: everything under ['firmware'] is refetched after a change. */
export const firmwareKeys = {
  all: ['firmware'] as const,
  page: (query: FirmwareQuery) => ['firmware', 'page', query] as const,
  settings: ['firmware', 'settings'] as const,
  companies: (keyword: string) => ['firmware', 'companies', keyword] as const,
};

/** Refusals the firmware screen shows itself, beside the field or in the dialog, not as a toast. */
const HANDLED = [Code.NO_PERMISSION, Code.VALIDATION, Code.NOT_FOUND, Code.FIRMWARE_NAME_DUPLICATE, Code.FIRMWARE_VERSION_DUPLICATE];

export const fetchFirmwarePage = (query: FirmwareQuery) => apiRequest('/api/v1/firmware/page', { query, schema: FirmwarePageSchema });

/** Companies an image can be authorised for (issue 24): a platform administrator's list, by name, first 50. */
export const fetchFirmwareCompanies = (keyword?: string) =>
  apiRequest('/api/v1/fullscreen/companies', {
    query: { keyword: keyword || undefined },
    schema: z.array(z.object({ id: z.number(), name: z.string() })),
  });

export const fetchFirmwareSettings = () => apiRequest('/api/v1/firmware/settings', { schema: FirmwareSettingsSchema });

/** The live uniqueness check: resolves when free, rejects with 4000 or 4002 when taken. */
export const checkFirmware = (query: { name?: string; swVersion?: string; type?: FirmwareType; id?: number }) =>
  apiRequest('/api/v1/firmware/check', { query, schema: z.null(), tolerate: HANDLED });

export const updateFirmware = (id: number, fields: FirmwareFields) =>
  apiRequest(`/api/v1/firmware/${id}`, { method: 'POST', json: fields, schema: FirmwareRowSchema, tolerate: HANDLED });

export const setFirmwareEnabled = (id: number, enabled: boolean) =>
  apiRequest(`/api/v1/firmware/${id}/enable`, { method: 'POST', json: { enabled }, schema: z.null(), tolerate: HANDLED });

export const deleteFirmware = (id: number) => apiRequest(`/api/v1/firmware/${id}/delete`, { schema: z.null(), tolerate: HANDLED });

export const batchDeleteFirmware = (ids: readonly number[]) =>
  apiRequest('/api/v1/firmware/batchDelete', {
    query: { ids: ids.join(',') },
    schema: z.object({ deleted: z.number() }),
    tolerate: HANDLED,
  });

export const downloadFirmware = (id: number) => fetchFile(`/api/v1/firmware/${id}/file`);

function xhrUpload(
  path: string,
  body: FormData,
  token: string | undefined,
  onProgress: (percent: number) => void,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('accept-language', LANGUAGE_TAGS[currentLanguage()]);
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new ApiCallError(Code.SERVER_ERROR, '', null, 0));
    xhr.send(body);
  });
}

/**
 * A multipart POST of fields and one file "file" with upload progress (fetch reports none, so
 * XMLHttpRequest). An expired token (HTTP 401) is sent once more through authorizedFetch, which
 * refreshes the session first. The main and the battery library upload through it.
 */
export async function uploadWithProgress<T>(
  path: string,
  schema: z.ZodType<T>,
  fields: Record<string, string>,
  file: File,
  onProgress: (percent: number) => void,
): Promise<T> {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  body.append('file', file, file.name);
  const first = await xhrUpload(path, body, storedSession.read()?.access_token, onProgress);
  const response =
    first.status === 401
      ? await authorizedFetch(path, { method: 'POST', body, headers: { accept: 'application/json' } })
      : new Response(first.text, { status: first.status, headers: { 'content-type': 'application/json' } });
  return readEnvelope(response, schema);
}

/** POST /api/v1/firmware: a gateway or inverter image. */
export const uploadFirmware = (fields: Record<string, string>, file: File, onProgress: (percent: number) => void) =>
  uploadWithProgress('/api/v1/firmware', FirmwareRowSchema, fields, file, onProgress);

/** Field → message and the server's words for a refusal (one reading for every form, in lib/api-client). */
export { fieldErrors, refusalMessage };
