import {
  AcSwitchSelfCheckStartedSchema,
  type AcSwitchTaskBody,
  AcSwitchTaskHistorySchema,
  AcSwitchTasksSchema,
} from '@sunward/contracts/ac-switch-tasks';
import {
  type AcSwitchAddBody,
  AcSwitchCustomersSchema,
  AcSwitchImportResultSchema,
  AcSwitchPageSchema,
  AcSwitchRowSchema,
  AcSwitchSwitchResultSchema,
} from '@sunward/contracts/ac-switches';
import { z } from 'zod';
import { apiRequest, authorizedFetch, readEnvelope } from '../../../lib/api-client';

export type AcSwitchQuery = Record<string, string | number | undefined>;

/** Query keys: everything under ['acSwitches'] is refetched after a change. */
export const acSwitchKeys = {
  all: ['acSwitches'] as const,
  page: (query: AcSwitchQuery) => ['acSwitches', 'page', query] as const,
  customers: ['acSwitches', 'customers'] as const,
};

/** Refusals the switch screens show themselves (in the form, dialog or row), not as a toast. */
const HANDLED = [1, 2, 4, 135, 603, 604, 700, 708, 709, 4420, 4421, 4422, 4423, 4424, 4425, 4426, 4427, 4428, 4429];

export const fetchAcSwitchPage = (query: AcSwitchQuery) =>
  query.plantId
    ? apiRequest('/api/v1/acSwitch/getPageByStation', { query, schema: AcSwitchPageSchema, tolerate: [4400] })
    : apiRequest('/api/v1/acSwitch/getPageBySys', { query, schema: AcSwitchPageSchema, tolerate: [4400] });

export const fetchAcSwitchCustomers = () => apiRequest('/api/v1/acSwitch/customer', { schema: AcSwitchCustomersSchema });

export const addAcSwitch = (body: AcSwitchAddBody) =>
  apiRequest('/api/v1/acSwitch/add', { method: 'POST', json: body, schema: AcSwitchRowSchema, tolerate: HANDLED });

export const bindAcSwitch = (body: { sn: string; key: string; plantId: number }) =>
  apiRequest('/api/v1/acSwitch/bindBySn', { method: 'POST', json: body, schema: AcSwitchRowSchema, tolerate: HANDLED });

export const unbindAcSwitch = (id: number) =>
  apiRequest('/api/v1/acSwitch/unbindStation', { method: 'POST', json: { ids: [id] }, schema: z.null(), tolerate: HANDLED });

export const deleteAcSwitch = (id: number) =>
  apiRequest(`/api/v1/acSwitch/${id}/delete`, { method: 'POST', schema: z.null(), tolerate: HANDLED });

export const setAcSwitchFrequency = (id: number, frequency: number) =>
  apiRequest(`/api/v1/acSwitch/${id}/updateFrequency`, {
    method: 'POST',
    json: { frequency },
    schema: z.object({ written: z.boolean() }),
    tolerate: HANDLED,
  });

export const setAcSwitchAssociate = (id: number, userId: number | null) =>
  apiRequest(`/api/v1/acSwitch/${id}/updateAssociateUser`, { method: 'POST', json: { userId }, schema: z.null(), tolerate: HANDLED });

export const switchAcSwitch = (id: number, on: boolean, password: string) =>
  apiRequest(`/api/v1/acSwitch/${id}/switch`, {
    method: 'POST',
    json: { on, password, idempotencyKey: crypto.randomUUID() },
    schema: AcSwitchSwitchResultSchema,
    tolerate: HANDLED,
  });

/** POST acSwitch/importBatch: one .xls/.xlsx file (and the customer it is for); good rows registered, bad ones listed. */
export async function importAcSwitches(file: File, customerId?: number) {
  const body = new FormData();
  body.append('file', file, file.name);
  if (customerId !== undefined) body.append('customerId', String(customerId));
  const response = await authorizedFetch('/api/v1/acSwitch/importBatch', { method: 'POST', body, headers: { accept: 'application/json' } });
  return readEnvelope(response, AcSwitchImportResultSchema);
}

/** Timed tasks of one switch, and what their runs did. */
export const acSwitchTaskKeys = {
  tasks: (id: number) => ['acSwitches', 'tasks', id] as const,
  history: (id: number, page: number) => ['acSwitches', 'taskHistory', id, page] as const,
};

/** Task refusals the task form shows under its fields. */
const TASK_HANDLED = [...HANDLED, 4431, 4432, 4433, 4434, 4435, 4438];

export const fetchAcSwitchTasks = (id: number) => apiRequest(`/api/v1/acSwitch/${id}/tasks`, { schema: AcSwitchTasksSchema });

export const fetchAcSwitchTaskHistory = (id: number, page: number, size = 10) =>
  apiRequest(`/api/v1/acSwitch/${id}/tasks/history`, { query: { page, size }, schema: AcSwitchTaskHistorySchema });

export const addAcSwitchTask = (id: number, body: AcSwitchTaskBody) =>
  apiRequest(`/api/v1/acSwitch/${id}/tasks`, {
    method: 'POST',
    json: body,
    schema: z.object({ id: z.number() }),
    tolerate: TASK_HANDLED,
  });

export const setAcSwitchTaskEnabled = (id: number, taskId: number, enabled: boolean) =>
  apiRequest(`/api/v1/acSwitch/${id}/tasks/${taskId}/enabled`, {
    method: 'POST',
    json: { enabled },
    schema: z.null(),
    tolerate: TASK_HANDLED,
  });

export const deleteAcSwitchTask = (id: number, taskId: number) =>
  apiRequest(`/api/v1/acSwitch/${id}/tasks/${taskId}`, { method: 'DELETE', schema: z.null(), tolerate: TASK_HANDLED });

/** "Self-check now": the switch cuts the circuit for 10 s; its verdict lands in the task history. */
export const selfCheckAcSwitch = (id: number, password: string) =>
  apiRequest(`/api/v1/acSwitch/${id}/selfCheck`, {
    method: 'POST',
    json: { password },
    schema: AcSwitchSelfCheckStartedSchema,
    tolerate: TASK_HANDLED,
  });
