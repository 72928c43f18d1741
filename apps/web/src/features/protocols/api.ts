import { Code } from '@sunward/contracts/codes';
import { translate } from '@sunward/contracts/messages';
import {
  ProtocolRestorePreviewSchema,
  ProtocolRestoreResultSchema,
  ProtocolSwitchPreviewSchema,
  ProtocolSwitchResultSchema,
} from '@sunward/contracts/protocol-switch';
import {
  PROTOCOL_IMPORT_MAX_BYTES,
  ProtocolDetailSchema,
  ProtocolFileSchema,
  type ProtocolListQuery,
  ProtocolPageSchema,
  type ProtocolSave,
  ProtocolSaveSchema,
  type ProtocolScriptSave,
  ProtocolScriptSchema,
  type ProtocolScriptTest,
  ProtocolScriptTestResultSchema,
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
  scripts: (id: number) => ['protocols', 'scripts', id] as const,
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
  Code.PROTOCOL_SCRIPT_EXISTS,
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

export const fetchScripts = (id: number) => apiRequest(`/api/v1/protocols/${id}/scripts`, { schema: z.array(ProtocolScriptSchema) });

export const addScript = (id: number, body: ProtocolScriptSave) =>
  apiRequest(`/api/v1/protocols/${id}/scripts`, { method: 'POST', json: body, schema: ProtocolScriptSchema, tolerate: HANDLED });

export const updateScript = (id: number, scriptId: number, source: string) =>
  apiRequest(`/api/v1/protocols/${id}/scripts/${scriptId}`, {
    method: 'PUT',
    json: { source },
    schema: ProtocolScriptSchema,
    tolerate: HANDLED,
  });

export const deleteScript = (id: number, scriptId: number) =>
  apiRequest(`/api/v1/protocols/${id}/scripts/${scriptId}`, { method: 'DELETE', schema: z.null(), tolerate: HANDLED });

export const testScript = (id: number, body: ProtocolScriptTest) =>
  apiRequest(`/api/v1/protocols/${id}/scripts/test`, {
    method: 'POST',
    json: body,
    schema: ProtocolScriptTestResultSchema,
    tolerate: HANDLED,
  });

/** Refusals the protocol switch shows in its dialog (beside the field, or above the table). */
const SWITCH_HANDLED = [Code.VALIDATION, Code.DEVICE_NOT_FOUND, Code.CONFIRM_PASSWORD_WRONG, Code.NOT_FOUND];

export const fetchSwitchPreview = (sn: string, protocolId: number) =>
  apiRequest(`/api/v1/device/${encodeURIComponent(sn)}/protocol/preview`, {
    query: { protocolId },
    schema: ProtocolSwitchPreviewSchema,
    tolerate: SWITCH_HANDLED,
  });

export const switchProtocol = (sn: string, protocolId: number, password: string) =>
  apiRequest(`/api/v1/device/${encodeURIComponent(sn)}/protocol`, {
    method: 'POST',
    json: { protocolId, password },
    schema: ProtocolSwitchResultSchema,
    tolerate: SWITCH_HANDLED,
  });

export const fetchRestorePreview = (id: number, version: number) =>
  apiRequest(`/api/v1/protocols/${id}/versions/${version}/preview`, { schema: ProtocolRestorePreviewSchema, tolerate: HANDLED });

export const restoreVersion = (id: number, version: number, baseVersion: number) =>
  apiRequest(`/api/v1/protocols/${id}/versions/${version}/restore`, {
    method: 'POST',
    json: { baseVersion },
    schema: ProtocolRestoreResultSchema,
    tolerate: HANDLED,
  });
