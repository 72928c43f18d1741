import {
  type BatteryFirmwareFields,
  BatteryFirmwarePageSchema,
  BatteryFirmwareRowSchema,
  type BatteryProductFields,
  BatteryProductPageSchema,
  BatteryTypeNodeSchema,
} from '@sunward/contracts/battery-firmware';
import { Code } from '@sunward/contracts/codes';
import { z } from 'zod';
import { apiRequest, fetchFile } from '../../../lib/api-client';
import { uploadWithProgress } from '../api';

export type BatteryQuery = Record<string, string | number | undefined>;

/** Query keys: everything under ['batteryFirmware'] is refetched after a change. */
export const batteryKeys = {
  all: ['batteryFirmware'] as const,
  types: ['batteryFirmware', 'types'] as const,
  products: (query: BatteryQuery) => ['batteryFirmware', 'products', query] as const,
  images: (query: BatteryQuery) => ['batteryFirmware', 'images', query] as const,
};

/** Refusals the battery screen shows itself, beside a field or in a dialog, not as a toast. */
const HANDLED = [
  Code.NO_PERMISSION,
  Code.VALIDATION,
  Code.NOT_FOUND,
  Code.FIRMWARE_NAME_DUPLICATE,
  Code.FIRMWARE_VERSION_DUPLICATE,
  Code.BATTERY_TYPE_HAS_SUBTYPES,
  Code.BATTERY_TYPE_NAME_EXISTS,
  Code.BATTERY_TYPE_NOT_PRIMARY,
  Code.BATTERY_TYPE_IN_USE,
  Code.BATTERY_PRODUCT_NAME_EXISTS,
  Code.BATTERY_PRODUCT_IN_USE,
];
const Created = z.object({ id: z.number() });

// ---- types ----

export const fetchBatteryTypes = () => apiRequest('/api/v1/firmware/batteryType', { schema: z.array(BatteryTypeNodeSchema) });

/** Resolves when the name is free among its siblings, rejects with 4004 when taken. */
export const checkBatteryTypeName = (query: { name: string; parentId?: number; id?: number }) =>
  apiRequest('/api/v1/firmware/batteryType/check', { query, schema: z.null(), tolerate: HANDLED });

export const addBatteryType = (body: { name: string; parentId?: number }) =>
  apiRequest('/api/v1/firmware/batteryType/add', { method: 'POST', json: body, schema: Created, tolerate: HANDLED });

export const renameBatteryType = (id: number, name: string) =>
  apiRequest(`/api/v1/firmware/batteryType/${id}/edit`, { method: 'POST', json: { name }, schema: z.null(), tolerate: HANDLED });

export const moveBatteryType = (id: number, parentId: number) =>
  apiRequest(`/api/v1/firmware/batteryType/${id}/move`, { method: 'POST', json: { parentId }, schema: z.null(), tolerate: HANDLED });

export const deleteBatteryType = (id: number) =>
  apiRequest(`/api/v1/firmware/batteryType/${id}/delete`, { method: 'POST', schema: z.null(), tolerate: HANDLED });

// ---- products ----

export const fetchBatteryProducts = (query: BatteryQuery) =>
  apiRequest('/api/v1/battery/products', { query, schema: BatteryProductPageSchema });

export const checkBatteryProductName = (query: { name: string; id?: number }) =>
  apiRequest('/api/v1/battery/product/check', { query, schema: z.null(), tolerate: HANDLED });

export const createBatteryProduct = (fields: BatteryProductFields) =>
  apiRequest('/api/v1/battery/product', { method: 'POST', json: fields, schema: Created, tolerate: HANDLED });

export const updateBatteryProduct = (id: number, fields: BatteryProductFields) =>
  apiRequest(`/api/v1/battery/products/${id}`, { method: 'POST', json: fields, schema: z.null(), tolerate: HANDLED });

export const deleteBatteryProduct = (id: number) =>
  apiRequest(`/api/v1/battery/products/${id}/delete`, { method: 'POST', schema: z.null(), tolerate: HANDLED });

// ---- images ----

export const fetchBatteryFirmware = (query: BatteryQuery) =>
  apiRequest('/api/v1/firmware/battery/list', { query, schema: BatteryFirmwarePageSchema });

export const updateBatteryFirmware = (id: number, fields: BatteryFirmwareFields) =>
  apiRequest(`/api/v1/firmware/battery/${id}`, { method: 'POST', json: fields, schema: BatteryFirmwareRowSchema, tolerate: HANDLED });

export const setBatteryFirmwareEnabled = (id: number, enabled: boolean) =>
  apiRequest(`/api/v1/firmware/battery/${id}/enable`, { method: 'POST', json: { enabled }, schema: z.null(), tolerate: HANDLED });

export const deleteBatteryFirmware = (id: number) =>
  apiRequest(`/api/v1/firmware/battery/${id}/delete`, { method: 'POST', schema: z.null(), tolerate: HANDLED });

export const downloadBatteryFirmware = (id: number) => fetchFile(`/api/v1/firmware/battery/${id}/file`);

/** POST /api/v1/firmware/battery/save with upload progress. */
export const saveBatteryFirmware = (fields: Record<string, string>, file: File, onProgress: (percent: number) => void) =>
  uploadWithProgress('/api/v1/firmware/battery/save', BatteryFirmwareRowSchema, fields, file, onProgress);
