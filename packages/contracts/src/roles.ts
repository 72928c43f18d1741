import { COMPANY_MEMBER_PERMISSIONS, PERMISSION_KEYS, type PermissionKey } from './permissions.js';

/** The built-in roles of spec 01 §6 and spec 02 §6. Companies add up to five custom roles (issue 7). */
export const BUILT_IN_ROLES = [
  'platform_admin',
  'company_admin',
  'company_staff',
  'owner',
  'customer',
  'agent',
  'guest',
  'maintainer',
] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

export function isBuiltInRole(value: unknown): value is BuiltInRole {
  return typeof value === 'string' && (BUILT_IN_ROLES as readonly string[]).includes(value);
}

const DEVICE_READ: readonly PermissionKey[] = [
  'equip.view',
  'gateway.view',
  'inverter.view',
  'battery.list.view',
  'smart.acSwitch',
  'event.view',
];

const PLANT_OWNER: readonly PermissionKey[] = [
  'station.view',
  'station.create',
  'station.edit',
  'station.delete',
  'station.share',
  'station.transfer',
  'station.import',
  'station.export',
  'report.view',
  'report.edit',
];

const DEVICE_OPERATE: readonly PermissionKey[] = [
  ...DEVICE_READ,
  'gateway.import',
  'gateway.edit',
  'gateway.replace',
  'gateway.delete',
  'inverter.edit',
  'inverter.delete',
  'inverter.export',
  'inverter.control',
  'inverter.setting',
  'inverter.debug',
  'inverter.upgrade',
  'battery.edit',
  'battery.delete',
  'battery.upgrade',
  'smart.acSwitch.edit',
  'smart.acSwitch.delete',
  'smart.acSwitch.control',
  'meter.edit',
  'meter.delete',
  'optimizer.edit',
  'optimizer.delete',
  'meteorological.edit',
  'meteorological.delete',
  'box.edit',
  'box.delete',
  'heatPump.edit',
  'heatPump.delete',
  'event.export',
];

/** Video surveillance (issue 23): spaces are the company's, so only its own roles get them by default. */
const VIDEO: readonly PermissionKey[] = ['video.view', 'video.edit', 'video.control'];

const COMPANY_RUN: readonly PermissionKey[] = ['company.management', 'company.info', 'company.edit', ...COMPANY_MEMBER_PERMISSIONS];

const LOGS: readonly PermissionKey[] = ['logger.management', 'logger.upgrade.record', 'workdata.view'];

/**
 * Default grants per built-in role (the spec leaves per-role lists "not shown"; these are ours, see
 * docs/decisions.md). Kept as data so the server seeds them and a test can read them.
 */
export const ROLE_GRANTS: Record<BuiltInRole, readonly PermissionKey[]> = {
  platform_admin: PERMISSION_KEYS,
  company_admin: [...PLANT_OWNER, ...DEVICE_OPERATE, ...VIDEO, ...COMPANY_RUN, ...LOGS],
  company_staff: [...PLANT_OWNER, ...DEVICE_OPERATE, ...VIDEO, ...LOGS],
  owner: [...PLANT_OWNER, ...DEVICE_OPERATE, ...LOGS],
  // video.view: a customer reads the video space assigned to them and watches its cameras live (features/video).
  customer: ['station.view', 'report.view', ...DEVICE_READ, 'event.export', 'workdata.view', 'video.view'],
  agent: [...PLANT_OWNER, ...DEVICE_OPERATE, 'user.producer', 'customer.list.view', 'customer.edit', ...LOGS],
  guest: ['station.view', 'report.view', ...DEVICE_READ],
  maintainer: [
    'station.view',
    'report.view',
    ...DEVICE_READ,
    'inverter.control',
    'inverter.setting',
    'inverter.debug',
    'event.export',
    ...LOGS,
  ],
};

/** Keys only the platform may hold: a company cannot grant them to its own roles. */
export const PLATFORM_ONLY_PERMISSIONS: readonly PermissionKey[] = PERMISSION_KEYS.filter(
  (key) => key.startsWith('firmware.') || key.startsWith('system.'),
);

/** What a company administrator may put into a custom role (issue 7's role picker). */
export const COMPANY_ASSIGNABLE_PERMISSIONS: readonly PermissionKey[] = PERMISSION_KEYS.filter(
  (key) => !PLATFORM_ONLY_PERMISSIONS.includes(key),
);

/** What a customer of a company can be given. */
export const CUSTOMER_ASSIGNABLE_PERMISSIONS: readonly PermissionKey[] = ROLE_GRANTS.customer;
