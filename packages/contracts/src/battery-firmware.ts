import { z } from 'zod';
import {
  booleanText,
  FIRMWARE_COMPATIBLE,
  FIRMWARE_LIMITS,
  FIRMWARE_MODES,
  FIRMWARE_VERSION,
  FirmwareRowSchema,
  MD5_HEX,
  optionalText,
} from './firmware.js';
import { IdParamSchema } from './ids.js';
import { isPlainText } from './validators.js';

/*
 * The battery firmware library (spec 01 §3 Firmware, spec 02 §3 Firmware; issue 6): battery types as
 * a two-level tree (primary labels with secondary labels under them), battery products of a secondary
 * type, and battery images, each for one secondary type and one product. Images share the firmware
 * table and upload checks with the main library (type 'battery').
 */

export const BATTERY_LIMITS = {
  typeNameMax: 32,
  productNameMax: 64,
  productTextMax: 64,
  remarkMax: 200,
  pageSizeMax: 100,
} as const;

const id = IdParamSchema;
/** A name typed in a text input: trimmed, no special characters (spec 01 §5 global key rule). */
const plainName = (max: number) => z.string().trim().min(1).max(max).refine(isPlainText, { message: 'validation.specialCharacters' });

// ---- Battery types ----

/** A secondary label, with how many products and images use it (a used type cannot be deleted). */
export const BatterySubtypeSchema = z.object({
  id: z.number(),
  name: z.string(),
  parentId: z.number(),
  products: z.number(),
  firmware: z.number(),
});
export type BatterySubtype = z.infer<typeof BatterySubtypeSchema>;

/** A primary label and its secondary labels, both by name. */
export const BatteryTypeNodeSchema = z.object({
  id: z.number(),
  name: z.string(),
  children: z.array(BatterySubtypeSchema),
});
export type BatteryTypeNode = z.infer<typeof BatteryTypeNodeSchema>;

/** A new type: a primary without parentId, a secondary under the primary parentId. */
export const BatteryTypeAddSchema = z.object({
  name: plainName(BATTERY_LIMITS.typeNameMax),
  parentId: id.nullish(),
});
export type BatteryTypeAdd = z.infer<typeof BatteryTypeAddSchema>;

export const BatteryTypeEditSchema = z.object({ name: plainName(BATTERY_LIMITS.typeNameMax) });

/** Moves a secondary label under another primary. */
export const BatteryTypeMoveSchema = z.object({ parentId: id });

/** The live check of the type form: is the name free among its siblings? `id` leaves that type out. */
export const BatteryTypeCheckQuerySchema = z.object({
  name: z.string().trim().min(1).max(BATTERY_LIMITS.typeNameMax),
  parentId: id.optional(),
  id: id.optional(),
});
export type BatteryTypeCheckQuery = z.infer<typeof BatteryTypeCheckQuerySchema>;

/** Where a type sits, for rows that name one: "LFP / 48 V rack". */
export const BatteryTypeRefSchema = z.object({ id: z.number(), name: z.string(), parentId: z.number(), parentName: z.string() });
export type BatteryTypeRef = z.infer<typeof BatteryTypeRefSchema>;

// ---- Battery products ----

export const BatteryProductFieldsSchema = z.object({
  name: plainName(BATTERY_LIMITS.productNameMax),
  manufacturer: z.string().trim().min(1).max(BATTERY_LIMITS.productTextMax),
  model: z.string().trim().min(1).max(BATTERY_LIMITS.productTextMax),
  /** A secondary label. */
  batteryTypeId: id,
  remark: optionalText(BATTERY_LIMITS.remarkMax),
});
export type BatteryProductFields = z.infer<typeof BatteryProductFieldsSchema>;

export const BatteryProductRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  manufacturer: z.string(),
  model: z.string(),
  batteryType: BatteryTypeRefSchema,
  remark: z.string().nullable(),
  /** Battery images of this product (a product with images cannot be deleted). */
  firmware: z.number(),
  createdAt: z.string(),
});
export type BatteryProductRow = z.infer<typeof BatteryProductRowSchema>;

export const BatteryProductListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(BATTERY_LIMITS.pageSizeMax).default(20),
  /** Name, manufacturer or model, substring, case-insensitive. */
  keyword: z.string().trim().max(64).optional(),
  /** A secondary label, or a primary for every product of its secondary labels. */
  batteryTypeId: id.optional(),
});
export type BatteryProductListQuery = z.infer<typeof BatteryProductListQuerySchema>;

export const BatteryProductPageSchema = z.object({ infos: z.array(BatteryProductRowSchema), total: z.number() });
export type BatteryProductPage = z.infer<typeof BatteryProductPageSchema>;

export const BatteryProductCheckQuerySchema = z.object({
  name: z.string().trim().min(1).max(BATTERY_LIMITS.productNameMax),
  id: id.optional(),
});

// ---- Battery images ----

/**
 * A battery image's metadata. Manufacturer and product name come from the battery product, so the
 * release log and the main records read the same for every type.
 */
export const BatteryFirmwareFieldsSchema = z.object({
  name: z.string().trim().min(1).max(FIRMWARE_LIMITS.nameMax),
  /** A secondary label; the product must be of it. */
  batteryTypeId: id,
  batteryProductId: id,
  itemNumber: optionalText(FIRMWARE_LIMITS.textMax),
  hwVersion: optionalText(FIRMWARE_LIMITS.versionMax, FIRMWARE_VERSION),
  swVersion: z.string().trim().regex(FIRMWARE_VERSION),
  swCompatible: optionalText(FIRMWARE_LIMITS.compatibleMax, FIRMWARE_COMPATIBLE),
  mode: z.enum(FIRMWARE_MODES),
  changeLog: optionalText(FIRMWARE_LIMITS.changeLogMax),
});
export type BatteryFirmwareFields = z.infer<typeof BatteryFirmwareFieldsSchema>;

/** The multipart save: the metadata, the file's name and the MD5 the uploader states; the file is "file". */
export const BatteryFirmwareUploadFieldsSchema = BatteryFirmwareFieldsSchema.extend({
  fileName: z.string().trim().min(1),
  md5: z.string().trim().regex(MD5_HEX),
});
export type BatteryFirmwareUploadFields = z.infer<typeof BatteryFirmwareUploadFieldsSchema>;

export const BatteryFirmwareRowSchema = FirmwareRowSchema.extend({
  type: z.literal('battery'),
  batteryType: BatteryTypeRefSchema,
  batteryProduct: z.object({ id: z.number(), name: z.string(), model: z.string() }),
});
export type BatteryFirmwareRow = z.infer<typeof BatteryFirmwareRowSchema>;

export const BatteryFirmwareListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(BATTERY_LIMITS.pageSizeMax).default(20),
  /** Name, product or manufacturer, substring, case-insensitive. */
  keyword: z.string().trim().max(64).optional(),
  /** A secondary label, or a primary for the images of all its secondary labels. */
  batteryTypeId: id.optional(),
  batteryProductId: id.optional(),
  enabled: booleanText.optional(),
});
export type BatteryFirmwareListQuery = z.infer<typeof BatteryFirmwareListQuerySchema>;

export const BatteryFirmwarePageSchema = z.object({ infos: z.array(BatteryFirmwareRowSchema), total: z.number() });
export type BatteryFirmwarePage = z.infer<typeof BatteryFirmwarePageSchema>;
