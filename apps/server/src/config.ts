import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { type BenefitFactors, DEFAULT_BENEFIT_FACTORS } from '@sunward/contracts/plants';
import { z } from 'zod';
import { type OidcProviderSettings, OidcProvidersSettingSchema } from './features/third-party/oidc-settings.js';

/** Ingest refuses readings older than this many days unless MAX_REPORT_AGE_DAYS says otherwise. */
const DEFAULT_MAX_REPORT_AGE_DAYS = 31;

/**
 * Every setting comes from the environment; README.md lists them in one table. Parsed once at start
 * so a bad value stops the process with a message naming the setting, not a failure later.
 */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** The server refuses to start when DATA_DIR's file system has less free space than this. */
  DATA_DIR_MIN_FREE_MB: z.coerce.number().min(0).max(1_000_000_000).default(100),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ADMIN_ACCOUNT: z.string().min(1).max(64).default('admin'),
  ADMIN_PASSWORD: z
    .string()
    .min(8)
    .max(128)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_TOKEN_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  SIGN_IN_SLOW_AFTER: z.coerce.number().int().min(1).max(100).default(3),
  SIGN_IN_LOCK_AFTER: z.coerce.number().int().min(2).max(1000).default(10),
  SIGN_IN_LOCK_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  SIGN_IN_MAX_DELAY_MS: z.coerce.number().int().min(0).max(30_000).default(5000),
  WEB_DIST: z.string().optional(),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  MQTT_HOST: z.string().default('0.0.0.0'),
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\//, 'must start with mqtt:// or mqtts://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MQTT_CONSUMERS: z.coerce.number().int().min(1).max(256).default(16),
  MQTT_CONSUMER_ID: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional(),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .default('sunward-ingest'),
  MQTT_SESSION_EXPIRY_S: z.coerce.number().int().min(0).max(604_800).default(86_400),
  MQTT_TAKEOVER_S: z.coerce.number().int().min(3).max(3600).default(10),
  /** PEM certificate (chain) and key: the embedded broker then also takes MQTT over TLS on MQTT_TLS_PORT. */
  MQTT_TLS_CERT_FILE: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MQTT_TLS_KEY_FILE: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MQTT_TLS_PORT: z.coerce.number().int().min(0).max(65535).default(8883),
  OFFLINE_AFTER_INTERVALS: z.coerce.number().min(1.5).max(100).default(3),
  RAW_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(730),
  /** Days a file in the download centre (background export, report) is kept before it is removed. */
  DOWNLOAD_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** Days gateway connection log entries (connects, disconnects, refused reports) are kept. */
  CONNECTION_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  /** Where devices reach this server over HTTP (firmware images for upgrades); default: its own address. */
  PUBLIC_URL: z.string().url().optional(),
  /** How long a command to a device waits for its reply before it is reported as timed out. */
  COMMAND_TIMEOUT_S: z.coerce.number().min(1).max(600).default(15),
  /** Items of one batch task upgrading at the same time (the company's per-minute cap applies on top). */
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(20),
  /** Devices a company may command per minute unless its own cap says otherwise (remote operation safety). */
  COMMAND_CAP_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Spec 02 gives the plant picture limit as 3 MB in one wording and 6 MB in another. */
  /** Spec: the in-China check chooses map tiles reachable in China; no address database ships, so it is a setting. */
  MAP_IN_CHINA: z.enum(['0', '1']).default('0'),
  /** Webhooks may reach private, loopback and link-local addresses (on-premise receivers, tests); off by default (SSRF guard). */
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false', '1', '0']).default('false'),
  PLANT_PICTURE_MAX_MB: z
    .union([z.literal('3'), z.literal('6')])
    .default('3')
    .transform(Number),
  /** Spec 02 §5 gives the firmware image limit as 1.5 MB in one wording and 3 MB in another. */
  FIRMWARE_MAX_MB: z
    .union([z.literal('1.5'), z.literal('3')])
    .default('1.5')
    .transform(Number),
  /** PEM file of the platform's Ed25519 firmware signing key; unset: one generated into DATA_DIR/keys. */
  FIRMWARE_SIGNING_KEY_FILE: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Plant overview: where weather comes from for plants without a weather station (unset: nowhere). */
  WEATHER_PROVIDER: z
    .enum(['open-meteo'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Environmental benefit factors per kWh generated (and kg CO2 a tree absorbs per year). */
  BENEFIT_CO2_KG_PER_KWH: z.coerce.number().min(0).max(10).default(DEFAULT_BENEFIT_FACTORS.co2KgPerKwh),
  BENEFIT_SO2_KG_PER_KWH: z.coerce.number().min(0).max(10).default(DEFAULT_BENEFIT_FACTORS.so2KgPerKwh),
  BENEFIT_COAL_KG_PER_KWH: z.coerce.number().min(0).max(10).default(DEFAULT_BENEFIT_FACTORS.coalKgPerKwh),
  BENEFIT_CO2_KG_PER_TREE: z.coerce.number().min(0.1).max(1000).default(DEFAULT_BENEFIT_FACTORS.co2KgPerTree),
  /** OEM branding (issue 24): a request to <domain>.<BASE_DOMAIN> gets that OEM project's brand; unset: none. */
  BASE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Where the mobile app is downloaded (GET /anonymous/download/url); unset: no link. */
  APP_IOS_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  APP_ANDROID_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Outgoing e-mail (verification codes, alarms): smtp://user:pass@host:port or smtps://; unset writes DATA_DIR/outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().min(3).default('Sunward <no-reply@sunward.local>'),
  // Accounts (issue 7)
  /** Spec 01 §5 gives two readings of the password rule: strict 8-20 with a digit and a capital, lenient 6-16. */
  PASSWORD_POLICY: z.enum(['strict', 'lenient']).default('strict'),
  // Notifications (issue 8): alarm messages, alarm e-mails, SMS.
  /** One alarm message per device and event code per this many minutes (flapping devices); 0 turns it off. */
  ALARM_THROTTLE_MINUTES: z.coerce.number().min(0).max(1440).default(10),
  /** Alarms collect this long before they are e-mailed (several at once go as one digest). */
  ALARM_EMAIL_BATCH_SECONDS: z.coerce.number().min(0.2).max(3600).default(15),
  /** Alarm e-mails one recipient gets per hour at most; later alarms wait and go as one digest. */
  ALARM_EMAIL_MAX_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(6),
  /** A failed e-mail is retried after this long, doubling each time, up to EMAIL_MAX_ATTEMPTS attempts. */
  EMAIL_RETRY_BASE_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  EMAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** Unset: SMS are only written to the send log. http: POSTed as JSON to SMS_HTTP_URL. */
  SMS_PROVIDER: z
    .enum(['http'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMS_HTTP_URL: z.string().url().optional(),
  SMS_HTTP_TOKEN: z.string().optional(),
  SMS_MAX_PER_SENDER_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(100),
  SMS_MAX_PER_PHONE_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /** Third-party sign-in: a JSON array of OpenID Connect providers (README); unset: none. */
  OIDC_PROVIDERS: OidcProvidersSettingSchema,
  /** Where providers send the browser back (the console's /loginThird); unset: derived from each request. */
  OIDC_REDIRECT_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Smart bulbs (issue 22): the bulb bridge's OAuth 2.0 endpoints and Hue-style API; unset: bulbs cannot be connected. */
  LIGHT_BRIDGE_AUTHORIZE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LIGHT_BRIDGE_TOKEN_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LIGHT_BRIDGE_REVOKE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LIGHT_BRIDGE_API_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LIGHT_BRIDGE_CLIENT_ID: z.string().max(256).default('sunward'),
  LIGHT_BRIDGE_CLIENT_SECRET: z.string().max(1024).default(''),
  /** Where the bridge sends the browser back (the console's /smart/lights); unset: derived from each request. */
  LIGHT_BRIDGE_REDIRECT_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * Which reverse proxies are believed about the client's address and scheme (X-Forwarded-For/-Proto/-Host):
   * unset or false: none (headers ignored); true: any; a number: that many hops; else addresses or CIDRs, comma-separated.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context) => {
      const text = value.trim().toLowerCase();
      if (text === '' || text === 'false' || text === 'off') return false;
      if (text === 'true' || text === 'on') return true;
      if (/^\d+$/.test(text)) return Number(text);
      const addresses = text.split(',').map((part) => part.trim());
      const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
      const bad = addresses.find((part) => !named.has(part) && isIP(part.split('/')[0] ?? '') === 0);
      if (bad !== undefined) {
        context.addIssue({ code: 'custom', message: `"${bad}" is not true, false, a hop count or an address/CIDR` });
        return z.NEVER;
      }
      return addresses;
    }),
  /** Requests per RATE_LIMIT_WINDOW_SECONDS one access token may make (0: no limit). */
  RATE_LIMIT_PER_TOKEN: z.coerce.number().int().min(0).max(100_000_000).default(1200),
  /** Requests per window one address may make without a token (sign-in, console files, public calls; 0: no limit). */
  RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).max(100_000_000).default(1200),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * Turns on the mosquitto-go-auth HTTP backend for an external broker (docs/mosquitto.md): the broker asks
   * /api/mqtt-auth/<token>/user|superuser|acl whether a gateway may log in or use a topic. Unset: off.
   */
  MQTT_AUTH_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_-]{24,128}$/, 'must be 24 to 128 letters, digits, - or _')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Bearer token Prometheus sends to /metrics; unset: /metrics answers only this machine, unproxied (docs/decisions.md). */
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .max(256)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** GB28181 SIP server for cameras (issue 23, docs/video.md): UDP port, 0 = any free port (tests), off = no SIP server. */
  SIP_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).default(5060),
  /** The platform's SIP ID (20 digits, GB28181: centre code + 200 + serial) cameras are told to register with. */
  SIP_SERVER_ID: z
    .string()
    .regex(/^\d{20}$/, '20 digits')
    .default('34020000002000000001'),
  /** The SIP domain (the digest realm); unset: the SIP ID's first 10 digits. */
  SIP_DOMAIN: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,64}$/)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The SIP server IP shown to users for the camera's settings; unset: this machine's first non-loopback IPv4. */
  SIP_PUBLIC_IP: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Seconds between camera keepalives; a camera is inactive after 3 missed. */
  SIP_KEEPALIVE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Where camera video goes (issue 23): the built-in ffmpeg → HLS adapter, or ZLMediaKit's HTTP API (ZLM_URL, ZLM_SECRET). */
  MEDIA_SERVER: z.enum(['builtin', 'zlmediakit']).default('builtin'),
  /** The address cameras send their RTP to (the INVITE's c= line); unset: this machine's first non-loopback IPv4. */
  MEDIA_RTP_IP: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** A stream nobody has watched for this many minutes is stopped (BYE to the camera). */
  MEDIA_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(3),
  /** The ffmpeg the built-in adapter runs. */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  ZLM_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ZLM_SECRET: z
    .string()
    .max(256)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The base browsers load ZLMediaKit's HLS from (unset: ZLM_URL). */
  ZLM_PLAY_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The address cameras reach ZLMediaKit's RTP ports at (unset: ZLM_URL's host). */
  ZLM_RTP_IP: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SIMULATOR: z.enum(['on', 'off']).default('on'),
  SIMULATOR_SEED: z.coerce.number().int().min(0).default(42),
  /** Seconds between a demo gateway's reports, live and in its history (docs/decisions.md: why 5 minutes). */
  SIMULATOR_INTERVAL: z.coerce.number().int().min(1).max(3600).default(300),
  /** Days of history the demo fleet gets on first start (0: none). */
  SIMULATOR_HISTORY_DAYS: z.coerce.number().int().min(0).max(366).default(60),
  /** Oldest report ingest stores, in days (unset: 31, or the demo history's days + 2 when that is longer). */
  MAX_REPORT_AGE_DAYS: z.coerce.number().int().min(1).max(3660).optional(),
  /** Megabytes of report payloads ingest holds accepted and not yet stored; past it the broker stops reading (backpressure). */
  INGEST_PENDING_MB: z.coerce.number().min(0.01).max(4096).default(16),
  /** How far the JavaScript heap grows past what survived the last full collection before the next (lib/heap-growth.ts); 0: V8's own. */
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(1000).default(50),
});

export interface Config {
  port: number;
  /** PORT was set, so a taken port is an error rather than a reason to use another. */
  portExplicit: boolean;
  /** METRICS_TOKEN: the bearer token /metrics asks for; undefined: loopback only. */
  metricsToken: string | undefined;
  /** TRUST_PROXY, in the form Fastify's trustProxy takes. */
  trustProxy: boolean | number | string[];
  /** RATE_LIMIT_*: requests per window per access token and per address (0: that limit is off). */
  rateLimit: { perToken: number; perAddress: number; windowMs: number };
  host: string;
  dataDir: string;
  /** Free space DATA_DIR needs at start (DATA_DIR_MIN_FREE_MB). */
  dataDirMinFreeMb: number;
  databaseUrl: string | undefined;
  adminAccount: string;
  adminPassword: string | undefined;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** A refresh token retired less than this long ago still exchanges (a reload or a second tab mid-refresh). */
  refreshReuseGraceSeconds: number;
  signIn: { slowAfter: number; lockAfter: number; lockMinutes: number; maxDelayMs: number };
  /** Built console to serve; absent when only the API runs (tests, dev with Vite). */
  webDist: string | undefined;
  /** portExplicit: MQTT_PORT was set, so a taken port is an error rather than a reason to try the next. */
  mqtt: {
    port: number;
    host: string;
    url: string | undefined;
    portExplicit: boolean;
    consumers: number;
    consumerId: string | undefined;
    shareGroup: string;
    sessionExpirySeconds: number;
    /** MQTT_TAKEOVER_S: a server process silent this long has its broker sessions adopted by another. */
    takeoverSeconds: number;
    /** MQTT_AUTH_TOKEN: the external broker checks gateways with the server (mosquitto-go-auth HTTP backend). */
    authToken: string | undefined;
    /** MQTT over TLS on the embedded broker (MQTT_TLS_*), beside the plain port. */
    tls: { port: number; cert: Buffer; key: Buffer } | undefined;
  };
  /** A device is offline after this many of its gateway's report intervals without a report. */
  offlineAfterIntervals: number;
  /** Raw readings are kept this long; hourly averages and energy rollups stay. */
  rawRetentionDays: number;
  /** Download centre files are removed this many days after they are ready. */
  downloadRetentionDays: number;
  /** Gateway connection log entries older than this many days are deleted by the retention job. */
  connectionLogRetentionDays: number;
  publicUrl: string | undefined;
  commandTimeoutMs: number;
  commandCapPerMinute: number;
  /** BATCH_CONCURRENCY: items of one batch task upgrading at once. */
  batchConcurrency: number;
  /** Largest plant picture accepted, in bytes (PLANT_PICTURE_MAX_MB: 3 or 6). */
  plantPictureMaxBytes: number;
  /** Largest firmware image accepted, in bytes (FIRMWARE_MAX_MB: 1.5 or 3). */
  firmwareMaxBytes: number;
  /** The firmware signing key (FIRMWARE_SIGNING_KEY_FILE); undefined: DATA_DIR/keys/firmware-ed25519.pem. */
  firmwareSigningKeyFile: string | undefined;
  /** Answer of GET /anonymous/ip inChina (MAP_IN_CHINA). */
  mapInChina: boolean;
  /** Webhooks may be delivered to non-public addresses (WEBHOOK_ALLOW_PRIVATE); false: public addresses only. */
  webhookAllowPrivate: boolean;
  /** Weather for plants without a station (WEATHER_PROVIDER); undefined answers "no weather". */
  weatherProvider: 'open-meteo' | undefined;
  /** BENEFIT_* settings: CO2, SO2, standard coal per kWh and CO2 per tree. */
  benefitFactors: BenefitFactors;
  /** APP_IOS_URL and APP_ANDROID_URL: the mobile app's store links. */
  appLinks: { ios: string | undefined; android: string | undefined };
  /** BASE_DOMAIN: OEM projects answer at <domain>.<BASE_DOMAIN>; undefined: no host-based branding. */
  baseDomain: string | undefined;
  /** SMTP_URL and MAIL_FROM; no SMTP_URL: messages go to DATA_DIR/outbox. */
  mail: { smtpUrl: string | undefined; from: string };
  /** Accounts: PASSWORD_POLICY, the password rule of registration, reset and change (strict or lenient). */
  accounts: { passwordRule: 'strict' | 'lenient' };
  /** Alarm messages and e-mails (ALARM_*, EMAIL_*). */
  notifications: {
    throttleMs: number;
    emailBatchMs: number;
    emailMaxPerHour: number;
    emailRetryBaseMs: number;
    emailMaxAttempts: number;
  };
  /** msg/send: the provider (SMS_PROVIDER, SMS_HTTP_*) and the hourly limits. */
  sms: {
    provider: { kind: 'log' } | { kind: 'http'; url: string; token: string | undefined; timeoutMs: number };
    perSenderPerHour: number;
    perPhonePerHour: number;
  };
  /** LIGHT_BRIDGE_*: the bulb bridge (undefined: not configured). */
  lightBridge:
    | {
        authorizeUrl: string;
        tokenUrl: string;
        revokeUrl: string | undefined;
        apiUrl: string;
        clientId: string;
        clientSecret: string;
        redirectUrl: string | undefined;
      }
    | undefined;
  /** OIDC_PROVIDERS and OIDC_REDIRECT_URL: third-party sign-in. */
  oidc: { providers: OidcProviderSettings[]; redirectUrl: string | undefined };
  /** SIP_*: the GB28181 SIP server (features/video/sip); undefined when SIP_PORT=off. */
  sip:
    | { port: number; portExplicit: boolean; serverId: string; domain: string; publicIp: string | undefined; keepaliveSeconds: number }
    | undefined;
  /** MEDIA_*, FFMPEG_PATH, ZLM_*: where camera video goes (features/video/media/create-media-server.ts). */
  media: {
    rtpIp: string | undefined;
    idleMs: number;
    adapter: { kind: 'builtin'; ffmpegPath: string } | { kind: 'zlmediakit'; url: string; secret: string; playUrl: string; rtpIp: string };
  };
  /** npm start runs the demo fleet's simulator beside the server. */
  /** The demo fleet: its gateways report every intervalSeconds, live and in the historyDays of past. */
  simulator: { seed: number; intervalSeconds: number; historyDays: number } | undefined;
  /** MAX_REPORT_AGE_DAYS: readings older than this many days are refused (stale). */
  maxReportAgeDays: number;
  /** INGEST_PENDING_MB in bytes: ingest's byte budget (ingest/byte-budget.ts). */
  ingestPendingBytes: number;
  /** HEAP_GROWTH_PERCENT: V8's heap growing factor, set by main.ts (lib/heap-growth.ts); 0: V8's own heuristic. */
  heapGrowthPercent: number;
}

export class ConfigError extends Error {}

/** Reads a file a setting names, or stops with a message naming the setting. */
function readSettingFile(setting: string, path: string): Buffer {
  try {
    return readFileSync(resolve(path));
  } catch (error) {
    throw new ConfigError(`Setting ${setting} is invalid: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function mqttTls(certFile: string | undefined, keyFile: string | undefined, port: number): Config['mqtt']['tls'] {
  if (!certFile && !keyFile) return undefined;
  if (!certFile) throw new ConfigError('Setting MQTT_TLS_CERT_FILE is invalid: MQTT_TLS_KEY_FILE needs it');
  if (!keyFile) throw new ConfigError('Setting MQTT_TLS_KEY_FILE is invalid: MQTT_TLS_CERT_FILE needs it');
  const cert = readSettingFile('MQTT_TLS_CERT_FILE', certFile);
  const key = readSettingFile('MQTT_TLS_KEY_FILE', keyFile);
  if (!cert.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError('Setting MQTT_TLS_CERT_FILE is invalid: not a PEM certificate');
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key.toString('latin1')))
    throw new ConfigError('Setting MQTT_TLS_KEY_FILE is invalid: not a PEM private key');
  return { port, cert, key };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Setting ${String(issue?.path[0])} is invalid: ${issue?.message}`);
  }
  const e = parsed.data;
  if (e.SMS_PROVIDER === 'http' && !e.SMS_HTTP_URL) throw new ConfigError('Setting SMS_HTTP_URL is invalid: SMS_PROVIDER=http needs it');
  if (e.MEDIA_SERVER === 'zlmediakit' && !e.ZLM_URL) throw new ConfigError('Setting ZLM_URL is invalid: MEDIA_SERVER=zlmediakit needs it');
  if (e.MEDIA_SERVER === 'zlmediakit' && !e.ZLM_SECRET)
    throw new ConfigError('Setting ZLM_SECRET is invalid: MEDIA_SERVER=zlmediakit needs it (api.secret in its config.ini)');
  return {
    port: e.PORT,
    portExplicit: env.PORT !== undefined && env.PORT !== '',
    metricsToken: e.METRICS_TOKEN,
    trustProxy: e.TRUST_PROXY,
    rateLimit: { perToken: e.RATE_LIMIT_PER_TOKEN, perAddress: e.RATE_LIMIT_PER_ADDRESS, windowMs: e.RATE_LIMIT_WINDOW_SECONDS * 1000 },
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    dataDirMinFreeMb: e.DATA_DIR_MIN_FREE_MB,
    databaseUrl: e.DATABASE_URL,
    adminAccount: e.ADMIN_ACCOUNT.trim().toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_MINUTES * 60,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_DAYS * 86_400,
    refreshReuseGraceSeconds: e.REFRESH_REUSE_GRACE_SECONDS,
    signIn: {
      slowAfter: e.SIGN_IN_SLOW_AFTER,
      lockAfter: e.SIGN_IN_LOCK_AFTER,
      lockMinutes: e.SIGN_IN_LOCK_MINUTES,
      maxDelayMs: e.SIGN_IN_MAX_DELAY_MS,
    },
    webDist: e.WEB_DIST ? resolve(e.WEB_DIST) : undefined,
    mqtt: {
      port: e.MQTT_PORT,
      host: e.MQTT_HOST,
      url: e.MQTT_URL,
      portExplicit: env.MQTT_PORT !== undefined && env.MQTT_PORT !== '',
      consumers: e.MQTT_CONSUMERS,
      consumerId: e.MQTT_CONSUMER_ID,
      shareGroup: e.MQTT_SHARE_GROUP,
      sessionExpirySeconds: e.MQTT_SESSION_EXPIRY_S,
      takeoverSeconds: e.MQTT_TAKEOVER_S,
      authToken: e.MQTT_AUTH_TOKEN,
      tls: mqttTls(e.MQTT_TLS_CERT_FILE, e.MQTT_TLS_KEY_FILE, e.MQTT_TLS_PORT),
    },
    offlineAfterIntervals: e.OFFLINE_AFTER_INTERVALS,
    rawRetentionDays: e.RAW_RETENTION_DAYS,
    downloadRetentionDays: e.DOWNLOAD_RETENTION_DAYS,
    connectionLogRetentionDays: e.CONNECTION_LOG_RETENTION_DAYS,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    commandTimeoutMs: e.COMMAND_TIMEOUT_S * 1000,
    commandCapPerMinute: e.COMMAND_CAP_PER_MINUTE,
    batchConcurrency: e.BATCH_CONCURRENCY,
    plantPictureMaxBytes: e.PLANT_PICTURE_MAX_MB * 1024 * 1024,
    firmwareMaxBytes: Math.round(e.FIRMWARE_MAX_MB * 1024 * 1024),
    firmwareSigningKeyFile: e.FIRMWARE_SIGNING_KEY_FILE ? resolve(e.FIRMWARE_SIGNING_KEY_FILE) : undefined,
    mapInChina: e.MAP_IN_CHINA === '1',
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true' || e.WEBHOOK_ALLOW_PRIVATE === '1',
    weatherProvider: e.WEATHER_PROVIDER,
    benefitFactors: {
      co2KgPerKwh: e.BENEFIT_CO2_KG_PER_KWH,
      so2KgPerKwh: e.BENEFIT_SO2_KG_PER_KWH,
      coalKgPerKwh: e.BENEFIT_COAL_KG_PER_KWH,
      co2KgPerTree: e.BENEFIT_CO2_KG_PER_TREE,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    appLinks: { ios: e.APP_IOS_URL, android: e.APP_ANDROID_URL },
    baseDomain: e.BASE_DOMAIN,
    accounts: { passwordRule: e.PASSWORD_POLICY },
    notifications: {
      throttleMs: e.ALARM_THROTTLE_MINUTES * 60_000,
      emailBatchMs: e.ALARM_EMAIL_BATCH_SECONDS * 1000,
      emailMaxPerHour: e.ALARM_EMAIL_MAX_PER_HOUR,
      emailRetryBaseMs: e.EMAIL_RETRY_BASE_SECONDS * 1000,
      emailMaxAttempts: e.EMAIL_MAX_ATTEMPTS,
    },
    sms: {
      provider:
        e.SMS_PROVIDER === 'http' && e.SMS_HTTP_URL
          ? { kind: 'http', url: e.SMS_HTTP_URL, token: e.SMS_HTTP_TOKEN, timeoutMs: 10_000 }
          : { kind: 'log' },
      perSenderPerHour: e.SMS_MAX_PER_SENDER_PER_HOUR,
      perPhonePerHour: e.SMS_MAX_PER_PHONE_PER_HOUR,
    },
    lightBridge:
      e.LIGHT_BRIDGE_AUTHORIZE_URL && e.LIGHT_BRIDGE_TOKEN_URL && e.LIGHT_BRIDGE_API_URL
        ? {
            authorizeUrl: e.LIGHT_BRIDGE_AUTHORIZE_URL,
            tokenUrl: e.LIGHT_BRIDGE_TOKEN_URL,
            revokeUrl: e.LIGHT_BRIDGE_REVOKE_URL,
            apiUrl: e.LIGHT_BRIDGE_API_URL,
            clientId: e.LIGHT_BRIDGE_CLIENT_ID,
            clientSecret: e.LIGHT_BRIDGE_CLIENT_SECRET,
            redirectUrl: e.LIGHT_BRIDGE_REDIRECT_URL,
          }
        : undefined,
    oidc: { providers: e.OIDC_PROVIDERS, redirectUrl: e.OIDC_REDIRECT_URL },
    sip:
      e.SIP_PORT === 'off'
        ? undefined
        : {
            port: e.SIP_PORT,
            portExplicit: env.SIP_PORT !== undefined && env.SIP_PORT !== '',
            serverId: e.SIP_SERVER_ID,
            domain: e.SIP_DOMAIN ?? e.SIP_SERVER_ID.slice(0, 10),
            publicIp: e.SIP_PUBLIC_IP,
            keepaliveSeconds: e.SIP_KEEPALIVE_SECONDS,
          },
    media: {
      rtpIp: e.MEDIA_RTP_IP,
      idleMs: e.MEDIA_IDLE_MINUTES * 60_000,
      adapter:
        e.MEDIA_SERVER === 'zlmediakit' && e.ZLM_URL && e.ZLM_SECRET
          ? {
              kind: 'zlmediakit',
              url: e.ZLM_URL.replace(/\/$/, ''),
              secret: e.ZLM_SECRET,
              playUrl: (e.ZLM_PLAY_URL ?? e.ZLM_URL).replace(/\/$/, ''),
              rtpIp: e.ZLM_RTP_IP ?? new URL(e.ZLM_URL).hostname,
            }
          : { kind: 'builtin', ffmpegPath: e.FFMPEG_PATH },
    },
    simulator:
      e.SIMULATOR === 'on'
        ? {
            seed: e.SIMULATOR_SEED,
            intervalSeconds: e.SIMULATOR_INTERVAL,
            historyDays: e.SIMULATOR_HISTORY_DAYS,
          }
        : undefined,
    ingestPendingBytes: Math.round(e.INGEST_PENDING_MB * 1024 * 1024),
    heapGrowthPercent: e.HEAP_GROWTH_PERCENT,
    maxReportAgeDays:
      e.MAX_REPORT_AGE_DAYS ??
      (e.SIMULATOR === 'on' ? Math.max(DEFAULT_MAX_REPORT_AGE_DAYS, e.SIMULATOR_HISTORY_DAYS + 2) : DEFAULT_MAX_REPORT_AGE_DAYS),
  };
}
