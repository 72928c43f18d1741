// The one database schema, PostgreSQL dialect; it runs unchanged on PGlite and on real PostgreSQL.
// Migrations in ./migrations are generated from it with `npm run db:generate -w @sunward/server`.
// No relative imports here: drizzle-kit loads this file on its own.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const companies = pgTable(
  'companies',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull().unique(),
    logoUrl: text('logo_url'),
    iconUrl: text('icon_url'),
    themeColor: text('theme_color').notNull().default('#E6002D'),
    /** Devices its users may command per minute (remote operation safety; issue 6). */
    commandCapPerMinute: integer('command_cap_per_minute').notNull().default(100),
    createdAt: createdAt(),
    // Company information (issue 7, spec 02 §3 company: contact name, e-mail, phone, address).
    contactName: text('contact_name'),
    email: text('email'),
    phone: text('phone'),
    address: text('address'),
    /** Accounts (issue 7): staff must sign in with a second factor (TOTP); those without one enrol right after sign-in. */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    /**
     * Channel hierarchy (issue 24): the company that created this one (maker → distributor → installer →
     * owner). Set once at creation and never changed, so the tree has no cycles; subtree checks are one
     * recursive query (lib/company-tree.ts).
     */
    parentId: integer('parent_id').references((): AnyPgColumn => companies.id),
    /** maker, distributor, installer or owner; a child's kind is always below its parent's. */
    kind: text('kind').notNull().default('maker'),
    /** Its children may use their own logo and colour instead of inheriting this company's branding. */
    childBranding: boolean('child_branding').notNull().default(false),
    /** Its users are told about alarms in the plants of its whole subtree, not only its own. */
    notifySubtree: boolean('notify_subtree').notNull().default(false),
  },
  (t) => [index('companies_parent').on(t.parentId)],
);

/** The permission catalogue, synced at start from packages/contracts so ids stay stable. */
export const permissions = pgTable('permissions', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  key: text('key').notNull().unique(),
  type: smallint('type').notNull(),
  parentKey: text('parent_key'),
  sort: integer('sort').notNull(),
});

/** Built-in roles have no company; companies' custom roles (at most five) carry their company. */
export const roles = pgTable(
  'roles',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    name: text('name').notNull(),
    builtIn: boolean('built_in').notNull().default(false),
    remark: text('remark'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('roles_built_in_key').on(t.key).where(sql`${t.companyId} is null`),
    uniqueIndex('roles_company_name').on(t.companyId, t.name).where(sql`${t.companyId} is not null`),
  ],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionKey: text('permission_key')
      .notNull()
      .references(() => permissions.key, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionKey] })],
);

export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  /** Sign-in name, stored lower-case so accounts are unique regardless of case. */
  account: text('account').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  nickname: text('nickname').notNull(),
  avatar: text('avatar'),
  email: text('email'),
  phone: text('phone'),
  roleId: integer('role_id')
    .notNull()
    .references(() => roles.id),
  companyId: integer('company_id').references(() => companies.id),
  readOnly: boolean('read_only').notNull().default(false),
  language: text('language').notNull().default('en'),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  // Accounts (issue 7): personalized settings and two-factor sign-in (TOTP, RFC 6238).
  /** user/personalized: language, look, home page, page size (contracts PersonalizedSchema). */
  preferences: jsonb('preferences'),
  /** The TOTP secret (base32) once two-factor sign-in is on; it must be readable to check codes, so it is not hashed. */
  totpSecret: text('totp_secret'),
  totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
  /** A secret offered by set-up, until the first code confirms it. */
  totpPendingSecret: text('totp_pending_secret'),
  /** The last 30-second step a code was accepted for: a code is accepted once (no replay within its window). */
  totpLastStep: integer('totp_last_step'),
});

/** A signed-in device: one refresh-token family. Revoking it ends every token it issued. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokeReason: text('revoke_reason'),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/** Tokens are opaque random strings; only their SHA-256 is stored, so a database leak yields no usable token. */
export const sessionTokens = pgTable(
  'session_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when a refresh token has been exchanged; presenting it again is reuse. */
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('session_tokens_session').on(t.sessionId)],
);

/** Failed sign-in counters per account and per address (key "account:x" or "ip:y"). */
export const signInFailures = pgTable('sign_in_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  firstFailedAt: timestamp('first_failed_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** In-app messages (notification centre). State 0 unread, 1 read. */
export const messages = pgTable(
  'messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: smallint('type').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    state: smallint('state').notNull().default(0),
    createdAt: createdAt(),
    /** Equipment alarms: what the message is about (plant, device, event code, opened or cleared), for links and filters. */
    data: jsonb('data'),
  },
  (t) => [index('messages_user_state').on(t.userId, t.state), index('messages_user_created').on(t.userId, t.createdAt)],
);

// ---- Notifications: e-mail alarms and SMS (issue 8) ----

/**
 * A user's e-mail alarm settings (user/notify): on or off, the verified address alarms go to, the
 * levels wanted for every plant and per-plant overrides. The pending_* columns hold a verification code
 * sent by user/notify/code (its SHA-256 only) until the address is confirmed.
 */
export const notifySettings = pgTable('notify_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  email: text('email'),
  /** Event levels e-mailed for every plant the user sees (fault, protect, warning). */
  levels: jsonb('levels').notNull().default(['fault']),
  /** Per-plant overrides: [{plantId, levels}]; empty levels mute that plant. */
  plants: jsonb('plants').notNull().default([]),
  pendingEmail: text('pending_email'),
  codeHash: text('code_hash'),
  codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
  codeAttempts: integer('code_attempts').notNull().default(0),
  codeSentAt: timestamp('code_sent_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every e-mail the notification service sends (alarm, digest, verification code) with its state: pending
 * until the SMTP server accepts it, retried with backoff, failed after the last attempt.
 */
export const emailDeliveries = pgTable(
  'email_deliveries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    to: text('to').notNull(),
    /** alarm, digest or code */
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    /** Alarms this e-mail carries (a digest carries several). */
    items: integer('items').notNull().default(1),
    /** pending, sent, failed */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** A file sent along (a scheduled report): its path on this server and the name the recipient sees. */
    attachmentPath: text('attachment_path'),
    attachmentName: text('attachment_name'),
  },
  (t) => [index('email_deliveries_due').on(t.status, t.nextAttemptAt), index('email_deliveries_user').on(t.userId, t.createdAt)],
);

/** Alarms waiting to be e-mailed: collected for a few seconds so many at once go as one digest. */
export const alarmEmailItems = pgTable(
  'alarm_email_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
    /** Set once the item went into an e-mail. */
    deliveryId: integer('delivery_id'),
  },
  (t) => [index('alarm_email_items_waiting').on(t.userId).where(sql`${t.deliveryId} is null`)],
);

/** The SMS send log (msg/send): one row per recipient with the provider's answer. */
export const smsMessages = pgTable(
  'sms_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id'),
    account: text('account').notNull(),
    phone: text('phone').notNull(),
    content: text('content').notNull(),
    /** log (no provider: recorded only) or http */
    provider: text('provider').notNull(),
    /** sent, failed, logged */
    status: text('status').notNull(),
    providerId: text('provider_id'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('sms_messages_created').on(t.createdAt),
    index('sms_messages_user').on(t.userId, t.createdAt),
    index('sms_messages_phone').on(t.phone, t.createdAt),
  ],
);

// ---- Telemetry (issue 3) ----

/** Plants: the fields telemetry needs (location and time zone for day boundaries); issue 4 adds the rest. */
export const plants = pgTable(
  'plants',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    companyId: integer('company_id').references(() => companies.id),
    ownerId: integer('owner_id').references(() => users.id),
    plantType: smallint('plant_type').notNull().default(1),
    capacityKwp: doublePrecision('capacity_kwp').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    timezone: text('timezone').notNull(),
    address: text('address'),
    status: smallint('status').notNull().default(2),
    createdAt: createdAt(),
    alias: text('alias'),
    gridDate: date('grid_date', { mode: 'string' }),
    region: text('region'),
    picture: text('picture'),
    contactName: text('contact_name'),
    contactPhone: text('contact_phone'),
    installer: text('installer'),
    ownerName: text('owner_name'),
    meteringTopology: text('metering_topology').notNull().default('gross'),
    /** The tariff as the wizard sent it (packages/contracts plants.ts TariffSchema). */
    tariff: jsonb('tariff'),
    /** Kept current by the ingest pipeline (a few seconds behind) so lists sort and page in the database. */
    powerW: doublePrecision('power_w'),
    energyTodayWh: doublePrecision('energy_today_wh'),
    energyTotalWh: doublePrecision('energy_total_wh'),
    lastUpdateAt: timestamp('last_update_at', { withTimezone: true }),
  },
  (t) => [
    index('plants_company').on(t.companyId),
    index('plants_owner').on(t.ownerId),
    index('plants_status').on(t.status),
    index('plants_created').on(t.createdAt, t.id),
  ],
);

/** Plants shared with guests (read-only) and maintainers (may operate devices), spec 02 §6. */
export const plantShares = pgTable(
  'plant_shares',
  {
    plantId: integer('plant_id')
      .notNull()
      .references(() => plants.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['guest', 'maintainer'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.plantId, t.userId] }), index('plant_shares_user').on(t.userId)],
);

/** Predicted generation per plant-local day, imported from a workbook. */
export const plantPredictions = pgTable(
  'plant_predictions',
  {
    plantId: integer('plant_id')
      .notNull()
      .references(() => plants.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    energyWh: doublePrecision('energy_wh').notNull(),
  },
  (t) => [primaryKey({ columns: [t.plantId, t.day] })],
);

/** Saved layouts (logical and physical views) per plant; the editor arrives with a later issue. */
export const plantLayouts = pgTable(
  'plant_layouts',
  {
    plantId: integer('plant_id')
      .notNull()
      .references(() => plants.id, { onDelete: 'cascade' }),
    view: text('view').notNull(),
    type: text('type').notNull(),
    content: jsonb('content').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.plantId, t.view, t.type] })],
);

/** Data loggers. The registration key is stored as SHA-256: it is a random secret, not a human password. */
export const gateways = pgTable(
  'gateways',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    sn: text('sn').notNull().unique(),
    keyHash: text('key_hash').notNull(),
    plantId: integer('plant_id').references(() => plants.id, { onDelete: 'set null' }),
    companyId: integer('company_id').references(() => companies.id),
    alias: text('alias'),
    online: boolean('online').notNull().default(false),
    status: smallint('status').notNull().default(2),
    lastOnlineAt: timestamp('last_online_at', { withTimezone: true }),
    lastIp: text('last_ip'),
    rssi: smallint('rssi'),
    commType: text('comm_type'),
    iccid: text('iccid'),
    hwVersion: text('hw_version'),
    fwVersion: text('fw_version'),
    /** The gateway's maker and model as its status says (issue 19: the hardware list's firmware range applies). */
    manufacturer: text('manufacturer'),
    model: text('model'),
    reportIntervalS: integer('report_interval_s').notNull().default(300),
    lastSeq: integer('last_seq'),
    gapCount: integer('gap_count').notNull().default(0),
    lastReportAt: timestamp('last_report_at', { withTimezone: true }),
    /** Locked: the gateway keeps reporting but refuses configuration over the protocol (spec 02 §4). */
    locked: boolean('locked').notNull().default(false),
    /** The server address the gateway reports to, host:port, as last confirmed by the gateway. */
    serverAddress: text('server_address'),
    /** The gateway's digital output (a relay it drives), as last confirmed. */
    digitalOutput: boolean('digital_output'),
    /** When the Wi-Fi/Bluetooth connection password was last changed (the password itself is not kept). */
    connectionPasswordAt: timestamp('connection_password_at', { withTimezone: true }),
    /** Set when this gateway was replaced by another: its devices and history moved there. */
    replacedById: integer('replaced_by_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('gateways_plant').on(t.plantId),
    index('gateways_company').on(t.companyId),
    // SNs are unique regardless of case (GW01 and gw01 are one gateway); people's lookups go through lower(sn).
    uniqueIndex('gateways_sn_lower').on(sql`lower(${t.sn})`),
  ],
);

export const devices = pgTable(
  'devices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    sn: text('sn').notNull().unique(),
    gatewayId: integer('gateway_id').references(() => gateways.id, { onDelete: 'set null' }),
    plantId: integer('plant_id').references(() => plants.id, { onDelete: 'set null' }),
    /** Battery slave packs point at their master. */
    parentId: integer('parent_id'),
    family: text('family').notNull(),
    protocolId: text('protocol_id').notNull(),
    /** The version of the protocol (protocol_versions.version) that decoded the device's newest readings. */
    protocolVersion: integer('protocol_version'),
    alias: text('alias'),
    model: text('model'),
    ratedPowerW: doublePrecision('rated_power_w'),
    brand: text('brand'),
    /** The firmware version the device reports (SunSpec Vr); an upgrade to it answers 4001. */
    firmwareVersion: text('firmware_version'),
    status: smallint('status').notNull().default(2),
    /** Meters: the plant's main (grid-connection) meter; at most one per plant. */
    mainMeter: boolean('main_meter').notNull().default(false),
    /** Family-specific settings kept by the console (a meter's CT/PT ratios, offsets, prices). */
    settings: jsonb('settings'),
    createdAt: createdAt(),
  },
  (t) => [
    index('devices_plant').on(t.plantId),
    index('devices_gateway').on(t.gatewayId),
    index('devices_family_status').on(t.family, t.status),
    uniqueIndex('devices_main_meter').on(t.plantId).where(sql`${t.mainMeter}`),
    uniqueIndex('devices_sn_lower').on(sql`lower(${t.sn})`),
  ],
);

/**
 * Devices a user deleted, by the gateway that reported them: ingest refuses that gateway's reports for
 * the SN (reason deleted_device) instead of discovering the device again. Gone with the gateway
 * (docs/decisions.md, "Deleted devices stay deleted").
 */
export const deletedDevices = pgTable(
  'deleted_devices',
  {
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    sn: text('sn').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.gatewayId, t.sn] })],
);

/**
 * One row per device report: the decoded numeric points in the protocol's order (numericPointIds).
 * Partitioned by month on ts (see the migration); the key makes a redelivered report a no-op.
 */
export const readings = pgTable(
  'readings',
  {
    deviceId: integer('device_id').notNull(),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    values: doublePrecision('values').array().notNull(),
  },
  // BRIN on time: readings arrive in time order, so a few bytes per block range let the background
  // aggregation read only the hours it averages instead of the whole month's partition.
  (t) => [primaryKey({ columns: [t.deviceId, t.ts] }), index('readings_ts_brin').using('brin', t.ts).with({ autosummarize: true })],
);

/** The latest reading of each device: what lists, maps and energy-flow views read. */
export const deviceRealtime = pgTable('device_realtime', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  /** Time of the device's newest reading; its values are that row of `readings` (LATEST_VALUES). */
  ts: timestamp('ts', { withTimezone: true }).notNull(),
  powerW: doublePrecision('power_w'),
  energyTotalWh: doublePrecision('energy_total_wh'),
  soc: real('soc'),
  /** Today's energy in the plant's day (energy_day), kept by the plant-day refresh so lists sort on it. */
  energyDay: date('energy_day', { mode: 'string' }),
  energyTodayWh: doublePrecision('energy_today_wh'),
});

/**
 * Per device and plant-local day, the energy model (docs/decisions.md "One energy model"): the day's first
 * and last counter reading, its energy (Σ of the rises between consecutive readings in time order, each in
 * the day of the later reading) and its drops (counter resets), kept by the ingest pipeline; late readings
 * have their days recomputed from raw readings. Lifetime = newest counter + Σ drops. The peak power merges
 * order-independently; counter_min_wh/counter_max_wh are the rule before the model (migration 0023 read
 * them) and are no longer written.
 */
export const deviceEnergyDaily = pgTable(
  'device_energy_daily',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    counterMinWh: doublePrecision('counter_min_wh'),
    counterMaxWh: doublePrecision('counter_max_wh'),
    peakW: doublePrecision('peak_w'),
    firstTs: timestamp('first_ts', { withTimezone: true }),
    firstWh: doublePrecision('first_wh'),
    lastTs: timestamp('last_ts', { withTimezone: true }),
    lastWh: doublePrecision('last_wh'),
    energyWh: doublePrecision('energy_wh').notNull().default(0),
    dropWh: doublePrecision('drop_wh').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.day] }), index('device_energy_daily_drops').on(t.deviceId).where(sql`${t.dropWh} > 0`)],
);

/** Device events opened and cleared from the protocol's event table. */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    plantId: integer('plant_id'),
    code: integer('code').notNull(),
    level: text('level').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('device_events_open').on(t.deviceId, t.code).where(sql`${t.clearedAt} is null`),
    index('device_events_plant').on(t.plantId, t.openedAt),
    index('device_events_opened').on(t.openedAt),
    index('device_events_device').on(t.deviceId, t.openedAt),
  ],
);

/**
 * Generation per plant and plant-local day, kept current from device_energy_daily by the ingest
 * pipeline (a few seconds behind). Plant month, year and total read this, never raw readings.
 */
export const plantEnergyDaily = pgTable(
  'plant_energy_daily',
  {
    plantId: integer('plant_id')
      .notNull()
      .references(() => plants.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    energyWh: doublePrecision('energy_wh').notNull(),
  },
  (t) => [primaryKey({ columns: [t.plantId, t.day] })],
);

/**
 * Hourly averages of each device's points (element-wise over the readings' arrays), computed for
 * closed hours in the background; kept after raw readings expire (RAW_RETENTION_DAYS).
 */
export const readingsHourly = pgTable(
  'readings_hourly',
  {
    deviceId: integer('device_id').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    values: doublePrecision('values').array().notNull(),
    samples: integer('samples').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.hour] })],
);

/** 5-minute averages of each device's points, like readings_hourly; the tier between raw and hourly. */
export const readings5m = pgTable(
  'readings_5m',
  {
    deviceId: integer('device_id').notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    values: doublePrecision('values').array().notNull(),
    samples: integer('samples').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.bucket] })],
);

/** Watermarks of background jobs (the last bucket aggregated, per tier). */
export const jobState = pgTable('job_state', {
  name: text('name').primaryKey(),
  watermark: timestamp('watermark', { withTimezone: true }).notNull(),
});

/**
 * Every change a user makes to devices, gateways and plants' equipment: who, when, what, on which
 * target, with the request and the result. Kept; read by the log pages.
 */
export const operationLog = pgTable(
  'operation_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id'),
    account: text('account').notNull(),
    companyId: integer('company_id'),
    /** What was done, e.g. device.alias, device.delete, gateway.lock, gateway.import. */
    action: text('action').notNull(),
    /** gateway, device, plant */
    targetType: text('target_type').notNull(),
    /** The SN (or id) acted on. */
    target: text('target').notNull(),
    plantId: integer('plant_id'),
    request: jsonb('request'),
    /** ok, refused or failed, with a detail. */
    result: text('result').notNull(),
    detail: text('detail'),
  },
  (t) => [index('operation_log_at').on(t.at), index('operation_log_target').on(t.target, t.at)],
);

/**
 * The firmware library (platform administrators): one image per record, stored under DATA_DIR with its
 * MD5 (checked against the uploader's), SHA-256 and the platform's Ed25519 signature that devices verify.
 */
export const firmware = pgTable(
  'firmware',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull().unique(),
    manufacturer: text('manufacturer').notNull(),
    product: text('product').notNull(),
    itemNumber: text('item_number'),
    hwVersion: text('hw_version'),
    swVersion: text('sw_version').notNull(),
    /** Software versions this image may replace, e.g. ">=1.2.0 <2.0.0"; empty: any. */
    swCompatible: text('sw_compatible'),
    /** gateway, inverter or battery (battery images are managed on /firmware/batt). */
    type: text('type').notNull(),
    /** remote or local. */
    mode: text('mode').notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    md5: text('md5').notNull(),
    sha256: text('sha256').notNull(),
    signature: text('signature').notNull(),
    /** Where the image is kept (a name under DATA_DIR/firmware, or an object store key). */
    storageKey: text('storage_key').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    changeLog: text('change_log'),
    creatorId: integer('creator_id'),
    createdAt: createdAt(),
    /** Battery images only: the secondary battery type and the battery product the image is for. */
    batteryTypeId: integer('battery_type_id').references(() => batteryTypes.id),
    batteryProductId: integer('battery_product_id').references(() => batteryProducts.id),
    /** Issue 24: the company (and its subtree) the image is authorised for; null: every company. */
    companyId: integer('company_id').references(() => companies.id),
  },
  (t) => [uniqueIndex('firmware_type_version').on(t.type, t.swVersion)],
);

// ---- Battery firmware library (issue 6): battery types and battery products ----

/**
 * Battery types, a two-level tree: primary labels (no parent) and secondary labels under them. Names
 * are unique among primaries and among the secondaries of one primary.
 */
export const batteryTypes = pgTable(
  'battery_types',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => batteryTypes.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('battery_types_primary_name').on(t.name).where(sql`${t.parentId} is null`),
    uniqueIndex('battery_types_secondary_name').on(t.parentId, t.name),
  ],
);

/** Battery products, each of one secondary battery type; battery images name the product they are for. */
export const batteryProducts = pgTable('battery_products', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique(),
  manufacturer: text('manufacturer').notNull(),
  model: text('model').notNull(),
  batteryTypeId: integer('battery_type_id')
    .notNull()
    .references(() => batteryTypes.id),
  remark: text('remark'),
  createdAt: createdAt(),
});

/**
 * Every command sent to a device or gateway (remote operation audit): who, when, what, the result. A
 * command carries its caller's idempotency key, so a retried request finds the first one and runs once.
 */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id'),
    account: text('account').notNull(),
    companyId: integer('company_id'),
    deviceId: integer('device_id'),
    deviceSn: text('device_sn').notNull(),
    gatewaySn: text('gateway_sn'),
    plantId: integer('plant_id'),
    /** boot, shutdown, read, write, set, upgrade, cancel_upgrade, configure */
    op: text('op').notNull(),
    request: jsonb('request'),
    idempotencyKey: text('idempotency_key'),
    /** pending, ok, error, timeout, refused; a reply after the timeout is recorded as late. */
    status: text('status').notNull(),
    result: jsonb('result'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    lateReplyAt: timestamp('late_reply_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('device_commands_idempotency').on(t.userId, t.idempotencyKey),
    index('device_commands_at').on(t.at),
    index('device_commands_device').on(t.deviceSn, t.at),
    index('device_commands_company').on(t.companyId, t.at),
  ],
);

/**
 * Batch tasks (spec 02 §4): an upgrade run over many devices, immediately or at a time, in waves (a
 * canary share first), paused when a wave's failures pass the user's threshold. Kept in the database so a
 * restarted server resumes them.
 */
export const batchTasks = pgTable('batch_tasks', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  /** inverter_upgrade */
  type: text('type').notNull(),
  firmId: integer('firm_id').notNull(),
  targetVersion: text('target_version').notNull(),
  /** null: immediately. */
  runAt: timestamp('run_at', { withTimezone: true }),
  /** plan, running, paused, done, terminated */
  status: text('status').notNull(),
  canaryPercent: integer('canary_percent').notNull().default(0),
  failureThresholdPercent: integer('failure_threshold_percent').notNull().default(100),
  pausedReason: text('paused_reason'),
  userId: integer('user_id').notNull(),
  account: text('account').notNull(),
  companyId: integer('company_id'),
  roleKey: text('role_key').notNull(),
  createdAt: createdAt(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

export const batchTaskItems = pgTable(
  'batch_task_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    taskId: integer('task_id')
      .notNull()
      .references(() => batchTasks.id, { onDelete: 'cascade' }),
    sn: text('sn').notNull(),
    /** 0: the canary wave, 1: the rest. */
    wave: smallint('wave').notNull().default(1),
    /** pending, running, successful, failed */
    status: text('status').notNull(),
    commandId: integer('command_id'),
    message: text('message'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('batch_task_items_sn').on(t.taskId, t.sn), index('batch_task_items_status').on(t.taskId, t.status)],
);

// ---- Third-party sign-in with OpenID Connect (issue 7) ----

/** A third-party identity bound to a user: one user per identity, one identity per provider and user. */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The provider's id in OIDC_PROVIDERS. */
    provider: text('provider').notNull(),
    /** The ID token's `sub`: stable and unique per provider (OIDC Core §2). */
    subject: text('subject').notNull(),
    email: text('email'),
    name: text('name'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('user_identities_provider_subject').on(t.provider, t.subject),
    uniqueIndex('user_identities_user_provider').on(t.userId, t.provider),
  ],
);

/**
 * A started authorization-code flow, kept until the browser comes back: its state (SHA-256 only), the
 * nonce and PKCE verifier (which never leave the server), and the browser key's SHA-256. Deleted when used.
 */
export const oidcFlows = pgTable(
  'oidc_flows',
  {
    stateHash: text('state_hash').primaryKey(),
    provider: text('provider').notNull(),
    /** signIn or bind */
    purpose: text('purpose').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    browserKeyHash: text('browser_key_hash').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oidc_flows_expires').on(t.expiresAt), index('oidc_flows_ip').on(t.ip)],
);

/** A verified identity waiting to be bound (user/third/bind); the ticket's SHA-256 only. Deleted when used. */
export const oidcBindingTickets = pgTable(
  'oidc_binding_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    name: text('name'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oidc_binding_tickets_expires').on(t.expiresAt)],
);

// ---- Company customers, customer types and agents (issue 7) ----

/** Customer types: primary labels (no parent) and secondary labels under one primary, per company. */
export const customerTypes = pgTable(
  'customer_types',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id'),
    name: text('name').notNull(),
    remark: text('remark'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('customer_types_primary_name').on(t.companyId, t.name).where(sql`${t.parentId} is null`),
    uniqueIndex('customer_types_secondary_name').on(t.parentId, t.name).where(sql`${t.parentId} is not null`),
  ],
);

/**
 * A company's customers: an account (master) linked to the company. The account keeps no company of its
 * own (users.company_id stays null), so it never gets the company's staff access; it sees the plants
 * assigned to it (company_customer_plants), read-only.
 */
export const companyCustomers = pgTable(
  'company_customers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    typeId: integer('type_id').references(() => customerTypes.id, { onDelete: 'set null' }),
    remark: text('remark'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('company_customers_user').on(t.companyId, t.userId), index('company_customers_user_id').on(t.userId)],
);

export const companyCustomerPlants = pgTable(
  'company_customer_plants',
  {
    customerId: integer('customer_id')
      .notNull()
      .references(() => companyCustomers.id, { onDelete: 'cascade' }),
    plantId: integer('plant_id')
      .notNull()
      .references(() => plants.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.plantId] }), index('company_customer_plants_plant').on(t.plantId)],
);

/** Agents a company appointed: another company's administrator (spec 02 §6 agent rules). */
export const companyAgents = pgTable(
  'company_agents',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    agentUserId: integer('agent_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('company_agents_agent').on(t.agentUserId)],
);

/**
 * Invitations (issue 15.4): an agent appointment or a customer link waits here until the invited account
 * accepts it; nothing is linked or disclosed before. Addressed by account name (lower case), so an unknown
 * account gets the same pending row as a real one. Status pending, accepted, declined, withdrawn or
 * expired (a pending row past expires_at counts as expired). details: the customer's name, type, remark
 * and plants to link on acceptance.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    account: text('account').notNull(),
    status: text('status').notNull().default('pending'),
    details: jsonb('details'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('invitations_pending').on(t.kind, t.companyId, t.account).where(sql`${t.status} = 'pending'`),
    index('invitations_account').on(t.account, t.status),
  ],
);

// ---- Notices and versions (issue 8) -------------------------------------------------------------------

/**
 * Maintenance notices (spec 02 §3, §4): an upgrade, maintenance or plain notice with its window and
 * texts in Chinese and English. Status 0 publishing, 1 unpublished, 2 invalid (final).
 */
export const notices = pgTable(
  'notices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** 1 upgrade, 2 maintenance, 3 plain notice. */
    type: smallint('type').notNull(),
    /** "0" every user, "1" console users, "2" app users. */
    scope: text('scope').notNull(),
    status: smallint('status').notNull().default(1),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    effectiveTime: timestamp('effective_time', { withTimezone: true }).notNull(),
    /** 0 services available, 1 some functions unavailable, 2 platform unavailable. */
    impact: smallint('impact').notNull(),
    zhDesc: text('zh_desc').notNull(),
    enDesc: text('en_desc').notNull(),
    zhDuration: text('zh_duration').notNull(),
    enDuration: text('en_duration').notNull(),
    /** [{zhSuggest, enSuggest}] */
    suggests: jsonb('suggests').notNull().default([]),
    creatorId: integer('creator_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [index('notices_window').on(t.status, t.startTime, t.endTime)],
);

/** System versions (spec 02 §3): release notes in Chinese and English; numbers unique, each above the last. */
export const systemVersions = pgTable('system_versions', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  version: text('version').notNull().unique(),
  zhContent: text('zh_content').notNull(),
  enContent: text('en_content').notNull(),
  publisherId: integer('publisher_id'),
  releaseTime: timestamp('release_time', { withTimezone: true }).notNull().defaultNow(),
});

// ---- Accounts: verification codes, rate limits, two-factor sign-in (issue 7) ----

/**
 * Verification codes for registration, password reset and binding an address. Only a salted SHA-256 of
 * the code is kept; a code is void after five wrong entries, when it expires, or once used.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** register, reset or bind */
    purpose: text('purpose').notNull(),
    /** The e-mail (lower-case) or phone number the code went to. */
    address: text('address').notNull(),
    codeHash: text('code_hash').notNull(),
    /** Who asked: the per-address hourly limit counts rows, the per-client limit counts this. */
    ip: text('ip'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_address').on(t.address, t.createdAt), index('verification_codes_ip').on(t.ip, t.createdAt)],
);

/** Fixed-window request counters for anonymous calls (checkAccount, getCode), shared by every server process. */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/**
 * The API rate limiter's counters (plugins/rate-limit.ts) with PostgreSQL, shared by every server process: one row
 * per caller key and route family, its window starting at the key's first request (as @fastify/rate-limit counts
 * in memory); rows past `resets_at` are deleted by the limiter itself. UNLOGGED (migration 0044, by hand): losing
 * the counters in a crash only starts the windows afresh.
 */
export const httpRateLimits = pgTable(
  'http_rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetsAt: timestamp('resets_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('http_rate_limits_resets_at').on(t.resetsAt)],
);

/** One-time recovery codes for two-factor sign-in: SHA-256 only; used_at set when spent. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user').on(t.userId)],
);

/** The step between a right password and the authenticator code: short-lived, single-use, SHA-256 only. */
export const signInChallenges = pgTable('sign_in_challenges', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  ip: text('ip'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/**
 * The embedded broker's persistent sessions (gateways connect with clean session = false): each client's
 * subscriptions, so a reconnect after a server restart finds its session (sessionPresent)…
 */
export const mqttSubscriptions = pgTable(
  'mqtt_subscriptions',
  {
    clientId: text('client_id').notNull(),
    topic: text('topic').notNull(),
    qos: smallint('qos').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.topic] })],
);

/** …and the QoS 1 messages (commands) it has not acknowledged yet, in order; deleted on PUBACK. */
export const mqttOutgoing = pgTable(
  'mqtt_outgoing',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: text('client_id').notNull(),
    /** The broker process and its message counter: the packet's identity inside aedes. */
    brokerId: text('broker_id').notNull(),
    brokerCounter: bigint('broker_counter', { mode: 'number' }).notNull(),
    topic: text('topic').notNull(),
    /** Base64 of the payload bytes. */
    payload: text('payload').notNull(),
    qos: smallint('qos').notNull(),
    /** The packet identifier once sent (null while never sent). */
    messageId: integer('message_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mqtt_outgoing_packet').on(t.clientId, t.brokerId, t.brokerCounter)],
);

// ---- Download centre, logs and event descriptions (issue 21) ----

/**
 * The download centre: one record per file a user asked for (a background export, a report). The file
 * lives under DATA_DIR/downloads while the record is `done` and until `expires_at`; after that the
 * housekeeping job removes it and marks the record `expired` (a download is then refused, not 404).
 * Records belong to the user who asked (and carry the company for the tenant check).
 */
export const fileDownloadRecords = pgTable(
  'file_download_records',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id'),
    /** What made it: events, operation-log, communication-log, report… */
    kind: text('kind').notNull(),
    /** The name the browser saves under. */
    fileName: text('file_name').notNull(),
    format: text('format').notNull(),
    /** queued, running, done, failed, expired */
    status: text('status').notNull().default('queued'),
    /** 0–100 */
    progress: smallint('progress').notNull().default(0),
    rows: integer('rows'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    /** Relative to DATA_DIR/downloads. */
    path: text('path'),
    error: text('error'),
    /**
     * What the job needs to run again after a restart (its kind's parameters and the owner's language);
     * null for a file that cannot be made again (it is failed on restart instead).
     */
    job: jsonb('job'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [index('file_download_records_user').on(t.userId, t.createdAt), index('file_download_records_expiry').on(t.status, t.expiresAt)],
);

/**
 * Gateway communication history: connects, disconnects (with the session length and reason) and refused
 * reports (with the reason), written in batches off the ingest path.
 */
export const gatewayConnectionLog = pgTable(
  'gateway_connection_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    gatewaySn: text('gateway_sn').notNull(),
    /** connect, disconnect, refused */
    kind: text('kind').notNull(),
    address: text('address'),
    reason: text('reason'),
    /** Disconnects: how long the session lasted. */
    sessionSeconds: integer('session_seconds'),
    /** Refused reports: how many readings. */
    count: integer('count'),
  },
  (t) => [index('gateway_connection_log_sn').on(t.gatewaySn, t.at), index('gateway_connection_log_at').on(t.at)],
);

/**
 * Event descriptions per protocol (register map), code and language, imported from .xlsx; they take
 * precedence over the map's built-in Chinese and English texts in the event list and alarm messages.
 */
export const eventDescriptions = pgTable(
  'event_descriptions',
  {
    protocolId: text('protocol_id').notNull(),
    code: integer('code').notNull(),
    language: text('language').notNull(),
    description: text('description').notNull(),
    solution: text('solution').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by'),
  },
  (t) => [primaryKey({ columns: [t.protocolId, t.code, t.language] })],
);

// ---- Reports (issue 21) ----

/** A plant's saved report configurations (spec 02 §5: at most 6 parameters and 6 units each). */
export const reportConfigs = pgTable(
  'report_configs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    plantId: integer('plant_id')
      .notNull()
      .references(() => plants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** day, month or year */
    period: text('period').notNull(),
    /** Report parameters (packages/contracts reports.ts REPORT_PARAMETERS), at most 6. */
    parameters: jsonb('parameters').$type<string[]>().notNull(),
    /** Device (unit) ids whose tables the report shows, at most 6; empty: every device. */
    units: jsonb('units').$type<number[]>().notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('report_configs_plant_name').on(t.plantId, t.name)],
);

/**
 * Reports e-mailed weekly or monthly. A schedule whose plant (or customer) was deleted keeps its row, disabled
 * with a reason, so its send log stays readable.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The user who made it: the report is built with their access, in the tenant they had. */
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    /** plant or customer */
    scope: text('scope').notNull(),
    plantId: integer('plant_id').references(() => plants.id, { onDelete: 'set null' }),
    customerId: integer('customer_id').references(() => companyCustomers.id, { onDelete: 'set null' }),
    /** The plant's or customer's name when made, shown after it is deleted. */
    targetName: text('target_name').notNull(),
    configId: integer('config_id').references(() => reportConfigs.id, { onDelete: 'set null' }),
    /** weekly or monthly */
    frequency: text('frequency').notNull(),
    /** pdf or xlsx */
    format: text('format').notNull(),
    /** [{ email, language }] */
    recipients: jsonb('recipients').$type<{ email: string; language: string }[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why it stopped: plant_deleted, customer_deleted, no_access. */
    disabledReason: text('disabled_reason'),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('report_schedules_due').on(t.enabled, t.nextRunAt), index('report_schedules_owner').on(t.ownerId)],
);

/** The send log: one row per schedule run and recipient, its e-mail's state read from email_deliveries. */
export const reportSends = pgTable(
  'report_sends',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => reportSchedules.id, { onDelete: 'cascade' }),
    /** The reported period: 2026-10 (month) or 2026-11-16 (the week's Monday). */
    period: text('period').notNull(),
    recipient: text('recipient').notNull(),
    language: text('language').notNull(),
    deliveryId: integer('delivery_id').references(() => emailDeliveries.id, { onDelete: 'set null' }),
    /** Set when the report could not be built (the e-mail then never exists). */
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('report_sends_schedule').on(t.scheduleId, t.createdAt)],
);

/**
 * Register maps as data (spec 02 §3 Protocol, issue 19): one row per protocol a gateway can name in its
 * reports (`identifier`); the built-in maps are seeded here at start. Its registers live in versions.
 */
export const protocols = pgTable(
  'protocols',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** What a gateway sends with each device report ("proto"), e.g. sunspec-inverter-3p; never changes. */
    identifier: text('identifier').notNull().unique(),
    /** The protocol code (spec 02 §5: unique). */
    code: text('code').notNull().unique(),
    /** The protocol name, 6-12 characters (spec 02 §5). */
    name: text('name').notNull(),
    manufacturer: text('manufacturer').notNull(),
    family: text('family').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Seeded from the shipped maps: a newer release may add versions of it; it cannot be deleted. */
    builtIn: boolean('built_in').notNull().default(false),
    /** protocol_versions.version that decodes reports now. */
    currentVersion: integer('current_version').notNull().default(1),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('protocols_code_lower').on(sql`lower(${t.code})`)],
);

/**
 * Immutable versions of a protocol: editing adds one. `definition` holds the registers (function code,
 * start address, register count, unit, operation, data type, byte/register swap, base, scale, skip byte,
 * required, Chinese and English description, section, chart and counter roles), the event table and the
 * storage order of the numeric points (append-only across versions, so older readings stay readable).
 */
export const protocolVersions = pgTable(
  'protocol_versions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    protocolId: integer('protocol_id')
      .notNull()
      .references(() => protocols.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** The protocol version the manufacturer gives (e.g. SunSpec 1.1). */
    protocolVersion: text('protocol_version').notNull(),
    /** The configuration version (spec 02 §3); scripts attach to it. */
    configurationVersion: text('configuration_version').notNull(),
    definition: jsonb('definition').notNull(),
    /** What changed, in the editor's words. */
    note: text('note'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('protocol_versions_number').on(t.protocolId, t.version)],
);

// ---- Dictionary and OEM branding (issue 24) ----

/**
 * Dictionary entries (spec 02 §3: code, sort, internationalised flag): the currencies, time zones and plant
 * types the console offers. Code unique within its type (5000); an entry is disabled rather than deleted,
 * since plants keep its code.
 */
export const dictEntries = pgTable(
  'dict_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    type: text('type').notNull(),
    code: text('code').notNull(),
    sort: integer('sort').notNull().default(0),
    internationalised: boolean('internationalised').notNull().default(false),
    /** Text per console language ({ en, cn, ... }); only `en` when not internationalised. */
    texts: jsonb('texts').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dict_entries_type_code').on(t.type, t.code)],
);

/**
 * OEM projects (spec 02 §3 OEM configuration): a company's branded console at <domain>.<BASE_DOMAIN>.
 * `images` maps a slot (companyLogo, companyIcon, loginLogo, systemLogo, systemIcon, loginImage) to the file
 * stored under DATA_DIR/oem; the domain may change once every 30 days (domainChangedAt).
 */
export const oemProjects = pgTable('oem_projects', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  companyId: integer('company_id')
    .notNull()
    .unique()
    .references(() => companies.id, { onDelete: 'cascade' }),
  customerName: text('customer_name').notNull(),
  domain: text('domain').notNull().unique(),
  domainChangedAt: timestamp('domain_changed_at', { withTimezone: true }).notNull().defaultNow(),
  appName: text('app_name').notNull(),
  themeColor: text('theme_color').notNull(),
  iosUrl: text('ios_url'),
  androidUrl: text('android_url'),
  images: jsonb('images').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An OEM's Android packages (APK .apk, version x.x.x, at most 300 MB); version unique per OEM. */
export const oemApks = pgTable(
  'oem_apks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    oemId: integer('oem_id')
      .notNull()
      .references(() => oemProjects.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    /** Stored name under DATA_DIR/oem/apk (random). */
    file: text('file').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('oem_apks_version').on(t.oemId, t.version), uniqueIndex('oem_apks_sha').on(t.oemId, t.sha256)],
);

// ---- Large-screen display links (issue 20) ------------------------------------------------------------

/**
 * A display link: a read-only credential that opens the large-screen display without a session, scoped to
 * the creator's company or to chosen plants, until it expires or is revoked. Only the token's hash is stored.
 */
export const displayLinks = pgTable(
  'display_links',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'company' (every plant of company_id) or 'plants' (plant_ids). */
    scope: text('scope').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    plantIds: jsonb('plant_ids').$type<number[]>().notNull().default([]),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('display_links_token').on(t.tokenHash), index('display_links_creator').on(t.createdBy)],
);

/**
 * API keys of the open plant API (issue 25, /open/v1): a key acts for its creator with the creator's access
 * of now, narrowed to its plants ('all' or plant_ids) and to reads unless it is an operator key. Only the
 * SHA-256 of the key is kept; the prefix is the visible part that names it in lists and logs.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    /** 'all' (every plant the creator sees) or 'plants' (plant_ids). */
    scope: text('scope').notNull(),
    plantIds: jsonb('plant_ids').$type<number[]>().notNull().default([]),
    /** 'read' or 'operator' (commands too). */
    access: text('access').notNull(),
    quotaPerMinute: integer('quota_per_minute').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_keys_secret').on(t.secretHash),
    uniqueIndex('api_keys_prefix').on(t.prefix),
    index('api_keys_creator').on(t.createdBy),
  ],
);

/** A company's webhook (issue 25): its URL, the events it takes and the secret its deliveries are signed with. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    url: text('url').notNull(),
    /** The HMAC-SHA256 key of the Sunward-Signature header (shown once; kept to sign). */
    secret: text('secret').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('webhooks_company').on(t.companyId)],
);

/** Webhook deliveries: the persisted queue (pending, retried with backoff) and the delivery log. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    /** pending, delivered, failed */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [index('webhook_deliveries_due').on(t.status, t.nextAttemptAt), index('webhook_deliveries_hook').on(t.webhookId, t.createdAt)],
);

/**
 * Protocol scripts (spec 02 §3 Script: protocol identifier, language type, function definition; issue 19):
 * at most one per protocol and configuration version (spec 02 §5, 4207). The decoder runs the script of the
 * current version's configuration version in a QuickJS sandbox (ingest/protocol-scripts.ts).
 */
export const protocolScripts = pgTable(
  'protocol_scripts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    protocolId: integer('protocol_id')
      .notNull()
      .references(() => protocols.id, { onDelete: 'cascade' }),
    configurationVersion: text('configuration_version').notNull(),
    /** The language type; only "javascript" (QuickJS, ES2023) for now. */
    language: text('language').notNull().default('javascript'),
    /** The function definition: source defining `function transform(input)`. */
    source: text('source').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('protocol_scripts_version').on(t.protocolId, t.configurationVersion)],
);

/**
 * The hardware list (calls.tsv families `hardware`, `products`; issue 19): the device models the platform knows,
 * by manufacturer and model, with their kind, protocol and the firmware versions they can run. Seeded from the
 * shipped maps as the simulated devices name themselves (built_in); platform administrators add the rest.
 */
export const hardwareModels = pgTable(
  'hardware_models',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    manufacturer: text('manufacturer').notNull(),
    model: text('model').notNull(),
    /** A device family (contracts DEVICE_FAMILIES) or "gateway". */
    kind: text('kind').notNull(),
    /** protocols.identifier the model speaks (null for gateways). */
    protocolIdentifier: text('protocol_identifier'),
    /** Firmware versions the model can run, e.g. ">=1.0.0 <3.0.0" (contracts firmware-compat); null: any. */
    firmwareCompatible: text('firmware_compatible'),
    builtIn: boolean('built_in').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('hardware_models_name').on(sql`lower(${t.manufacturer})`, sql`lower(${t.model})`)],
);

/** The application centre (issue 22): which apps a company enabled for its plants; absent row: not enabled. */
export const companyApps = pgTable(
  'company_apps',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    app: text('app').notNull(),
    enabled: boolean('enabled').notNull(),
    changedBy: integer('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.app] })],
);

/**
 * A company's bulb bridge authorisation (issue 22): OAuth 2.0 tokens sealed with AES-256-GCM (lib/secret-box.ts);
 * revokedAt set when the authorisation is cancelled (tokens wiped).
 */
export const lightBridges = pgTable('light_bridges', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  accessToken: text('access_token'),
  refreshToken: text('refresh_token'),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  connectedBy: integer('connected_by').references(() => users.id, { onDelete: 'set null' }),
  connectedAt: timestamp('connected_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  /** The last failure talking to the bridge (expired, revoked, unreachable), shown to the user. */
  lastError: text('last_error'),
});

/** A pending authorisation: the state parameter (hashed) and the PKCE verifier (sealed), 10 minutes. */
export const lightOauthStates = pgTable('light_oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  verifier: text('verifier').notNull(),
  createdAt: createdAt(),
});

/** Bulbs the bridge reported, kept per company with their plant binding and last settings. */
export const lights = pgTable(
  'lights',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The bridge's own id of the bulb. */
    bridgeLightId: text('bridge_light_id').notNull(),
    name: text('name').notNull(),
    plantId: integer('plant_id').references(() => plants.id, { onDelete: 'set null' }),
    on: boolean('on').notNull().default(false),
    brightness: smallint('brightness').notNull().default(0),
    colorTemperature: integer('color_temperature').notNull().default(2700),
    reachable: boolean('reachable').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lights_company_bridge_id').on(t.companyId, t.bridgeLightId), index('lights_plant').on(t.plantId)],
);

/** Smart rules per plant (issue 22): conditions on live data, actions on bulbs (and later switches). */
export const smartRules = pgTable(
  'smart_rules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    plantId: integer('plant_id')
      .notNull()
      .references(() => plants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    conditions: jsonb('conditions').notNull(),
    actions: jsonb('actions').notNull(),
    /** Seconds between two firings at least. */
    minIntervalSeconds: integer('min_interval_seconds').notNull().default(300),
    /** Since when every condition holds (null: not holding). */
    holdingSince: timestamp('holding_since', { withTimezone: true }),
    /** Fired and not yet released (the conditions fell past their hysteresis). */
    active: boolean('active').notNull().default(false),
    lastFiredAt: timestamp('last_fired_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The account the rule's AC switch actions act for: whoever saved it last (with their password when it switches
     * circuits), re-checked at each firing (docs/decisions.md "Smart rules on AC switches"). Null: nobody (refused).
     */
    actsFor: integer('acts_for').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('smart_rules_plant_name').on(t.plantId, t.name), index('smart_rules_plant').on(t.plantId)],
);

/** Each firing of a rule: what it did to each device and how that went. */
export const smartRuleRuns = pgTable(
  'smart_rule_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => smartRules.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    outcome: text('outcome').notNull(),
    /** The live values the conditions saw. */
    values: jsonb('values').notNull(),
    results: jsonb('results').notNull(),
  },
  (t) => [index('smart_rule_runs_rule_at').on(t.ruleId, t.at)],
);

/**
 * Smart AC switches (issue 22 part 1): the registry by SN and key (hashed like a gateway key). In no company:
 * platform stock, claimed with bindBySn. A sub switch points at its master. The switch's readings arrive as a
 * device (family ac_switch) reported by a gateway of its plant, linked by SN.
 */
export const acSwitches = pgTable(
  'ac_switches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    sn: text('sn').notNull().unique(),
    keyHash: text('key_hash').notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    /** The customer (an account of the company's customers) the switch was imported for. */
    customerId: integer('customer_id').references(() => users.id, { onDelete: 'set null' }),
    plantId: integer('plant_id').references(() => plants.id, { onDelete: 'set null' }),
    masterId: integer('master_id'),
    alias: text('alias'),
    /** Data upload frequency in minutes. */
    frequency: integer('frequency').notNull().default(5),
    associateUserId: integer('associate_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('ac_switches_company').on(t.companyId),
    index('ac_switches_plant').on(t.plantId),
    index('ac_switches_master').on(t.masterId),
    uniqueIndex('ac_switches_sn_lower').on(sql`lower(${t.sn})`),
  ],
);

/**
 * Timed tasks of a smart AC switch (issue 22 part 1): switch on or off once (a plant-local date and time) or on
 * chosen weekdays at a time, in the plant's time zone; `selfcheck` is the monthly leakage test on a day of the
 * month. `next_run_at` is the instant of the next occurrence (null once a single task has run or while disabled);
 * a scheduler pass claims a due task by moving it on (a conditional update), so it runs once per occurrence.
 */
export const acSwitchTasks = pgTable(
  'ac_switch_tasks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    switchId: integer('switch_id')
      .notNull()
      .references(() => acSwitches.id, { onDelete: 'cascade' }),
    /** single | repeat | selfcheck */
    kind: text('kind').notNull(),
    /** Switch on (true) or off (false); a self-check leaves the switch as it was. */
    on: boolean('on').notNull().default(false),
    /** single: the plant-local date, YYYY-MM-DD. */
    date: text('date'),
    /** The plant-local time, HH:MM. */
    time: text('time').notNull(),
    /** repeat: ISO weekdays as bits (bit 1 Monday … bit 7 Sunday). */
    weekdays: integer('weekdays').notNull().default(0),
    /** selfcheck: the day of the month (1–28). */
    monthDay: integer('month_day'),
    enabled: boolean('enabled').notNull().default(true),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /** Who made the task: the commands run on their behalf, at their level on the switch's plant then. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('ac_switch_tasks_switch').on(t.switchId), index('ac_switch_tasks_due').on(t.nextRunAt)],
);

/** What each occurrence of a switch task did: done, refused (a code), failed (no confirmation) or missed. */
export const acSwitchTaskRuns = pgTable(
  'ac_switch_task_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    taskId: integer('task_id').references(() => acSwitchTasks.id, { onDelete: 'set null' }),
    switchId: integer('switch_id')
      .notNull()
      .references(() => acSwitches.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    on: boolean('on').notNull(),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** done | refused | failed | missed | running (under way, or a self-check awaiting its verdict) */
    outcome: text('outcome').notNull(),
    /** The response code of a refusal or failure. */
    code: integer('code'),
    commandId: integer('command_id'),
    /** A self-check's result: the switch's own verdict (passed, failed) and the leakage current it measured. */
    result: jsonb('result'),
  },
  (t) => [index('ac_switch_task_runs_switch_at').on(t.switchId, t.at)],
);

/**
 * Video surveillance (issue 23): the platform administrator's grant of the video service to a company (spec 02:
 * "video service must be enabled by the administrator"); the company's camera app can be enabled only with it.
 */
export const videoGrants = pgTable('video_grants', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  grantedBy: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
  grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A company's video space (spec: namespace): at most 10 per company, one per customer (the unique index). */
export const videoSpaces = pgTable(
  'video_spaces',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id').references(() => companyCustomers.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    storageGb: integer('storage_gb').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('video_spaces_company').on(t.companyId), uniqueIndex('video_spaces_customer').on(t.customerId)],
);

/**
 * A GB28181 camera (spec: device, deviceId = sip_id, unique on the platform: it is the SIP user name). The password
 * is the digest secret, sealed (lib/secret-box.ts: the digest needs it back). `online` follows REGISTER, its expiry
 * and keepalives (the sweep clears it); the state shown is derived from enabled, registered_at and online.
 */
export const videoDevices = pgTable(
  'video_devices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => videoSpaces.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sipId: text('sip_id').notNull().unique(),
    passwordSealed: text('password_sealed').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    online: boolean('online').notNull().default(false),
    remoteAddress: text('remote_address'),
    manufacturer: text('manufacturer'),
    model: text('model'),
    registeredAt: timestamp('registered_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastKeepaliveAt: timestamp('last_keepalive_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('video_devices_space').on(t.spaceId), index('video_devices_company').on(t.companyId)],
);

/** A camera's channels (spec: channel, gbId), replaced by each catalog answer. */
export const videoChannels = pgTable(
  'video_channels',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => videoDevices.id, { onDelete: 'cascade' }),
    gbId: text('gb_id').notNull(),
    name: text('name').notNull(),
    /** online | offline (the catalog's Status ON/OFF). */
    status: text('status').notNull(),
    manufacturer: text('manufacturer'),
    model: text('model'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.gbId] })],
);

/**
 * Energy hub (issue 23 part 4): a plant enrolled in a demand-response programme. Pending → accepted or rejected
 * by the programme, unenrolled by the user. `active` (pending or accepted) carries the partial unique indexes that
 * keep one live enrollment per plant and one per utility account in a programme, even under concurrent requests.
 */
export const energyHubEnrollments = pgTable(
  'energy_hub_enrollments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    plantId: integer('plant_id')
      .notNull()
      .references(() => plants.id, { onDelete: 'cascade' }),
    /** Who enrolled: the dispatch's commands act for them, the results' notification goes to them. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    programId: text('program_id').notNull(),
    sourceAccount: text('source_account').notNull(),
    utilityAccount: text('utility_account').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    serviceAddress: jsonb('service_address').notNull(),
    mailingAddress: jsonb('mailing_address').notNull(),
    /** pending | accepted | rejected | unenrolled */
    state: text('state').notNull().default('pending'),
    active: boolean('active').notNull().default(true),
    /** Response settings: the SOC every battery keeps, the most one battery discharges (W, null: no cap). */
    minSocPct: integer('min_soc_pct').notNull().default(20),
    maxDischargeW: integer('max_discharge_w'),
    /** OpenADR 2.0b (part 5): the VTN, this VEN's name, and what the VTN gave at registration. */
    vtnUrl: text('vtn_url'),
    venName: text('ven_name'),
    venId: text('ven_id'),
    registrationId: text('registration_id'),
    lastPollAt: timestamp('last_poll_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('energy_hub_enrollments_plant').on(t.plantId),
    uniqueIndex('energy_hub_enrollments_live_plant').on(t.plantId).where(sql`${t.active}`),
    uniqueIndex('energy_hub_enrollments_live_account').on(t.programId, t.utilityAccount).where(sql`${t.active}`),
  ],
);

/** The batteries of an enrollment; a battery is in at most one live enrollment (`active` mirrors the enrollment's). */
export const energyHubDevices = pgTable(
  'energy_hub_devices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    enrollmentId: integer('enrollment_id')
      .notNull()
      .references(() => energyHubEnrollments.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    sn: text('sn').notNull(),
    manufacturer: text('manufacturer').notNull(),
    model: text('model').notNull(),
    installDate: date('install_date', { mode: 'string' }).notNull(),
    storageKwh: doublePrecision('storage_kwh').notNull(),
    chargeKw: doublePrecision('charge_kw').notNull(),
    /** Response settings: whether this battery answers events. */
    participates: boolean('participates').notNull().default(true),
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    index('energy_hub_devices_enrollment').on(t.enrollmentId),
    uniqueIndex('energy_hub_devices_live_device').on(t.deviceId).where(sql`${t.active}`),
  ],
);

/**
 * A programme's event for an enrollment: pending (not started), active, completed, cancelled; the site's answer
 * (none, optIn, optOut). The scheduler moves pending → active and active → completed with conditional updates, so
 * each start and stop is claimed once across server processes.
 */
export const energyHubEvents = pgTable(
  'energy_hub_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    enrollmentId: integer('enrollment_id')
      .notNull()
      .references(() => energyHubEnrollments.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    participationLevel: integer('participation_level').notNull().default(0),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    powerW: integer('power_w').notNull(),
    state: text('state').notNull().default('pending'),
    response: text('response').notNull().default('none'),
    /** console | openadr */
    source: text('source').notNull().default('console'),
    /** OpenADR: the VTN's modification number and request id (to answer oadrCreatedEvent). */
    modificationNumber: integer('modification_number').notNull().default(0),
    requestId: text('request_id'),
    /** The response not yet told to the VTN (OpenADR oadrCreatedEvent), cleared once it is. */
    responsePending: boolean('response_pending').notNull().default(false),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('energy_hub_events_event').on(t.enrollmentId, t.eventId), index('energy_hub_events_due').on(t.state, t.startAt)],
);

/**
 * What one battery did in an event. The row is the claim of that battery's dispatch (unique per event and
 * device): whoever inserts it sends the discharge command. Delivered energy is the rise of the battery's
 * discharged-energy counter from `start_counter_wh`.
 */
export const energyHubResults = pgTable(
  'energy_hub_results',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    eventId: integer('event_id')
      .notNull()
      .references(() => energyHubEvents.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    sn: text('sn').notNull(),
    /** discharging | done | skipped | failed */
    outcome: text('outcome').notNull(),
    code: integer('code'),
    askedW: doublePrecision('asked_w').notNull(),
    askedWh: doublePrecision('asked_wh').notNull(),
    startCounterWh: doublePrecision('start_counter_wh'),
    deliveredWh: doublePrecision('delivered_wh').notNull().default(0),
    startSocPct: real('start_soc_pct'),
    socPct: real('soc_pct'),
    commandId: integer('command_id'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('energy_hub_results_device').on(t.eventId, t.deviceId)],
);

/**
 * A device moved to another protocol (issue 19): its history was rewritten from the old protocol's storage order
 * into the new one's, point by point, in the switch's transaction (docs/decisions.md "Switching a device's
 * protocol"). Both orders are kept, so what was rewritten can be read back.
 */
export const deviceProtocolSwitches = pgTable(
  'device_protocol_switches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    switchedAt: timestamp('switched_at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id'),
    fromProtocol: text('from_protocol').notNull(),
    fromVersion: integer('from_version'),
    fromOrder: jsonb('from_order').$type<string[]>().notNull(),
    toProtocol: text('to_protocol').notNull(),
    toVersion: integer('to_version').notNull(),
    toOrder: jsonb('to_order').$type<string[]>().notNull(),
    /** Raw readings rewritten. */
    readings: integer('readings').notNull(),
  },
  (t) => [index('device_protocol_switches_device').on(t.deviceId, t.switchedAt)],
);

/**
 * A device's raw readings as they were stored before a protocol switch rewrote them (values in `from_order`):
 * the points the new protocol does not have are not lost.
 */
export const readingsBeforeSwitch = pgTable(
  'readings_before_switch',
  {
    switchId: integer('switch_id')
      .notNull()
      .references(() => deviceProtocolSwitches.id, { onDelete: 'cascade' }),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    values: doublePrecision('values').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.switchId, t.ts] })],
);

/**
 * Background jobs (jobs/registry.ts): one row per cluster-scoped job. A process runs a due time by claiming it with
 * one UPDATE (`next_due <= now()` and no live lease); `run_started_at` set while a run holds the lease, so a lease
 * that runs out with it still set is a run lost with its process. `attempt` counts tries of the current due time.
 */
export const backgroundJobs = pgTable('background_jobs', {
  name: text('name').primaryKey(),
  everyMs: integer('every_ms').notNull(),
  nextDue: timestamp('next_due', { withTimezone: true }).notNull(),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  owner: text('owner'),
  runStartedAt: timestamp('run_started_at', { withTimezone: true }),
  attempt: integer('attempt').notNull().default(0),
});

/** The last runs of each cluster-scoped job (the newest 50 kept per job): when, how long, and how it ended. */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    job: text('job').notNull(),
    owner: text('owner').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** ok, failed or lost (its process died holding the lease). */
    result: text('result').notNull(),
    attempt: integer('attempt').notNull(),
    error: text('error'),
  },
  (t) => [index('job_runs_job_id').on(t.job, t.id)],
);

/**
 * The server processes' consumer sessions on an external broker (issue 26 part 5): each process names its
 * persistent MQTT sessions here and beats every few seconds. A session whose process stopped beating (killed)
 * is adopted by another process: it resumes the session, stores what the broker kept for it, leaves the share
 * group and ends the session, so the dead process's share of messages moves to the others.
 */
export const mqttConsumerSessions = pgTable('mqtt_consumer_sessions', {
  clientId: text('client_id').primaryKey(),
  owner: text('owner').notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  adoptedBy: text('adopted_by'),
  adoptedAt: timestamp('adopted_at', { withTimezone: true }),
});
