import { z } from 'zod';
import { GATEWAY_SN_PATTERN } from './gateway-protocol.js';

/**
 * Smart AC switches (issue 22 part 1, spec 01 §1 and §7 `/api/v1/acSwitch`): the registry of switches by SN
 * and key, master and sub switches, plant binding, upload frequency, associated user, and switching on or off
 * over the gateway protocol. A switch reaches the platform through a gateway of its plant, which reports it
 * like any device (family ac_switch); the registry row links to that device by SN.
 */
export const AC_SWITCH_LIMITS = {
  pageSizeMax: 100,
  importRowsMax: 1000,
  keyMaxLength: 64,
  /** Data upload frequency in minutes. */
  frequencyMin: 1,
  frequencyMax: 60,
  frequencyDefault: 5,
} as const;

/** Same shape as a gateway SN: 2–32 letters, digits, - or _. */
export const AC_SWITCH_SN_PATTERN = GATEWAY_SN_PATTERN;

const sn = z.string().trim().min(1).max(64);
const key = z.string().trim().min(1).max(AC_SWITCH_LIMITS.keyMaxLength);

/** What the switch last reported of itself (St of the vendor-ac-switch map), null before its first report. */
export const AC_SWITCH_STATES = ['off', 'on', 'tripped', 'fault'] as const;
export type AcSwitchState = (typeof AC_SWITCH_STATES)[number];

export const AcSwitchRowSchema = z.object({
  id: z.number(),
  sn: z.string(),
  /** A sub switch's master (its SN); null for a master switch. */
  masterSn: z.string().nullable(),
  subCount: z.number(),
  alias: z.string().nullable(),
  companyId: z.number().nullable(),
  customerId: z.number().nullable(),
  customerAccount: z.string().nullable(),
  plantId: z.number().nullable(),
  plantName: z.string().nullable(),
  frequency: z.number(),
  associateUserId: z.number().nullable(),
  associateAccount: z.string().nullable(),
  /** The gateway reporting the switch, null until one does. */
  gatewaySn: z.string().nullable(),
  online: z.boolean(),
  state: z.enum(AC_SWITCH_STATES).nullable(),
  /** Switched off with its own button: only the button switches it on again (spec 02 §4). */
  offLocally: z.boolean(),
  powerW: z.number().nullable(),
  leakageMa: z.number().nullable(),
  lastReportAt: z.string().nullable(),
  createdAt: z.string(),
  /** The caller's level: operate switches it, manage edits it. */
  access: z.enum(['view', 'operate', 'manage']),
});
export type AcSwitchRow = z.infer<typeof AcSwitchRowSchema>;

export const AcSwitchPageSchema = z.object({ infos: z.array(AcSwitchRowSchema), total: z.number() });
export type AcSwitchPage = z.infer<typeof AcSwitchPageSchema>;

const pageFields = {
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(AC_SWITCH_LIMITS.pageSizeMax).default(10),
  keyword: z.string().trim().max(64).optional(),
};

export const AcSwitchSysPageQuerySchema = z.object({
  ...pageFields,
  /** bound: in a plant; unbound: not in a plant; stock: in no company yet (platform). */
  scope: z.enum(['all', 'bound', 'unbound', 'stock']).default('all'),
});
export type AcSwitchSysPageQuery = z.infer<typeof AcSwitchSysPageQuerySchema>;

export const AcSwitchStationPageQuerySchema = z.object({ ...pageFields, plantId: z.coerce.number().int().positive() });
export type AcSwitchStationPageQuery = z.infer<typeof AcSwitchStationPageQuerySchema>;

/** add: one switch registered in the caller's company, optionally a sub switch, optionally in a plant. */
export const AcSwitchAddBodySchema = z.object({
  sn,
  key,
  masterSn: sn.optional(),
  alias: z.string().trim().max(200).optional(),
  plantId: z.number().int().positive().optional(),
});
export type AcSwitchAddBody = z.infer<typeof AcSwitchAddBodySchema>;

/** importOne: one switch registered for a customer of the caller's company (or the company itself). */
export const AcSwitchImportOneBodySchema = z.object({
  sn,
  key,
  masterSn: sn.optional(),
  customerId: z.number().int().positive().optional(),
});
export type AcSwitchImportOneBody = z.infer<typeof AcSwitchImportOneBodySchema>;

/** importOneBySys: one switch registered by the platform, in no company (stock claimed with bindBySn). */
export const AcSwitchImportSysBodySchema = z.object({ sn, key, masterSn: sn.optional() });
export type AcSwitchImportSysBody = z.infer<typeof AcSwitchImportSysBodySchema>;

export const AcSwitchCheckBodySchema = z.object({ sn, key });
export const AcSwitchCheckResultSchema = z.object({
  sn: z.string(),
  /** The SN is in the registry (the caller's reach or the platform stock). */
  registered: z.boolean(),
  keyMatches: z.boolean(),
  /** Already in a plant: bindBySn would be refused. */
  bound: z.boolean(),
});
export type AcSwitchCheckResult = z.infer<typeof AcSwitchCheckResultSchema>;

export const AcSwitchBindBodySchema = z.object({ sn, key, plantId: z.number().int().positive() });
export type AcSwitchBindBody = z.infer<typeof AcSwitchBindBodySchema>;

export const AcSwitchUnbindStationBodySchema = z.object({ ids: z.array(z.number().int().positive()).min(1).max(100) });

export const AcSwitchFrequencyBodySchema = z.object({
  frequency: z.number().int().min(AC_SWITCH_LIMITS.frequencyMin).max(AC_SWITCH_LIMITS.frequencyMax),
});

export const AcSwitchAssociateBodySchema = z.object({ userId: z.number().int().positive().nullable() });

/** A row-level problem of an import file; the server sends it in the caller's language. */
export const AC_SWITCH_IMPORT_PROBLEMS = [
  'snMissing',
  'snInvalid',
  'keyMissing',
  'keyInvalid',
  'duplicateInFile',
  'alreadyRegistered',
  /** A sub switch whose master is neither registered within reach nor a master row of the file. */
  'masterMissing',
  /** The named master is itself a sub switch. */
  'masterIsSub',
] as const;
export type AcSwitchImportProblem = (typeof AC_SWITCH_IMPORT_PROBLEMS)[number];

export const AcSwitchImportErrorSchema = z.object({
  row: z.number(),
  sn: z.string(),
  problem: z.enum(AC_SWITCH_IMPORT_PROBLEMS),
  message: z.string(),
});

export const AcSwitchImportResultSchema = z.object({ imported: z.number(), errors: z.array(AcSwitchImportErrorSchema) });
export type AcSwitchImportResult = z.infer<typeof AcSwitchImportResultSchema>;

/** checkImportEquip / checkMultipleEquipBySys: what an import of the file would do, nothing stored. */
export const AcSwitchImportCheckSchema = z.object({
  valid: z.array(z.object({ row: z.number(), sn: z.string(), masterSn: z.string().nullable() })),
  errors: z.array(AcSwitchImportErrorSchema),
});
export type AcSwitchImportCheck = z.infer<typeof AcSwitchImportCheckSchema>;

export const AcSwitchCustomerSchema = z.object({ userId: z.number(), account: z.string(), name: z.string().nullable() });
export const AcSwitchCustomersSchema = z.array(AcSwitchCustomerSchema);
export type AcSwitchCustomer = z.infer<typeof AcSwitchCustomerSchema>;

/** On/off from the console, confirmed by the switch; the password again like every remote command. */
export const AcSwitchSwitchBodySchema = z.object({
  on: z.boolean(),
  password: z.string().max(128).optional(),
  idempotencyKey: z.string().min(1).max(64).optional(),
});
export type AcSwitchSwitchBody = z.infer<typeof AcSwitchSwitchBodySchema>;

export const AcSwitchSwitchResultSchema = z.object({ commandId: z.number(), state: z.enum(AC_SWITCH_STATES) });
export type AcSwitchSwitchResult = z.infer<typeof AcSwitchSwitchResultSchema>;
