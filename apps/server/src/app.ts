import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import type { Server as HttpServer } from 'node:http';
import { join } from 'node:path';
import { effectivePermissions } from '@sunward/contracts/permissions';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { createAcSwitchesRepository } from './features/ac-switches/ac-switches.repository.js';
import { acSwitchesRoutes } from './features/ac-switches/ac-switches.routes.js';
import { createAcSwitchesService } from './features/ac-switches/ac-switches.service.js';
import { createSwitchTasksRepository } from './features/ac-switches/switch-tasks.repository.js';
import { switchTasksRoutes } from './features/ac-switches/switch-tasks.routes.js';
import { createSwitchTasksService } from './features/ac-switches/switch-tasks.service.js';
import { createAccountRepository } from './features/account/account.repository.js';
import { accountRoutes } from './features/account/account.routes.js';
import { createAccountService } from './features/account/account.service.js';
import { profileRoutes } from './features/account/profile.routes.js';
import { createProfileService } from './features/account/profile.service.js';
import { createSmsSender } from './features/account/sms-sender.js';
import { createTwoFactorService } from './features/account/two-factor.service.js';
import { createOperationLog } from './features/audit/operation-log.js';
import { createAuthRepository } from './features/auth/auth.repository.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { createAuthService } from './features/auth/auth.service.js';
import { createSecretThrottle } from './features/auth/secret-throttle.js';
import { createSecretThrottleRepository } from './features/auth/secret-throttle.repository.js';
import { createChannelRepository } from './features/channel/channel.repository.js';
import { channelRoutes } from './features/channel/channel.routes.js';
import { createChannelService } from './features/channel/channel.service.js';
import { createBatchTasksRepository } from './features/commands/batch-tasks.repository.js';
import { batchTasksRoutes } from './features/commands/batch-tasks.routes.js';
import { createBatchTasksService } from './features/commands/batch-tasks.service.js';
import type { CommandTracker } from './features/commands/command-tracker.js';
import { createCommandsRepository } from './features/commands/commands.repository.js';
import { commandsRoutes } from './features/commands/commands.routes.js';
import { commandLogScope, createCommandsService } from './features/commands/commands.service.js';
import { createCompanyRepository } from './features/company/company.repository.js';
import { companyRoutes } from './features/company/company.routes.js';
import { createCompanyService } from './features/company/company.service.js';
import { createLogoStore } from './features/company/company-logo.js';
import { createCustomersRepository } from './features/customers/customers.repository.js';
import { customersRoutes } from './features/customers/customers.routes.js';
import { createCustomersService } from './features/customers/customers.service.js';
import { createDeviceAccess } from './features/devices/device-access.js';
import { createDevicesRepository } from './features/devices/devices.repository.js';
import { devicesRoutes } from './features/devices/devices.routes.js';
import { createDevicesService } from './features/devices/devices.service.js';
import { createDictionaryRepository } from './features/dictionary/dictionary.repository.js';
import { dictionaryRoutes } from './features/dictionary/dictionary.routes.js';
import { createDictionaryService } from './features/dictionary/dictionary.service.js';
import { createEnergyHubRepository } from './features/energy-hub/energy-hub.repository.js';
import { energyHubRoutes } from './features/energy-hub/energy-hub.routes.js';
import { createEnergyHubService } from './features/energy-hub/energy-hub.service.js';
import { createEnergyHubDispatch } from './features/energy-hub/energy-hub-dispatch.js';
import { createVen } from './features/energy-hub/openadr/ven.js';
import { createEventDescriptionsRepository } from './features/events/event-descriptions.repository.js';
import { eventDescriptionsRoutes } from './features/events/event-descriptions.routes.js';
import { createEventDescriptionsService } from './features/events/event-descriptions.service.js';
import { createEventsRepository } from './features/events/events.repository.js';
import { eventsRoutes } from './features/events/events.routes.js';
import { createEventsService } from './features/events/events.service.js';
import { createFilesRepository } from './features/files/files.repository.js';
import { filesRoutes } from './features/files/files.routes.js';
import { createDownloadCentre } from './features/files/files.service.js';
import { createBatteryFirmwareRepository } from './features/firmware/battery-firmware.repository.js';
import { batteryFirmwareRoutes } from './features/firmware/battery-firmware.routes.js';
import { createBatteryFirmwareService } from './features/firmware/battery-firmware.service.js';
import { createFirmwareRepository } from './features/firmware/firmware.repository.js';
import { firmwareRoutes } from './features/firmware/firmware.routes.js';
import { createFirmwareService } from './features/firmware/firmware.service.js';
import { firmwareReleasesRoutes } from './features/firmware/firmware-releases.routes.js';
import { loadFirmwareSigner } from './features/firmware/firmware-signing.js';
import { createFileFirmwareStore } from './features/firmware/firmware-store.js';
import { createFullscreenRepository } from './features/fullscreen/fullscreen.repository.js';
import { fullscreenRoutes } from './features/fullscreen/fullscreen.routes.js';
import { createFullscreenService } from './features/fullscreen/fullscreen.service.js';
import { createGatewaysRepository } from './features/gateways/gateways.repository.js';
import { gatewaysRoutes } from './features/gateways/gateways.routes.js';
import { createGatewaysService } from './features/gateways/gateways.service.js';
import { createHardwareRepository } from './features/hardware/hardware.repository.js';
import { hardwareRoutes } from './features/hardware/hardware.routes.js';
import { createHardwareService } from './features/hardware/hardware.service.js';
import { createInvitationsRepository } from './features/invitations/invitations.repository.js';
import { invitationsRoutes } from './features/invitations/invitations.routes.js';
import { createInvitationsService } from './features/invitations/invitations.service.js';
import { type BridgeSettings, createBridgeClient } from './features/light/bridge-client.js';
import { createLightRepository } from './features/light/light.repository.js';
import { lightRoutes } from './features/light/light.routes.js';
import { createLightService } from './features/light/light.service.js';
import { liveRoutes } from './features/live/live.routes.js';
import { createLogsRepository } from './features/logs/logs.repository.js';
import { logsRoutes } from './features/logs/logs.routes.js';
import { createLogsService } from './features/logs/logs.service.js';
import { createAlarmNotifier } from './features/messages/alarm-notifier.service.js';
import { createMessagesRepository } from './features/messages/messages.repository.js';
import { messagesRoutes } from './features/messages/messages.routes.js';
import { createMessagesService } from './features/messages/messages.service.js';
import { createMqttAuth } from './features/mqtt-auth/mqtt-auth.js';
import { createMqttAuthRepository } from './features/mqtt-auth/mqtt-auth.repository.js';
import { mqttAuthRoutes } from './features/mqtt-auth/mqtt-auth.routes.js';
import { createNoticesRepository } from './features/notices/notices.repository.js';
import { noticesRoutes } from './features/notices/notices.routes.js';
import { createNoticesService } from './features/notices/notices.service.js';
import { createAlarmMailService } from './features/notifications/alarm-mail.service.js';
import { createNotificationsRepository } from './features/notifications/notifications.repository.js';
import { notifyRoutes } from './features/notifications/notify.routes.js';
import { createNotifySettingsService } from './features/notifications/notify-settings.service.js';
import { observabilityRoutes } from './features/observability/observability.routes.js';
import type { Readiness } from './features/observability/readiness.js';
import { createOemRepository } from './features/oem/oem.repository.js';
import { oemRoutes } from './features/oem/oem.routes.js';
import { createOemService } from './features/oem/oem.service.js';
import { createOemFileStore } from './features/oem/oem-files.js';
import { installOemHost } from './features/oem/oem-host.js';
import { createOpenApiRepository } from './features/open-api/open-api.repository.js';
import { openApiConsoleRoutes, openV1Routes } from './features/open-api/open-api.routes.js';
import { createOpenApiService } from './features/open-api/open-api.service.js';
import { createWebhooksService } from './features/open-api/webhooks.service.js';
import { createPermissionsRepository } from './features/permissions/permissions.repository.js';
import { permissionsRoutes } from './features/permissions/permissions.routes.js';
import { createPlantAccess } from './features/plants/plant-access.js';
import { createPlantEnergyRepository } from './features/plants/plant-energy.repository.js';
import { plantEnergyRoutes } from './features/plants/plant-energy.routes.js';
import { createPlantEnergyService } from './features/plants/plant-energy.service.js';
import { plantFilesRoutes } from './features/plants/plant-files.routes.js';
import { createPlantLayoutRepository } from './features/plants/plant-layout.repository.js';
import { plantLayoutRoutes } from './features/plants/plant-layout.routes.js';
import { createPlantLayoutService } from './features/plants/plant-layout.service.js';
import { createPlantsRepository } from './features/plants/plants.repository.js';
import { eventCountRoutes, plantsRoutes } from './features/plants/plants.routes.js';
import { createPlantsService } from './features/plants/plants.service.js';
import { createTimeZoneCatalogue } from './features/plants/time-zones.js';
import { protocolAnalysisRoutes } from './features/protocol-analysis/protocol-analysis.routes.js';
import { createProtocolStore } from './features/protocols/protocol-store.js';
import { createProtocolsRepository } from './features/protocols/protocols.repository.js';
import { protocolsRoutes } from './features/protocols/protocols.routes.js';
import { createProtocolsService } from './features/protocols/protocols.service.js';
import { reportRenderer } from './features/reports/report-render.js';
import { createReportsRepository } from './features/reports/reports.repository.js';
import { reportsRoutes } from './features/reports/reports.routes.js';
import { createReportsService } from './features/reports/reports.service.js';
import { createSmartAppsRepository } from './features/smart-apps/smart-apps.repository.js';
import { smartAppsRoutes } from './features/smart-apps/smart-apps.routes.js';
import { createSmartAppsService } from './features/smart-apps/smart-apps.service.js';
import { ruleDevices, ruleSwitches } from './features/smart-rules/rule-devices.js';
import { startSmartRulesEngine } from './features/smart-rules/smart-rules.engine.js';
import { createSmartRulesRepository } from './features/smart-rules/smart-rules.repository.js';
import { smartRulesRoutes } from './features/smart-rules/smart-rules.routes.js';
import { createSmartRulesService } from './features/smart-rules/smart-rules.service.js';
import { createSmsRepository } from './features/sms/sms.repository.js';
import { smsRoutes } from './features/sms/sms.routes.js';
import { createSmsService } from './features/sms/sms.service.js';
import { createSmsProvider } from './features/sms/sms-provider.js';
import { systemRoutes } from './features/system/system.routes.js';
import { createOidcClient } from './features/third-party/oidc-client.js';
import { createThirdPartyRepository } from './features/third-party/third-party.repository.js';
import { thirdPartyRoutes } from './features/third-party/third-party.routes.js';
import { createThirdPartyService } from './features/third-party/third-party.service.js';
import { createUsersRepository } from './features/users/users.repository.js';
import { usersRoutes } from './features/users/users.routes.js';
import { createVersionsRepository } from './features/versions/versions.repository.js';
import { versionsRoutes } from './features/versions/versions.routes.js';
import { createVersionsService } from './features/versions/versions.service.js';
import { provisionDemoCameras } from './features/video/demo-cameras.js';
import { createMediaServer } from './features/video/media/create-media-server.js';
import { mediaRoutes } from './features/video/media/media.routes.js';
import { createVideoRepository } from './features/video/video.repository.js';
import { videoGrantRoutes, videoRoutes } from './features/video/video.routes.js';
import { createVideoService } from './features/video/video.service.js';
import { startVideoSip } from './features/video/video-sip.js';
import { ingestRoutes } from './ingest/ingest.routes.js';
import type { IngestStats as IngestStatsSnapshot } from './ingest/ingest-pipeline.js';
import type { LiveHub } from './ingest/live-hub.js';
import type { RegistryEvents } from './ingest/registry-events.js';
import { createJobsRepository } from './jobs/jobs.repository.js';
import { jobsRoutes } from './jobs/jobs.routes.js';
import { createJobRegistry } from './jobs/registry.js';
import { createMailer } from './lib/mailer.js';
import { loggerOptions } from './lib/redact.js';
import { loadSecretBox } from './lib/secret-box.js';
import { authPlugin } from './plugins/auth.js';
import { bodyParsersPlugin } from './plugins/body-parsers.js';
import { consolePlugin } from './plugins/console.js';
import { clientErrorHandler, errorsPlugin, frameworkErrorHandler } from './plugins/errors.js';
import { openApiPlugin } from './plugins/openapi.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { createRateLimitRepository } from './plugins/rate-limit.repository.js';
import { requestLanguagePlugin } from './plugins/request-language.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { SERVER_VERSION } from './version.js';

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  live: LiveHub;
  /** Registry changes (plants, gateway bindings) the ingest pipeline must pick up. */
  registry: RegistryEvents;
  /** Ingest figures for the operators' stats call (the pipeline starts after the app is built). */
  ingestStats: () => IngestStatsSnapshot;
  /** Commands down to gateways (the channel starts with the broker, after the app is built). */
  commands: () => CommandTracker | undefined;
  /** Tests pass false to keep their output quiet; the product logs to stdout as JSON. */
  logger?: boolean;
  /** Readiness checks and this server's gauges for /metrics (features/observability). */
  observability: { readiness: Readiness; gauges: Registry };
  /** An HTTP server already bound to its port (lib/listeners.ts); the caller hands it requests once the app is ready. */
  server?: HttpServer;
  /** Bind the GB28181 SIP server's UDP port when ready (the running server; not the API document's app). */
  sip?: boolean;
}

/** TRUST_PROXY=<n>: the n proxies nearest the server are believed (Fastify's numeric form, typed as a function). */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

export async function buildApp({
  config,
  database,
  live,
  registry,
  ingestStats,
  commands,
  logger = true,
  server,
  observability,
  sip: sipWanted = false,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Never let a secret reach a log line: headers, token fields and secret query values (lib/redact.ts).
    logger: logger ? loggerOptions(config.logLevel) : false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // X-Forwarded-* only from the proxies TRUST_PROXY names (request.protocol, request.ip, request.host).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    serverFactory: server ? (): HttpServer => server : undefined,
    bodyLimit: 1024 * 1024,
    // Refusals before routing (undecodable path, huge parameter, request line or headers over Node's limit)
    // still answer the envelope with code 4 (plugins/errors.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const { db } = database;
  // Every periodic task registers here (jobs/registry.ts) and starts when the app is ready, stops when it closes.
  const jobs = createJobRegistry({ repository: createJobsRepository(db), log: app.log });
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => jobs.stop());
  // Verification codes (accounts) and alarm notifications (messages) share this one way out.
  const mailer = createMailer({ ...config.mail, dataDir: config.dataDir }, app.log);
  const authRepository = createAuthRepository(db);
  const permissionsRepository = createPermissionsRepository(db);
  const usersRepository = createUsersRepository(db);
  // Accounts (issue 7): registration, password reset, personal settings, two-factor sign-in.
  const accountRepository = createAccountRepository(db);
  // One throttle for every secret check: passwords, verification codes, gateway keys (SIGN_IN_* settings).
  const secretThrottle = createSecretThrottle({ repository: createSecretThrottleRepository(db), policy: config.signIn });
  const twoFactorService = createTwoFactorService({ repository: accountRepository, log: app.log, throttle: secretThrottle });
  // OEM projects (issue 24): host-based branding, and sign-in on an OEM domain for its company's tree only.
  const oem = createOemService({
    repository: createOemRepository(db),
    files: createOemFileStore(config.dataDir),
    baseDomain: config.baseDomain,
  });
  installOemHost(app, { service: oem, webDist: config.webDist });
  const authService = createAuthService({
    repository: authRepository,
    settings: {
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
      refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
    },
    throttle: secretThrottle,
    log: app.log,
    secondFactor: twoFactorService,
    admit: (host, userId) => oem.admitSignIn(host, userId),
  });
  const accountService = createAccountService({
    repository: accountRepository,
    mailer,
    sms: createSmsSender({ provider: config.sms.provider, dataDir: config.dataDir }, app.log),
    passwordRule: config.accounts.passwordRule,
    throttle: secretThrottle,
    log: app.log,
  });

  // External plugins first, then the app's own, then the features (docs/decisions.md: plugin order).
  await app.register(securityHeadersPlugin, {
    mediaOrigins: config.media.adapter.kind === 'zlmediakit' ? [new URL(config.media.adapter.playUrl).origin] : [],
  });
  await app.register(bodyParsersPlugin);
  await app.register(openApiPlugin, { version: SERVER_VERSION });
  await app.register(requestLanguagePlugin);
  await app.register(errorsPlugin);
  // Before every route, so that each one counts (RATE_LIMIT_* settings).
  // With PostgreSQL the counters are shared by every server process (issue 26: stateless HTTP).
  const sharedRateLimits = database.kind === 'postgres' ? createRateLimitRepository(db) : undefined;
  await app.register(rateLimitPlugin, { ...config.rateLimit, shared: sharedRateLimits });
  await app.register(authPlugin, { authRepository, permissionsRepository });
  // Before the features, so that the HTTP latency histogram sees every route.
  await app.register(observabilityRoutes, { metricsToken: config.metricsToken, ...observability });

  await app.register(systemRoutes, { version: SERVER_VERSION, db, appLinks: config.appLinks });
  await app.register(authRoutes, { service: authService });
  await app.register(accountRoutes, { service: accountService });
  await app.register(profileRoutes, {
    profile: createProfileService({
      repository: accountRepository,
      verifyBindCode: (address, code, ip) => accountService.verifyCode(address, 'bind', code, true, ip),
      throttle: secretThrottle,
      passwordRule: config.accounts.passwordRule,
      dataDir: config.dataDir,
      log: app.log,
    }),
    twoFactor: twoFactorService,
  });
  // Third-party sign-in (OIDC_PROVIDERS): sessions come from the auth service, like the password grant's.
  await app.register(thirdPartyRoutes, {
    service: createThirdPartyService({
      repository: createThirdPartyRepository(db),
      client: createOidcClient(),
      providers: config.oidc.providers,
      redirectUrl: config.oidc.redirectUrl,
      startSession: (input) => authService.startSession(input),
      log: app.log,
    }),
  });
  await app.register(usersRoutes, { repository: usersRepository });
  await app.register(permissionsRoutes, { repository: permissionsRepository });
  const plantAccess = createPlantAccess(db);
  // Notifications (issue 8): the notification centre, equipment alarms to people, e-mail alarms, SMS.
  const messagesRepository = createMessagesRepository(db);
  const messagesService = createMessagesService({ repository: messagesRepository, live });
  // An external broker checks gateway logins and topics with the server (MQTT_AUTH_TOKEN, docs/mosquitto.md).
  if (config.mqtt.authToken)
    await app.register(mqttAuthRoutes, {
      token: config.mqtt.authToken,
      auth: createMqttAuth({ repository: createMqttAuthRepository(db), throttle: secretThrottle }),
    });
  await app.register(messagesRoutes, { service: messagesService });
  const notificationsRepository = createNotificationsRepository(db);
  const alarmMail = createAlarmMailService({
    repository: notificationsRepository,
    mailer,
    settings: {
      batchMs: config.notifications.emailBatchMs,
      maxPerHour: config.notifications.emailMaxPerHour,
      retryBaseMs: config.notifications.emailRetryBaseMs,
      maxAttempts: config.notifications.emailMaxAttempts,
    },
    log: app.log,
  });
  const alarmNotifier = createAlarmNotifier({
    repository: messagesRepository,
    live,
    emails: alarmMail,
    settings: { throttleMs: config.notifications.throttleMs, collectMs: 200 },
    log: app.log,
  });
  await app.register(notifyRoutes, {
    service: createNotifySettingsService({
      repository: notificationsRepository,
      mail: alarmMail,
      plantAccess,
      maxPerHour: config.notifications.emailMaxPerHour,
      throttle: secretThrottle,
    }),
  });
  await app.register(smsRoutes, {
    service: createSmsService({
      repository: createSmsRepository(db),
      provider: createSmsProvider(config.sms.provider),
      limits: { perSenderPerHour: config.sms.perSenderPerHour, perPhonePerHour: config.sms.perPhonePerHour },
      log: app.log,
    }),
  });
  // Alarm e-mails: one pass per batch interval across processes (the outbox's rows are the state).
  await jobs.register({ name: 'alarm_email', everyMs: config.notifications.emailBatchMs, scope: 'cluster', run: () => alarmMail.run() });
  app.addHook('onReady', async () => {
    alarmNotifier.start();
  });
  app.addHook('onClose', async () => {
    await alarmNotifier.close();
    await alarmMail.close();
  });
  const plantsRepository = createPlantsRepository(db);
  const timeZones = createTimeZoneCatalogue(db);
  // Dictionary (issue 24): the pickers' currencies, time zones and plant types, managed by platform administrators.
  const dictionary = createDictionaryService({
    repository: createDictionaryRepository(db),
    timeZoneNames: () => timeZones.names(),
    isTimeZone: (zone) => timeZones.has(zone),
  });
  await app.register(dictionaryRoutes, { service: dictionary });
  const plantsService = createPlantsService({
    throttle: secretThrottle,
    repository: plantsRepository,
    access: plantAccess,
    registry,
    timeZones,
    currencies: { has: (code) => dictionary.has('currency', code) },
  });
  await app.register(plantsRoutes, { service: plantsService, repository: plantsRepository, access: plantAccess });
  await app.register(eventCountRoutes, { repository: plantsRepository });
  await app.register(plantLayoutRoutes, {
    service: createPlantLayoutService({ repository: createPlantLayoutRepository(db), access: plantAccess }),
  });
  await app.register(plantFilesRoutes, {
    db,
    repository: plantsRepository,
    access: plantAccess,
    dataDir: config.dataDir,
    pictureMaxBytes: config.plantPictureMaxBytes,
    inChina: config.mapInChina,
    downloads: () => downloads,
  });
  await app.register(plantEnergyRoutes, { db, plantAccess, config });
  const devicesService = createDevicesService({
    db,
    repository: createDevicesRepository(db),
    access: createDeviceAccess(db),
    log: createOperationLog(db),
    registry,
    // Made below with the download centre; read only when an export starts.
    downloads: () => downloads,
    // The commands service is made below; its password check (with the secret throttle) is used at request time.
    confirmPassword: (auth, password) => commandsService.confirmPassword(auth, password),
  });
  await app.register(devicesRoutes, { service: devicesService });
  const firmwareService = createFirmwareService({
    repository: createFirmwareRepository(db),
    store: await createFileFirmwareStore(join(config.dataDir, 'firmware')),
    signer: await loadFirmwareSigner({ keyFile: config.firmwareSigningKeyFile, dataDir: config.dataDir }),
    log: createOperationLog(db),
    maxBytes: config.firmwareMaxBytes,
  });
  const commandsService = createCommandsService({
    repository: createCommandsRepository(db),
    devices: createDevicesRepository(db),
    access: createDeviceAccess(db),
    commands,
    settings: { timeoutMs: config.commandTimeoutMs, defaultCapPerMinute: config.commandCapPerMinute },
    throttle: secretThrottle,
    firmware: firmwareService,
    gateways: createGatewaysRepository(db),
    // Devices fetch upgrade images over HTTP: PUBLIC_URL when set, else this server's own address.
    baseUrl: () => {
      if (config.publicUrl) return config.publicUrl;
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      return `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`;
    },
    live,
    log: app.log,
  });
  await app.register(commandsRoutes, { service: commandsService });
  const batchTasks = createBatchTasksService({
    repository: createBatchTasksRepository(db),
    commands: commandsService,
    firmware: firmwareService,
    concurrency: config.batchConcurrency,
  });
  await app.register(batchTasksRoutes, { service: batchTasks });
  // The batch scheduler: one pass a second across processes; its state is in the database.
  await jobs.register({ name: 'batch_tasks', everyMs: 1000, scope: 'cluster', run: () => batchTasks.tick() });
  // Gateway upgrades queued while their gateway was offline go out once it is online.
  await jobs.register({ name: 'queued_upgrades', everyMs: 1000, scope: 'cluster', run: () => commandsService.dispatchQueued() });
  // Commands of a process that stopped, which nobody will answer now, are closed.
  await jobs.register({
    name: 'orphaned_commands',
    everyMs: 30_000,
    scope: 'cluster',
    atStart: true,
    run: () => commandsService.sweepOrphans(),
  });
  await app.register(liveRoutes, { live, plantAccess });
  await app.register(ingestRoutes, { stats: () => ({ ...ingestStats(), liveConnections: live.size }), live });

  // The download centre (issue 21): background exports and reports, kept DOWNLOAD_RETENTION_DAYS.
  const downloads = createDownloadCentre({
    repository: createFilesRepository(db),
    dataDir: config.dataDir,
    retentionDays: config.downloadRetentionDays,
    notify: (message) => messagesService.send({ ...message, data: null }),
    log: app.log,
  });
  await app.register(filesRoutes, { centre: downloads });
  // Hourly (and at start): expired downloads, and scheduled reports' files whose e-mail went out (or past the retention).
  await jobs.register({
    name: 'download_sweep',
    everyMs: 3_600_000,
    scope: 'cluster',
    atStart: true,
    run: async () => ({ ...(await downloads.sweep()), reportFiles: await reports.sweepAttachments() }),
  });
  app.addHook('onReady', async () => {
    await downloads.recover();
  });
  app.addHook('onClose', async () => {
    await downloads.close();
  });
  // Reports (issue 21): from the overview's figures (plant-energy reportFigures), files through pdfkit and exceljs,
  // schedules mailed through the alarm mailer's outbox (retries), large sets through the download centre.
  const reportLogos = createLogoStore(config.dataDir);
  const reportEnergy = createPlantEnergyRepository(db);
  const reports = createReportsService({
    repository: createReportsRepository(db),
    plantAccess,
    energy: createPlantEnergyService({ repository: reportEnergy, benefitFactors: config.benefitFactors }),
    // A device report's energy is the device page's (devices service), its power the overview's rollup series.
    deviceEnergy: (caller, kind, sn, language, period, date) => devicesService.energy(caller, kind, sn, language, period, date),
    devicePower: (deviceId, index, fromMs, toMs, bucket) =>
      reportEnergy.bucketSeries([{ deviceId, index, name: 'power', coef: 1 }], fromMs, toMs, bucket),
    renderer: reportRenderer,
    readLogo: (url) => reportLogos.read(url.split('/').pop() ?? ''),
    mail: alarmMail,
    downloads,
    attachmentDir: join(config.dataDir, 'reports'),
    retentionDays: config.downloadRetentionDays,
    saveAttachment: async (name, bytes) => {
      const dir = join(config.dataDir, 'reports');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, name), bytes);
      return join(dir, name);
    },
  });
  await app.register(reportsRoutes, { service: reports });
  await jobs.register({ name: 'report_schedules', everyMs: 60_000, scope: 'cluster', run: () => reports.tick() });
  await app.register(eventsRoutes, { service: createEventsService({ repository: createEventsRepository(db), downloads }) });
  // The large-screen display (issue 20): figures from the plant list, the plant overview and the event list; display links.
  await app.register(fullscreenRoutes, {
    service: createFullscreenService({
      repository: createFullscreenRepository(db),
      plants: plantsRepository,
      access: plantAccess,
      energy: createPlantEnergyService({ repository: createPlantEnergyRepository(db), benefitFactors: config.benefitFactors }),
      events: createEventsService({ repository: createEventsRepository(db) }),
      permissionsOf: async (roleId, inCompany) => effectivePermissions(await permissionsRepository.keysOfRole(roleId), inCompany),
      benefitFactors: config.benefitFactors,
    }),
  });
  // The open plant API (issue 25): API keys acting for their creator on chosen plants, /open/v1 answered by the
  // console's own functions, per-key quotas, and per-company signed webhooks from a persisted queue.
  const openApiRepository = createOpenApiRepository(db);
  const openEnergy = createPlantEnergyService({ repository: createPlantEnergyRepository(db), benefitFactors: config.benefitFactors });
  const openApi = createOpenApiService({
    repository: openApiRepository,
    access: plantAccess,
    permissionsOf: async (roleId, inCompany) => effectivePermissions(await permissionsRepository.keysOfRole(roleId), inCompany),
    plants: plantsRepository,
    devices: devicesService,
    commands: commandsService,
  });
  const webhooks = createWebhooksService({
    repository: openApiRepository,
    live,
    settings: { pollMs: 1000, backoffUnitMs: 1000, timeoutMs: 10_000, allowPrivate: config.webhookAllowPrivate },
    log: app.log,
  });
  app.addHook('onReady', async () => webhooks.start());
  app.addHook('onClose', async () => webhooks.close());
  await app.register(openApiConsoleRoutes, { service: openApi, webhooks });
  await app.register(openV1Routes, {
    service: openApi,
    console: {
      plantDetail: (auth, plantId) => plantsService.detail(auth, plantId),
      realtime: (plantId) => openEnergy.realtime(plantId),
      powerDay: (plantId, date) => openEnergy.powerDay(plantId, date),
      powerMonth: (plantId, month) => openEnergy.powerMonth(plantId, month),
      powerYear: (plantId, year) => openEnergy.powerYear(plantId, year),
      events: (plantId, page, size, language) => openEnergy.events(plantId, page, size, language),
      deviceRow: async (auth, kind, sn, language) => (await devicesService.detail(auth, kind, sn, language)).device,
      deviceRealtime: (auth, kind, sn, language) => devicesService.realtime(auth, kind, sn, language),
      deviceDay: (auth, kind, sn, language, range) => devicesService.day(auth, kind, sn, language, range),
    },
  });
  // Event descriptions (issue 21): imported texts per protocol, code and language, used wherever events are shown.
  const eventDescriptions = createEventDescriptionsService({ repository: createEventDescriptionsRepository(db) });
  await app.register(eventDescriptionsRoutes, { service: eventDescriptions });
  // Each process keeps the texts in memory: a process job.
  app.addHook('onReady', async () => eventDescriptions.refresh());
  await jobs.register({ name: 'event_texts', everyMs: 60_000, scope: 'process', run: () => eventDescriptions.refresh() });
  // The logger family (issue 21): gateway communication history and the maintenance log, exported through the download centre.
  await app.register(logsRoutes, {
    service: createLogsService({
      repository: createLogsRepository(db),
      downloads,
      // The command audit (upgrade records, commands, debug log) exported in the background, as its page scopes it.
      commandLog: (auth, filters, page, size) => commandsService.log(commandLogScope(auth, filters), page, size),
    }),
  });
  await app.register(gatewaysRoutes, {
    service: createGatewaysService({
      repository: createGatewaysRepository(db),
      access: createDeviceAccess(db),
      log: createOperationLog(db),
      registry,
      commands,
      throttle: secretThrottle,
    }),
  });
  // The application centre (issue 22): apps per company; the AC switch routes are gated on theirs.
  const videoRepository = createVideoRepository(db);
  const smartApps = createSmartAppsService({
    repository: createSmartAppsRepository(db),
    log: createOperationLog(db),
    grants: { isGranted: (companyId) => videoRepository.isGranted(companyId) },
  });
  // Smart AC switches (issue 22 part 1): the registry, and on/off through the remote-command path.
  const acSwitchesService = createAcSwitchesService({
    repository: createAcSwitchesRepository(db),
    access: createDeviceAccess(db),
    plants: plantAccess,
    log: createOperationLog(db),
    commands: commandsService,
    throttle: secretThrottle,
  });
  await app.register(acSwitchesRoutes, { apps: smartApps, service: acSwitchesService });
  // Timed tasks of the switches: a pass every 5 s runs each due occurrence once (state in the database).
  const switchTasks = createSwitchTasksService({
    repository: createSwitchTasksRepository(db),
    switches: acSwitchesService,
    confirmPassword: commandsService.confirmPassword,
    log: createOperationLog(db),
  });
  await app.register(switchTasksRoutes, { apps: smartApps, service: switchTasks });
  await jobs.register({ name: 'switch_tasks', everyMs: 5_000, scope: 'cluster', run: () => switchTasks.tick() });
  app.addHook('onClose', async () => {
    await switchTasks.settle();
  });
  await app.register(firmwareRoutes, { service: firmwareService });
  // The hardware list and products (issue 19), seeded with the shipped maps' models.
  const hardwareService = createHardwareService({ repository: createHardwareRepository(db) });
  await hardwareService.seed();
  await app.register(hardwareRoutes, { service: hardwareService });
  // Company, staff, roles, agents and customers (issue 7).
  const companyRepository = createCompanyRepository(db);
  const logos = createLogoStore(config.dataDir);
  // Agent appointments and customer links of existing accounts wait for the invitee (issue 15.4).
  const invitationsService = createInvitationsService({
    repository: createInvitationsRepository(db),
    notify: ({ invitation, ...message }) => messagesService.send({ ...message, data: invitation }),
  });
  await app.register(invitationsRoutes, { service: invitationsService });
  await app.register(companyRoutes, {
    service: createCompanyService({ throttle: secretThrottle, repository: companyRepository, logos, invitations: invitationsService }),
    logos,
  });
  // The channel hierarchy (issue 24): the tree of companies with counts per subtree, child companies, settings.
  await app.register(channelRoutes, { service: createChannelService({ repository: createChannelRepository(db) }) });
  await app.register(customersRoutes, {
    service: createCustomersService({
      repository: createCustomersRepository(db),
      accounts: companyRepository,
      invitations: invitationsService,
    }),
    permissions: permissionsRepository,
    roleOfAccount: async (userId) => (await companyRepository.accountById(userId))?.roleId,
  });
  // Battery firmware library (types, products, images through the same upload pipeline) and the public release log.
  await app.register(batteryFirmwareRoutes, {
    service: createBatteryFirmwareService({
      repository: createBatteryFirmwareRepository(db),
      firmware: firmwareService,
      log: createOperationLog(db),
    }),
  });
  await app.register(firmwareReleasesRoutes, { service: firmwareService });
  // Notices and versions (issue 8): maintenance notices and the release notes behind the update dialog.
  await app.register(noticesRoutes, {
    service: createNoticesService({ repository: createNoticesRepository(db), announce: (render) => messagesService.announce(render) }),
  });
  await app.register(versionsRoutes, { service: createVersionsService({ repository: createVersionsRepository(db) }) });
  // Protocols as data (issue 19): the shipped maps seeded, the decoder's maps read from the store.
  const protocolsRepository = createProtocolsRepository(db);
  const protocolStore = createProtocolStore({ repository: protocolsRepository, log: app.log, jobs });
  await protocolStore.start();
  app.addHook('onClose', async () => protocolStore.stop());
  await app.register(protocolsRoutes, { service: createProtocolsService({ repository: protocolsRepository, store: protocolStore }) });
  await app.register(protocolAnalysisRoutes);
  await app.register(oemRoutes, { service: oem });
  // Issue 22: the application centre (apps per company), smart bulbs through a bridge, smart rules.
  await app.register(smartAppsRoutes, { service: smartApps });
  // The bulb bridge: LIGHT_BRIDGE_*, or else the demo's simulated one once the simulator runs it (demo-runner.ts).
  let lightBridge = config.lightBridge;
  let lightClient = lightBridge ? createBridgeClient(lightBridge) : undefined;
  app.decorate('useLightBridge', (settings: BridgeSettings & { redirectUrl: string | undefined }) => {
    lightBridge = settings;
    lightClient = createBridgeClient(settings);
  });
  const lights = createLightService({
    repository: createLightRepository(db),
    client: () => lightClient,
    box: await loadSecretBox(config.dataDir),
    apps: smartApps,
    access: plantAccess,
    log: createOperationLog(db),
    redirectUrl: (origin) => lightBridge?.redirectUrl ?? `${origin}/smart/lights`,
  });
  await app.register(lightRoutes, { service: lights });
  // Energy hub (issue 23 part 4): enrollments and events behind the app; a pass every 2 s starts and stops the
  // events' discharges through the command path, each start and stop claimed once (energy-hub-dispatch.ts).
  const energyHubRepository = createEnergyHubRepository(db);
  const energyHubDispatch = createEnergyHubDispatch({
    repository: energyHubRepository,
    commands: commandsService,
    notify: (message) => messagesService.send(message),
  });
  const energyHub = createEnergyHubService({
    repository: energyHubRepository,
    plants: plantAccess,
    dispatch: energyHubDispatch,
    log: createOperationLog(db),
  });
  await app.register(energyHubRoutes, { service: energyHub, apps: smartApps });
  // OpenADR 2.0b (part 5): enrollments with a VTN are polled every 10 s (register, events, answers, reports).
  const ven = createVen({ repository: energyHubRepository, hub: energyHub });
  await jobs.register({
    name: 'openadr_ven',
    everyMs: 10_000,
    scope: 'cluster',
    run: () => ven.tick((error) => app.log.warn({ err: error }, 'OpenADR poll failed')),
  });
  await jobs.register({ name: 'energy_hub', everyMs: 2_000, scope: 'cluster', run: () => energyHubDispatch.tick() });
  // Rules act on bulbs and AC switches (features/smart-rules/rule-devices.ts); switch actions act for the rule's saver.
  const ruleEnergy = createPlantEnergyService({ repository: createPlantEnergyRepository(db), benefitFactors: config.benefitFactors });
  const smartRulesRepository = createSmartRulesRepository(db);
  const smartRules = createSmartRulesService({
    repository: smartRulesRepository,
    apps: smartApps,
    access: plantAccess,
    devices: ruleDevices({
      lights,
      switches: ruleSwitches({
        switches: createAcSwitchesRepository(db),
        plantSwitchIds: (plantId) => smartRulesRepository.plantSwitchIds(plantId),
        commands: commandsService,
      }),
    }),
    flow: (plantId) => ruleEnergy.flow(plantId),
    log: createOperationLog(db),
    permissionsOf: async (roleId, inCompany) => effectivePermissions(await permissionsRepository.keysOfRole(roleId), inCompany),
    confirmPassword: commandsService.confirmPassword,
  });
  await app.register(smartRulesRoutes, { service: smartRules });
  let stopRules: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stopRules = startSmartRulesEngine({
      live,
      service: smartRules,
      onError: (error) => app.log.error({ err: error }, 'smart rule evaluation failed'),
    });
  });
  app.addHook('onClose', async () => stopRules?.());
  // Video surveillance (issue 23): spaces, cameras, channels and streams behind the camera app; the GB28181 SIP
  // server (video-sip.ts) binds SIP_PORT when the app is ready, and the media server receives what INVITEs ask.
  const videoBox = await loadSecretBox(config.dataDir);
  const media = createMediaServer(config, {
    onIdle: (streamId) => void video.idle(streamId),
    log: { warn: (obj, msg) => app.log.warn(obj, msg), info: (obj, msg) => app.log.info(obj, msg) },
  });
  const videoSip = startVideoSip({
    config,
    enabled: sipWanted,
    directory: () => video.directory,
    checkSecret: async (sipId, ip, verify) =>
      (await secretThrottle.check({ kind: 'gateway-key', subject: `camera:${sipId}`, ip }, verify)).outcome,
    log: app.log,
  });
  const video = createVideoService({
    repository: videoRepository,
    box: videoBox,
    log: createOperationLog(db),
    media,
    sip: videoSip.server,
    settings: videoSip.settings,
    logger: app.log,
  });
  // The demo's cameras (fleet/demo-runner.ts): the demo company's grant, app, space and cameras, and their file.
  app.decorate('provisionDemoCameras', async (companyName: string, file: string) => {
    const info = video.sipServerInfo();
    return provisionDemoCameras({
      repository: videoRepository,
      box: videoBox,
      companyName,
      sip: info.enabled
        ? { host: '127.0.0.1', port: info.port, serverId: info.id, domain: info.domain, keepaliveSeconds: info.keepaliveSeconds }
        : undefined,
      file,
    });
  });
  await app.register(videoRoutes, { service: video, apps: smartApps });
  await app.register(videoGrantRoutes, { service: video });
  await app.register(mediaRoutes, { media, canView: (auth, streamId) => video.canView(auth, streamId) });
  // Cameras whose registration ran out or whose keepalives stopped go inactive (checked each keepalive interval).
  // A process job: the SIP registrations and streams it ends are this process's.
  await jobs.register({
    name: 'video_sweep',
    everyMs: Math.max(1, Math.min(60, config.sip?.keepaliveSeconds ?? 60)) * 1000,
    scope: 'process',
    run: () => video.sweep(),
  });
  app.addHook('onReady', async () => {
    await videoSip.start();
  });
  app.addHook('onClose', async () => {
    await videoSip.close();
    await video.close();
    await media.closeAll().catch(() => undefined);
  });
  await app.register(jobsRoutes, { registry: jobs });
  if (config.webDist) await app.register(consolePlugin, { webDist: config.webDist });
  // Last of the ready hooks: the jobs start once what they use has started (recovered downloads, SIP, texts).
  app.addHook('onReady', async () => jobs.start());
  return app;
}
