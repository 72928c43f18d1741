import { z } from 'zod';
import type { DeviceKind } from './devices.js';

/** Spec 01 §6: type 0 is a menu entry, any other type a button. */
export const PermissionType = { MENU: 0, BUTTON: 1 } as const;
export type PermissionTypeValue = (typeof PermissionType)[keyof typeof PermissionType];

/**
 * What holding a key lets one do (issue 15.2): `view` reads (menus, exports, figures), `operate` acts on
 * equipment without changing records (commands, settings, upgrades, sending), `manage` creates, edits or
 * deletes records. A route that changes anything must be guarded by an operate or manage key
 * (apps/server/src/plugins/auth.ts refuses to start otherwise).
 */
export const PERMISSION_KINDS = ['view', 'operate', 'manage'] as const;
export type PermissionKind = (typeof PERMISSION_KINDS)[number];

interface PermissionDefinition {
  readonly key: string;
  readonly type: PermissionTypeValue;
  /** The menu entry a button or child menu belongs to; drives the permission tree picker. */
  readonly parent: string | null;
  readonly kind: PermissionKind;
  /**
   * For a key added after databases already held custom roles: the keys whose holders did what this key now
   * guards. When the key first appears in a database, every custom role holding one of them receives it.
   */
  readonly carriedFrom?: readonly string[];
}

const menu = <const K extends string>(key: K, parent: string | null = null) =>
  ({ key, type: PermissionType.MENU, parent, kind: 'view' }) as const;
function button<const K extends string, const D extends PermissionKind>(key: K, parent: string, kind: D, carriedFrom?: readonly string[]) {
  return carriedFrom
    ? ({ key, type: PermissionType.BUTTON, parent, kind, carriedFrom } as const)
    : ({ key, type: PermissionType.BUTTON, parent, kind } as const);
}

/** Before these keys existed, equip.view alone let a holder rename and delete these devices (issue 15.2). */
const DEVICE_EDITORS = ['inverter.edit', 'battery.edit', 'gateway.edit'];
const DEVICE_DELETERS = ['inverter.delete', 'battery.delete', 'gateway.delete'];

/**
 * Every permission key the console knows, in menu order. The menu keys are those of spec 01 §2's
 * route table (plus inverter.view for the inverter child page, which the spec names without a key);
 * the buttons are the actions the feature screens guard. Names live in the translation files as
 * `permission.<key>`.
 */
export const PERMISSIONS = [
  menu('station.view'),
  button('station.create', 'station.view', 'manage'),
  button('station.edit', 'station.view', 'manage'),
  button('station.delete', 'station.view', 'manage'),
  button('station.share', 'station.view', 'manage'),
  button('station.transfer', 'station.view', 'manage'),
  button('station.import', 'station.view', 'manage'),
  button('station.export', 'station.view', 'view'),

  // Reports (issue 21): spec 01 §2 names the area without a path; /report in the console.
  menu('report.view'),
  button('report.edit', 'report.view', 'manage', ['station.edit']),

  menu('equip.view'),
  menu('gateway.view', 'equip.view'),
  button('gateway.import', 'gateway.view', 'manage'),
  button('gateway.edit', 'gateway.view', 'manage'),
  button('gateway.replace', 'gateway.view', 'manage'),
  button('gateway.delete', 'gateway.view', 'manage'),
  menu('inverter.view', 'equip.view'),
  button('inverter.edit', 'inverter.view', 'manage'),
  button('inverter.delete', 'inverter.view', 'manage'),
  button('inverter.export', 'inverter.view', 'view'),
  button('inverter.control', 'inverter.view', 'operate'),
  button('inverter.setting', 'inverter.view', 'operate'),
  button('inverter.debug', 'inverter.view', 'operate'),
  button('inverter.upgrade', 'inverter.view', 'operate'),
  menu('battery.list.view', 'equip.view'),
  button('battery.edit', 'battery.list.view', 'manage'),
  button('battery.delete', 'battery.list.view', 'manage'),
  button('battery.upgrade', 'battery.list.view', 'operate'),
  menu('smart.acSwitch', 'equip.view'),
  button('smart.acSwitch.edit', 'smart.acSwitch', 'manage', DEVICE_EDITORS),
  button('smart.acSwitch.delete', 'smart.acSwitch', 'manage', DEVICE_DELETERS),
  button('smart.acSwitch.control', 'smart.acSwitch', 'operate', ['inverter.control']),
  // Video surveillance (issue 23): spaces and cameras, live video and playback; behind the company's camera app.
  menu('video.view', 'equip.view'),
  button('video.edit', 'video.view', 'manage', DEVICE_EDITORS),
  button('video.control', 'video.view', 'operate', ['inverter.control']),
  // The families spec 01 §2 gives no page of their own: listed under equip.view, edited with their own keys.
  button('meter.edit', 'equip.view', 'manage', DEVICE_EDITORS),
  button('meter.delete', 'equip.view', 'manage', DEVICE_DELETERS),
  button('optimizer.edit', 'equip.view', 'manage', DEVICE_EDITORS),
  button('optimizer.delete', 'equip.view', 'manage', DEVICE_DELETERS),
  button('meteorological.edit', 'equip.view', 'manage', DEVICE_EDITORS),
  button('meteorological.delete', 'equip.view', 'manage', DEVICE_DELETERS),
  button('box.edit', 'equip.view', 'manage', DEVICE_EDITORS),
  button('box.delete', 'equip.view', 'manage', DEVICE_DELETERS),
  button('heatPump.edit', 'equip.view', 'manage', DEVICE_EDITORS),
  button('heatPump.delete', 'equip.view', 'manage', DEVICE_DELETERS),
  menu('event.view', 'equip.view'),
  button('event.export', 'event.view', 'view'),
  // Event descriptions per protocol (issue 21): platform texts, imported from .xlsx.
  button('event.description.import', 'event.view', 'manage'),

  menu('firmware.management'),
  button('firmware.edit', 'firmware.management', 'manage'),
  menu('firmware.battery.view', 'firmware.management'),
  button('firmware.battery.edit', 'firmware.battery.view', 'manage'),

  menu('workdata.view'),

  menu('company.management'),
  menu('company.info', 'company.management'),
  button('company.edit', 'company.info', 'manage'),
  menu('company.user', 'company.management'),
  button('company.user.edit', 'company.user', 'manage'),
  menu('company.role.list.view', 'company.management'),
  button('company.role.edit', 'company.role.list.view', 'manage'),

  menu('user.producer'),
  menu('customer.list.view', 'user.producer'),
  button('customer.edit', 'customer.list.view', 'manage'),
  menu('customer.type.list.view', 'user.producer'),
  button('customer.type.edit', 'customer.type.list.view', 'manage'),

  menu('logger.management'),
  menu('logger.upgrade.record', 'logger.management'),

  // Platform operations (Sunward): ingest health, broker and pipeline figures.
  button('system.monitor', 'logger.management', 'view'),

  // Platform management (spec 01 §2 "management": system versions, maintenance notices): platform only.
  menu('system.management'),
  menu('system.version', 'system.management'),
  button('system.version.edit', 'system.version', 'manage', ['system.version']),
  menu('system.notice', 'system.management'),
  button('system.notice.edit', 'system.notice', 'manage', ['system.notice']),
  // SMS sending and record (issue 8 notifications; msg/send).
  menu('system.sms', 'system.management'),
  button('system.sms.send', 'system.sms', 'operate', ['system.sms']),
  // Device protocols (issue 19; spec 02 §6: only platform administrators manage protocols).
  menu('system.protocol', 'system.management'),
  button('system.protocol.edit', 'system.protocol', 'manage', ['system.protocol']),
  // Dictionary and OEM projects (issue 24): platform only (spec 02 §6).
  menu('system.dict', 'system.management'),
  button('system.dict.edit', 'system.dict', 'manage', ['system.dict']),
  menu('system.oem', 'system.management'),
  button('system.oem.edit', 'system.oem', 'manage', ['system.oem']),
  // Background jobs (issue 26): their schedules and last runs; platform only.
  menu('system.jobs', 'system.management'),
] as const;

// Every entry is a PermissionDefinition (checked here, not by `satisfies`, which would widen each kind).
const _definitions: readonly PermissionDefinition[] = PERMISSIONS;
void _definitions;

export type PermissionKey = (typeof PERMISSIONS)[number]['key'];

export const PERMISSION_KEYS: readonly PermissionKey[] = PERMISSIONS.map((p) => p.key);

export function isPermissionKey(value: unknown): value is PermissionKey {
  return typeof value === 'string' && (PERMISSION_KEYS as readonly string[]).includes(value);
}

export type PermissionKeyOfKind<K extends PermissionKind> = Extract<(typeof PERMISSIONS)[number], { kind: K }>['key'];

export function permissionKind(key: PermissionKey): PermissionKind {
  return permissionDefinition(key).kind;
}

/**
 * The keys of each device kind's calls (spec 01 §2), shared by the server's routes and the console's buttons.
 * Kinds the spec gives no page of their own are listed and read under equip.view.
 */
export const DEVICE_KIND_ACCESS: Record<
  DeviceKind,
  { view: PermissionKeyOfKind<'view'>; edit: PermissionKeyOfKind<'manage'>; remove: PermissionKeyOfKind<'manage'> }
> = {
  inverter: { view: 'inverter.view', edit: 'inverter.edit', remove: 'inverter.delete' },
  battery: { view: 'battery.list.view', edit: 'battery.edit', remove: 'battery.delete' },
  meter: { view: 'equip.view', edit: 'meter.edit', remove: 'meter.delete' },
  optimizer: { view: 'equip.view', edit: 'optimizer.edit', remove: 'optimizer.delete' },
  weather_station: { view: 'equip.view', edit: 'meteorological.edit', remove: 'meteorological.delete' },
  combiner_box: { view: 'equip.view', edit: 'box.edit', remove: 'box.delete' },
  heat_pump: { view: 'equip.view', edit: 'heatPump.edit', remove: 'heatPump.delete' },
  ac_switch: { view: 'smart.acSwitch', edit: 'smart.acSwitch.edit', remove: 'smart.acSwitch.delete' },
};

/**
 * Keys that act on the caller's own company (its members, roles, customers and customer types): the server
 * answers them only inside a company, so an account outside any (the platform administrator, an independent
 * owner) holds them to no effect. `effectivePermissions` drops them there, for the route guards and for the
 * permission list the console builds its menu from alike: the menu shows what the calls answer (issue 18).
 */
export const COMPANY_MEMBER_PERMISSIONS: readonly PermissionKey[] = [
  'company.user',
  'company.user.edit',
  'company.role.list.view',
  'company.role.edit',
  'user.producer',
  'customer.list.view',
  'customer.edit',
  'customer.type.list.view',
  'customer.type.edit',
];

/** What an account may do: its role's keys, less those of a company when it belongs to none. */
export function effectivePermissions(keys: Iterable<PermissionKey>, inCompany: boolean): Set<PermissionKey> {
  const held = new Set(keys);
  if (!inCompany) for (const key of COMPANY_MEMBER_PERMISSIONS) held.delete(key);
  return held;
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
