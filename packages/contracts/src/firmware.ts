import { z } from 'zod';
import { IdParamSchema, IdSchema } from './ids.js';

/*
 * The firmware library (spec 02 §3 Firmware, §5; issue 6): gateway and inverter images a platform
 * administrator uploads, with their MD5 (checked against the uploader's), SHA-256 and the platform's
 * Ed25519 signature over the SHA-256 digest, which devices verify before they apply an image.
 */

/**
 * Spec 02 §5: file name of letters, digits, dash, underscore or dot, at most 40 characters; .bin or
 * .hex; size above 0 and within 1.5 MB or 3 MB (FIRMWARE_MAX_MB on the server, both readings stand).
 */
export const FIRMWARE_LIMITS = {
  pageSizeMax: 100,
  nameMax: 64,
  textMax: 64,
  versionMax: 32,
  compatibleMax: 64,
  changeLogMax: 2000,
  fileNameMax: 40,
  maxMbChoices: ['1.5', '3'],
  defaultMaxMb: '1.5',
  batchDeleteMax: 100,
} as const;

export const FIRMWARE_FILE_NAME = /^[A-Za-z0-9._-]{1,40}$/;
/** Spec 02 §5 "digits, letters, dash, underscore"; the dot of ordinary version numbers (1.2.0) too. */
export const FIRMWARE_VERSION = /^[A-Za-z0-9._-]{1,32}$/;
/** A compatible range such as ">=1.2.0 <2.0.0" or "1.x": versions joined by comparison signs and spaces. */
export const FIRMWARE_COMPATIBLE = /^[A-Za-z0-9._\-<>=~^*|, ]{1,64}$/;
export const MD5_HEX = /^[A-Fa-f0-9]{32}$/;

/** Every record's type: the library's gateway and inverter images and the battery library's images. */
export const FIRMWARE_TYPES = ['gateway', 'inverter', 'battery'] as const;
export type FirmwareType = (typeof FIRMWARE_TYPES)[number];
/**
 * The types the main library (/firmware/list) uploads and lists; battery images have their own calls
 * (battery-firmware.ts) because each carries a battery type and a battery product.
 */
export const LIBRARY_FIRMWARE_TYPES = ['gateway', 'inverter'] as const;
export type LibraryFirmwareType = (typeof LIBRARY_FIRMWARE_TYPES)[number];
export const FIRMWARE_MODES = ['remote', 'local'] as const;
export type FirmwareMode = (typeof FIRMWARE_MODES)[number];
export const FIRMWARE_EXTENSIONS = ['bin', 'hex'] as const;

/** The extension of a firmware file name (lower case), or undefined when it is neither .bin nor .hex. */
export function firmwareExtension(fileName: string): (typeof FIRMWARE_EXTENSIONS)[number] | undefined {
  const m = /\.([A-Za-z0-9]+)$/.exec(fileName);
  const ext = m?.[1]?.toLowerCase();
  return ext === 'bin' || ext === 'hex' ? ext : undefined;
}

/** Largest accepted image in bytes for a FIRMWARE_MAX_MB value. */
export function firmwareMaxBytes(maxMb: number): number {
  return Math.round(maxMb * 1024 * 1024);
}

const text = (max: number) => z.string().trim().min(1).max(max);
/** Optional texts: absent or blank means none (multipart fields always arrive as strings). */
export const optionalText = (max: number, pattern?: RegExp) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
    (pattern ? z.string().max(max).regex(pattern) : z.string().max(max)).optional(),
  );

/** The metadata of a record: what the upload form sends beside the file and what an edit changes. */
export const FirmwareFieldsSchema = z.object({
  name: text(FIRMWARE_LIMITS.nameMax),
  manufacturer: text(FIRMWARE_LIMITS.textMax),
  product: text(FIRMWARE_LIMITS.textMax),
  itemNumber: optionalText(FIRMWARE_LIMITS.textMax),
  hwVersion: optionalText(FIRMWARE_LIMITS.versionMax, FIRMWARE_VERSION),
  swVersion: z.string().trim().regex(FIRMWARE_VERSION),
  swCompatible: optionalText(FIRMWARE_LIMITS.compatibleMax, FIRMWARE_COMPATIBLE),
  type: z.enum(LIBRARY_FIRMWARE_TYPES),
  mode: z.enum(FIRMWARE_MODES),
  changeLog: optionalText(FIRMWARE_LIMITS.changeLogMax),
  /**
   * Issue 24 (channel hierarchy): the company the image is authorised for (offered only within its
   * subtree); null or blank: every company. Absent on an edit: unchanged. Multipart sends it as text.
   */
  companyId: z.preprocess(
    (v) => (v === '' || v === 'null' ? null : typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v),
    IdSchema.nullable().optional(),
  ),
});
export type FirmwareFields = z.infer<typeof FirmwareFieldsSchema>;

/**
 * The multipart upload's fields: the metadata, the file's name (multipart bodies reach the routes as
 * key → value, so the name travels as a field the form fills from the picked file) and the MD5 the
 * uploader states. The file itself is the field "file".
 */
export const FirmwareUploadFieldsSchema = FirmwareFieldsSchema.extend({
  fileName: z.string().trim().min(1),
  md5: z.string().trim().regex(MD5_HEX),
});
export type FirmwareUploadFields = z.infer<typeof FirmwareUploadFieldsSchema>;

export const booleanText = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

export const FirmwareListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(FIRMWARE_LIMITS.pageSizeMax).default(20),
  /** Name, product or manufacturer, substring, case-insensitive. */
  keyword: z.string().trim().max(64).optional(),
  type: z.enum(LIBRARY_FIRMWARE_TYPES).optional(),
  enabled: booleanText.optional(),
});
export type FirmwareListQuery = z.infer<typeof FirmwareListQuerySchema>;

export const FirmwareRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  manufacturer: z.string(),
  product: z.string(),
  itemNumber: z.string().nullable(),
  hwVersion: z.string().nullable(),
  swVersion: z.string(),
  swCompatible: z.string().nullable(),
  type: z.enum(FIRMWARE_TYPES),
  mode: z.enum(FIRMWARE_MODES),
  fileName: z.string(),
  /** Bytes. */
  size: z.number(),
  md5: z.string(),
  sha256: z.string(),
  /** Ed25519 over the SHA-256 digest, base64. */
  signature: z.string(),
  enabled: z.boolean(),
  changeLog: z.string().nullable(),
  creator: z.string().nullable(),
  createdAt: z.string(),
  /** The company the image is authorised for (issue 24); null: every company. */
  companyId: z.number().nullable(),
  companyName: z.string().nullable(),
});
export type FirmwareRow = z.infer<typeof FirmwareRowSchema>;

export const FirmwarePageSchema = z.object({ infos: z.array(FirmwareRowSchema), total: z.number() });
export type FirmwarePage = z.infer<typeof FirmwarePageSchema>;

/** The live uniqueness check of the form; `id` leaves the record being edited out. */
export const FirmwareCheckQuerySchema = z.object({
  name: z.string().trim().max(FIRMWARE_LIMITS.nameMax).optional(),
  swVersion: z.string().trim().max(FIRMWARE_LIMITS.versionMax).optional(),
  type: z.enum(FIRMWARE_TYPES).optional(),
  id: IdParamSchema.optional(),
});
export type FirmwareCheckQuery = z.infer<typeof FirmwareCheckQuerySchema>;

export const FirmwareEnableSchema = z.object({ enabled: booleanText });

export const FirmwareBatchDeleteQuerySchema = z.object({
  ids: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10})*$/)
    .transform((v) => [...new Set(v.split(',').map(Number))])
    .pipe(z.array(IdSchema).min(1).max(FIRMWARE_LIMITS.batchDeleteMax)),
});

export const FirmwareSettingsSchema = z.object({ maxBytes: z.number(), fileNameMax: z.number() });
export type FirmwareSettings = z.infer<typeof FirmwareSettingsSchema>;

export const FirmwarePublicKeySchema = z.object({ algorithm: z.literal('Ed25519'), publicKey: z.string() });
export type FirmwarePublicKey = z.infer<typeof FirmwarePublicKeySchema>;

/** What the upgrade picker shows of an enabled, remotely installable image (operators, not only admins). */
export const FirmwareOptionSchema = z.object({ id: z.number(), name: z.string(), product: z.string(), swVersion: z.string() });
export type FirmwareOption = z.infer<typeof FirmwareOptionSchema>;
