// The one database schema, PostgreSQL dialect; it runs unchanged on PGlite and on real PostgreSQL.
// Migrations in ./migrations are generated from it with `npm run db:generate -w @sunward/server`.
// No relative imports here: drizzle-kit loads this file on its own.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const companies = pgTable('companies', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique(),
  logoUrl: text('logo_url'),
  iconUrl: text('icon_url'),
  themeColor: text('theme_color').notNull().default('#E6002D'),
  createdAt: createdAt(),
});

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
  },
  (t) => [index('messages_user_state').on(t.userId, t.state)],
);
