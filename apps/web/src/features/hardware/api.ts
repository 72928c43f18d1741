import { Code } from '@sunward/contracts/codes';
import { HardwareModelSchema, HardwarePageSchema, type HardwareSave } from '@sunward/contracts/hardware';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client';

export const hardwareKeys = {
  all: ['hardware'] as const,
  page: (keyword: string | undefined, page: number, size: number) => ['hardware', 'page', keyword, page, size] as const,
};

const HANDLED = [Code.VALIDATION, Code.NOT_FOUND, Code.HARDWARE_MODEL_EXISTS];

export const fetchHardwarePage = (keyword: string | undefined, page: number, size: number) =>
  apiRequest('/api/v1/hardware', { query: { keyword, page, size }, schema: HardwarePageSchema });

export const createHardware = (body: HardwareSave) =>
  apiRequest('/api/v1/hardware', { method: 'POST', json: body, schema: HardwareModelSchema, tolerate: HANDLED });

export const updateHardware = (id: number, body: HardwareSave) =>
  apiRequest(`/api/v1/hardware/${id}`, { method: 'PUT', json: body, schema: HardwareModelSchema, tolerate: HANDLED });

export const deleteHardware = (id: number) =>
  apiRequest(`/api/v1/hardware/${id}`, { method: 'DELETE', schema: z.null(), tolerate: HANDLED });
