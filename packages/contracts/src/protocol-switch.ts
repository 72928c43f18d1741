import { z } from 'zod';

/*
 * Switching a device's protocol with a preview (issue 19, item 1; docs/decisions.md "Switching a device's
 * protocol"): the device's latest reading read with its protocol and with the candidate, point by point,
 * then the switch itself with the password again.
 */

/** same: both read the same; changed: value or unit differ; added: only the candidate has the point;
 * removed: the candidate does not have it; no_data: the candidate reads registers the report did not carry. */
export const SWITCH_ROW_STATUSES = ['same', 'changed', 'added', 'removed', 'no_data'] as const;
export type SwitchRowStatus = (typeof SWITCH_ROW_STATUSES)[number];

const Value = z.union([z.number(), z.string()]).nullable();

export const ProtocolSwitchRowSchema = z.object({
  id: z.string(),
  label: z.object({ en: z.string(), zh: z.string() }),
  before: Value,
  unitBefore: z.string().nullable(),
  after: Value,
  unitAfter: z.string().nullable(),
  status: z.enum(SWITCH_ROW_STATUSES),
});
export type ProtocolSwitchRow = z.infer<typeof ProtocolSwitchRowSchema>;

export const ProtocolSwitchSideSchema = z.object({
  /** protocols.id */
  id: z.number().int(),
  identifier: z.string(),
  name: z.string(),
  /** The stored version number (protocol_versions.version) and the manufacturer's protocol version. */
  version: z.number().int(),
  protocolVersion: z.string(),
});
export type ProtocolSwitchSide = z.infer<typeof ProtocolSwitchSideSchema>;

export const ProtocolSwitchPreviewSchema = z.object({
  sn: z.string(),
  from: ProtocolSwitchSideSchema,
  to: ProtocolSwitchSideSchema,
  /** The reading the preview read; null when the device has not reported yet (points compared without values). */
  readingAt: z.string().nullable(),
  rows: z.array(ProtocolSwitchRowSchema),
  /** Register ranges of the reading the candidate reads no point from. */
  uncovered: z.array(z.object({ functionCode: z.number().int(), address: z.number().int(), count: z.number().int() })),
});
export type ProtocolSwitchPreview = z.infer<typeof ProtocolSwitchPreviewSchema>;

export const ProtocolSwitchQuerySchema = z.object({ protocolId: z.coerce.number().int().min(1).max(2_147_483_647) });

export const ProtocolSwitchBodySchema = z.object({
  protocolId: z.number().int().min(1).max(2_147_483_647),
  password: z.string().min(1).max(128),
});
export type ProtocolSwitchBody = z.infer<typeof ProtocolSwitchBodySchema>;

export const ProtocolSwitchResultSchema = z.object({
  sn: z.string(),
  protocolId: z.string(),
  protocolVersion: z.number().int(),
  /** The device's stored readings rewritten into the new protocol's storage order (its history carried over). */
  readingsCarried: z.number().int(),
});
export type ProtocolSwitchResult = z.infer<typeof ProtocolSwitchResultSchema>;

/**
 * Every device of a protocol moved to another of its versions: that version's content saved as the new current
 * version (the storage order stays append-only). The preview reads the latest reading of the protocol's device
 * that reported last (`sn`; null when none has reported: definitions compared without values).
 */
export const ProtocolRestorePreviewSchema = ProtocolSwitchPreviewSchema.extend({
  sn: z.string().nullable(),
  /** Devices on the protocol now: all of them decode with the restored version. */
  devices: z.number().int(),
});
export type ProtocolRestorePreview = z.infer<typeof ProtocolRestorePreviewSchema>;

export const ProtocolRestoreBodySchema = z.object({
  /** The current version the administrator previewed against: refused 4205 when another was saved since. */
  baseVersion: z.number().int().min(1),
});

export const ProtocolRestoreResultSchema = z.object({ version: z.number().int() });
