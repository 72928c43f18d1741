import { z } from 'zod';
import { versionInRange } from './firmware-compat.js';
import { DEVICE_FAMILIES } from './protocols.js';

/*
 * The hardware list and products (calls.tsv families `hardware`, `products`; spec 02 §1 "hardware list";
 * issue 19): the device models the platform knows. Platform administrators only (firmware permissions).
 */

export const HARDWARE_KINDS = [...DEVICE_FAMILIES, 'gateway'] as const;
export type HardwareKind = (typeof HARDWARE_KINDS)[number];

/** A range the firmware checks can read ("" or absent: any version). */
const compatibleRange = z
  .string()
  .trim()
  .max(100)
  .refine((range) => range === '' || versionInRange('0.0.0', range) !== undefined, 'not a version range, e.g. >=1.0.0 <3.0.0');

export const HardwareSaveSchema = z.object({
  manufacturer: z.string().trim().min(1).max(64),
  model: z.string().trim().min(1).max(64),
  kind: z.enum(HARDWARE_KINDS),
  /** protocols.identifier the model speaks; none for gateways. */
  protocolIdentifier: z.string().trim().max(40).nullable().optional(),
  /** Firmware versions the model can run, e.g. ">=1.0.0 <3.0.0"; empty: any. */
  firmwareCompatible: compatibleRange.nullable().optional(),
});
export type HardwareSave = z.infer<typeof HardwareSaveSchema>;

export const HardwareModelSchema = z.object({
  id: z.number().int(),
  manufacturer: z.string(),
  model: z.string(),
  kind: z.enum(HARDWARE_KINDS),
  protocolIdentifier: z.string().nullable(),
  firmwareCompatible: z.string().nullable(),
  builtIn: z.boolean(),
  /** Devices reporting this manufacturer and model on their nameplate. */
  devices: z.number().int(),
  creator: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type HardwareModel = z.infer<typeof HardwareModelSchema>;

export const HardwareListQuerySchema = z.object({
  keyword: z.string().trim().max(64).optional(),
  kind: z.enum(HARDWARE_KINDS).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type HardwareListQuery = z.infer<typeof HardwareListQuerySchema>;

export const HardwarePageSchema = z.object({ infos: z.array(HardwareModelSchema), total: z.number().int() });
export type HardwarePage = z.infer<typeof HardwarePageSchema>;

/** Products: the known models grouped by manufacturer (brand), for pickers and the device pages. */
export const ProductsSchema = z.array(
  z.object({
    manufacturer: z.string(),
    models: z.array(z.object({ id: z.number().int(), model: z.string(), kind: z.enum(HARDWARE_KINDS) })),
  }),
);
export type Products = z.infer<typeof ProductsSchema>;
