import { z } from 'zod';

/** Spec 01 §6: type 0 is a menu entry, any other type a button. */
export const PermissionType = { MENU: 0, BUTTON: 1 } as const;
export type PermissionTypeValue = (typeof PermissionType)[keyof typeof PermissionType];

interface PermissionDefinition {
  readonly key: string;
  readonly type: PermissionTypeValue;
  /** The menu entry a button or child menu belongs to; drives the permission tree picker. */
  readonly parent: string | null;
}

const menu = (key: string, parent: string | null = null): PermissionDefinition => ({ key, type: PermissionType.MENU, parent });
const button = (key: string, parent: string): PermissionDefinition => ({ key, type: PermissionType.BUTTON, parent });

/**
 * Every permission key the console knows, in menu order. The menu keys are those of spec 01 §2's
 * route table (plus inverter.view for the inverter child page, which the spec names without a key);
 * the buttons are the actions the feature screens guard. Names live in the translation files as
 * `permission.<key>`.
 */
export const PERMISSIONS = [
  menu('station.view'),
  button('station.create', 'station.view'),
  button('station.edit', 'station.view'),
  button('station.delete', 'station.view'),
  button('station.share', 'station.view'),
  button('station.transfer', 'station.view'),
  button('station.import', 'station.view'),
  button('station.export', 'station.view'),

  menu('equip.view'),
  menu('gateway.view', 'equip.view'),
  button('gateway.import', 'gateway.view'),
  button('gateway.edit', 'gateway.view'),
  button('gateway.replace', 'gateway.view'),
  button('gateway.delete', 'gateway.view'),
  menu('inverter.view', 'equip.view'),
  button('inverter.edit', 'inverter.view'),
  button('inverter.delete', 'inverter.view'),
  button('inverter.export', 'inverter.view'),
  button('inverter.control', 'inverter.view'),
  button('inverter.setting', 'inverter.view'),
  button('inverter.debug', 'inverter.view'),
  button('inverter.upgrade', 'inverter.view'),
  menu('battery.list.view', 'equip.view'),
  button('battery.edit', 'battery.list.view'),
  button('battery.delete', 'battery.list.view'),
  button('battery.upgrade', 'battery.list.view'),
  menu('smart.acSwitch', 'equip.view'),
  menu('event.view', 'equip.view'),
  button('event.export', 'event.view'),

  menu('firmware.management'),
  button('firmware.edit', 'firmware.management'),
  menu('firmware.battery.view', 'firmware.management'),
  button('firmware.battery.edit', 'firmware.battery.view'),

  menu('workdata.view'),

  menu('company.management'),
  menu('company.info', 'company.management'),
  button('company.edit', 'company.info'),
  menu('company.user', 'company.management'),
  button('company.user.edit', 'company.user'),
  menu('company.role.list.view', 'company.management'),
  button('company.role.edit', 'company.role.list.view'),

  menu('user.producer'),
  menu('customer.list.view', 'user.producer'),
  button('customer.edit', 'customer.list.view'),
  menu('customer.type.list.view', 'user.producer'),
  button('customer.type.edit', 'customer.type.list.view'),

  menu('logger.management'),
  menu('logger.upgrade.record', 'logger.management'),

  // Platform operations (Sunward): ingest health, broker and pipeline figures.
  button('system.monitor', 'logger.management'),

  // Platform management (spec 01 §2 "management": system versions, maintenance notices): platform only.
  menu('system.management'),
  menu('system.version', 'system.management'),
  menu('system.notice', 'system.management'),
  // SMS sending and record (issue 8 notifications; msg/send).
  menu('system.sms', 'system.management'),
] as const satisfies readonly PermissionDefinition[];

export type PermissionKey = (typeof PERMISSIONS)[number]['key'];

export const PERMISSION_KEYS: readonly PermissionKey[] = PERMISSIONS.map((p) => p.key);

export function isPermissionKey(value: unknown): value is PermissionKey {
  return typeof value === 'string' && (PERMISSION_KEYS as readonly string[]).includes(value);
}

export function permissionDefinition(key: PermissionKey): PermissionDefinition {
  const found = PERMISSIONS.find((p) => p.key === key);
  if (!found) throw new Error(`unknown permission ${key}`);
  return found;
}

/** One entry of GET /api/v1/permission: the caller's permissions, names in the caller's language. */
export const PermissionEntrySchema = z.object({
  id: z.number().int(),
  key: z.string(),
  name: z.string(),
  type: z.number().int(),
  parentKey: z.string().nullable(),
  sort: z.number().int(),
});
export type PermissionEntry = z.infer<typeof PermissionEntrySchema>;

export const PermissionQuerySchema = z.object({
  lan: z.string().max(10).optional(),
  /** The spec's source tag (which client asks): web, app, screen. Echoed nowhere; kept for compatibility. */
  source: z.string().max(20).optional(),
});
