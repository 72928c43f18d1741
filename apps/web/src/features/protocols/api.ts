import { Code } from '@sunward/contracts/codes';
import { translate } from '@sunward/contracts/messages';
import {
  PROTOCOL_IMPORT_MAX_BYTES,
  ProtocolDetailSchema,
  ProtocolFileSchema,
  type ProtocolListQuery,
  ProtocolPageSchema,
  type ProtocolSave,
  ProtocolSaveSchema,
  ProtocolVersionRowSchema,
  ProtocolVersionSchema,
} from '@sunward/contracts/protocols';
import { z } from 'zod';
import { ApiCallError, apiRequest } from '../../lib/api-client';
import { currentLanguage } from '../../lib/i18n';

/** Query keys: everything under ['protocols'] is refetched after a change. */
export const protocolKeys = {
  all: ['protocols'] as const,
  page: (query: Partial<ProtocolListQuery>) => ['protocols', 'page', query] as const,
  detail: (id: number) => ['protocols', 'detail', id] as const,
  versions: (id: number) => ['protocols', 'versions', id] as const,
  version: (id: number, version: number) => ['protocols', 'version', id, version] as const,
};

/** Refusals the pages show themselves (beside the field, or in the dialog). */
const HANDLED = [
  Code.VALIDATION,
  Code.NOT_FOUND,
  Code.PROTOCOL_IDENTIFIER_EXISTS,
  Code.PROTOCOL_CODE_EXISTS,
  Code.PROTOCOL_IN_USE,
  Code.PROTOCOL_BUILT_IN,
  Code.PROTOCOL_IMPORT_TOO_LARGE,
  Code.PROTOCOL_VERSION_STALE,
  Code.PROTOCOL_FILE_INVALID,
];

export const fetchProtocolPage = (query: Partial<ProtocolListQuery>) =>
  apiRequest('/api/v1/protocols', { query: { ...query }, schema: ProtocolPageSchema });

export const fetchProtocol = (id: number) =>
  apiRequest(`/api/v1/protocols/${id}`, { schema: ProtocolDetailSchema, tolerate: [Code.NOT_FOUND] });

export const fetchProtocolVersions = (id: number) =>
  apiRequest(`/api/v1/protocols/${id}/versions`, { schema: z.array(ProtocolVersionRowSchema) });

export const fetchProtocolVersion = (id: number, version: number) =>
  apiRequest(`/api/v1/protocols/${id}/versions/${version}`, { schema: ProtocolVersionSchema });

export const createProtocol = (body: ProtocolSave) =>
  apiRequest('/api/v1/protocols', { method: 'POST', json: body, schema: ProtocolDetailSchema, tolerate: HANDLED });

export const updateProtocol = (id: number, body: ProtocolSave) =>
  apiRequest(`/api/v1/protocols/${id}`, { method: 'PUT', json: body, schema: ProtocolDetailSchema, tolerate: HANDLED });

export const setProtocolEnabled = (id: number, enabled: boolean) =>
  apiRequest(`/api/v1/protocols/${id}/enabled`, { method: 'PUT', json: { enabled }, schema: z.null(), tolerate: HANDLED });

export const deleteProtocol = (id: number) =>
  apiRequest(`/api/v1/protocols/${id}`, { method: 'DELETE', schema: z.null(), tolerate: HANDLED });

export const exportProtocol = (id: number) =>
  apiRequest(`/api/v1/protocols/${id}/export`, { schema: z.object({ fileName: z.string(), file: ProtocolFileSchema }) });

/** A file over 10 MB is refused here as the server would refuse it (4204), without sending it. */
async function readJson(file: File): Promise<unknown> {
  const refuse = (code: typeof Code.PROTOCOL_IMPORT_TOO_LARGE | typeof Code.PROTOCOL_FILE_INVALID) =>
    new ApiCallError(code, translate(currentLanguage(), `code.${code}`), null, 200);
  if (file.size > PROTOCOL_IMPORT_MAX_BYTES) throw refuse(Code.PROTOCOL_IMPORT_TOO_LARGE);
  try {
    return JSON.parse(await file.text()) as unknown;
  } catch {
    throw refuse(Code.PROTOCOL_FILE_INVALID);
  }
}

export const importProtocol = async (file: File) =>
  apiRequest('/api/v1/protocols/import', { method: 'POST', json: await readJson(file), schema: ProtocolDetailSchema, tolerate: HANDLED });

export const draftFromSunspec = async (file: File) =>
  apiRequest('/api/v1/protocols/import/sunspec', {
    method: 'POST',
    json: await readJson(file),
    schema: z.object({ draft: ProtocolSaveSchema, skipped: z.array(z.string()) }),
    tolerate: HANDLED,
  });
