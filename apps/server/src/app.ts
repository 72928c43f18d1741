import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { createOperationLog } from './features/audit/operation-log.js';
import { createAuthRepository } from './features/auth/auth.repository.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { createAuthService } from './features/auth/auth.service.js';
import { createBatchTasksRepository } from './features/commands/batch-tasks.repository.js';
import { batchTasksRoutes } from './features/commands/batch-tasks.routes.js';
import { createBatchTasksService } from './features/commands/batch-tasks.service.js';
import { createCommandsRepository } from './features/commands/commands.repository.js';
import { commandsRoutes } from './features/commands/commands.routes.js';
import { createCommandsService } from './features/commands/commands.service.js';
import { createDeviceAccess } from './features/devices/device-access.js';
import { createDevicesRepository } from './features/devices/devices.repository.js';
import { devicesRoutes } from './features/devices/devices.routes.js';
import { createDevicesService } from './features/devices/devices.service.js';
import { createEventsRepository } from './features/events/events.repository.js';
import { eventsRoutes } from './features/events/events.routes.js';
import { createEventsService } from './features/events/events.service.js';
import { createFirmwareRepository } from './features/firmware/firmware.repository.js';
import { firmwareRoutes } from './features/firmware/firmware.routes.js';
import { createFirmwareService } from './features/firmware/firmware.service.js';
import { loadFirmwareSigner } from './features/firmware/firmware-signing.js';
import { createFileFirmwareStore } from './features/firmware/firmware-store.js';
import { createGatewaysRepository } from './features/gateways/gateways.repository.js';
import { gatewaysRoutes } from './features/gateways/gateways.routes.js';
import { createGatewaysService } from './features/gateways/gateways.service.js';
import { liveRoutes } from './features/live/live.routes.js';
import { createMessagesRepository } from './features/messages/messages.repository.js';
import { messagesRoutes } from './features/messages/messages.routes.js';
import { createPermissionsRepository } from './features/permissions/permissions.repository.js';
import { permissionsRoutes } from './features/permissions/permissions.routes.js';
import { createPlantAccess } from './features/plants/plant-access.js';
import { plantEnergyRoutes } from './features/plants/plant-energy.routes.js';
import { plantFilesRoutes } from './features/plants/plant-files.routes.js';
import { createPlantsRepository } from './features/plants/plants.repository.js';
import { eventCountRoutes, plantsRoutes } from './features/plants/plants.routes.js';
import { createPlantsService } from './features/plants/plants.service.js';
import { systemRoutes } from './features/system/system.routes.js';
import { createUsersRepository } from './features/users/users.repository.js';
import { usersRoutes } from './features/users/users.routes.js';
import type { CommandChannel } from './ingest/command-channel.js';
import { ingestRoutes } from './ingest/ingest.routes.js';
import type { IngestStats as IngestStatsSnapshot } from './ingest/ingest-pipeline.js';
import type { LiveHub } from './ingest/live-hub.js';
import type { RegistryEvents } from './ingest/registry-events.js';
import { createMailer } from './lib/mailer.js';
import { authPlugin } from './plugins/auth.js';
import { bodyParsersPlugin } from './plugins/body-parsers.js';
import { consolePlugin } from './plugins/console.js';
import { errorsPlugin } from './plugins/errors.js';
import { openApiPlugin } from './plugins/openapi.js';
import { requestLanguagePlugin } from './plugins/request-language.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { SERVER_VERSION } from './version.js';

/** Never let a secret reach a log line: headers, bodies and token fields are redacted. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  'req.headers["x-confirm-password"]',
  '*.refresh_token',
  '*.access_token',
  '*.token',
];

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  live: LiveHub;
  /** Registry changes (plants, gateway bindings) the ingest pipeline must pick up. */
  registry: RegistryEvents;
  /** Ingest figures for the operators' stats call (the pipeline starts after the app is built). */
  ingestStats: () => IngestStatsSnapshot;
  /** Commands down to gateways (the channel starts with the broker, after the app is built). */
  commands: () => CommandChannel | undefined;
  /** Tests pass false to keep their output quiet; the product logs to stdout as JSON. */
  logger?: boolean;
}

export async function buildApp({
  config,
  database,
  live,
  registry,
  ingestStats,
  commands,
  logger = true,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ? { level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } } : false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    trustProxy: false,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const { db } = database;
  // Verification codes (accounts) and alarm notifications (messages) share this one way out.
  const mailer = createMailer({ ...config.mail, dataDir: config.dataDir }, app.log);
  const authRepository = createAuthRepository(db);
  const permissionsRepository = createPermissionsRepository(db);
  const usersRepository = createUsersRepository(db);
  const authService = createAuthService({
    repository: authRepository,
    settings: {
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
      throttle: config.signIn,
    },
    log: app.log,
  });

  // External plugins first, then the app's own, then the features (docs/decisions.md: plugin order).
  await app.register(securityHeadersPlugin);
  await app.register(bodyParsersPlugin);
  await app.register(openApiPlugin, { version: SERVER_VERSION });
  await app.register(requestLanguagePlugin);
  await app.register(errorsPlugin);
  await app.register(authPlugin, { authRepository, permissionsRepository });

  await app.register(systemRoutes, { version: SERVER_VERSION, db });
  await app.register(authRoutes, { service: authService });
  await app.register(usersRoutes, { repository: usersRepository });
  await app.register(permissionsRoutes, { repository: permissionsRepository });
  await app.register(messagesRoutes, { repository: createMessagesRepository(db) });
  const plantAccess = createPlantAccess(db);
  const plantsRepository = createPlantsRepository(db);
  const plantsService = createPlantsService({ repository: plantsRepository, access: plantAccess, registry });
  await app.register(plantsRoutes, { service: plantsService, repository: plantsRepository, access: plantAccess });
  await app.register(eventCountRoutes, { repository: plantsRepository });
  await app.register(plantFilesRoutes, {
    db,
    repository: plantsRepository,
    access: plantAccess,
    dataDir: config.dataDir,
    pictureMaxBytes: config.plantPictureMaxBytes,
    inChina: config.mapInChina,
  });
  await app.register(plantEnergyRoutes, { db, plantAccess, config });
  await app.register(devicesRoutes, {
    service: createDevicesService({
      db,
      repository: createDevicesRepository(db),
      access: createDeviceAccess(db),
      log: createOperationLog(db),
    }),
  });
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
    firmware: firmwareService,
    // Devices fetch upgrade images over HTTP: PUBLIC_URL when set, else this server's own address.
    baseUrl: () => {
      if (config.publicUrl) return config.publicUrl;
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      return `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`;
    },
    live,
  });
  await app.register(commandsRoutes, { service: commandsService });
  const batchTasks = createBatchTasksService({
    repository: createBatchTasksRepository(db),
    commands: commandsService,
    firmware: firmwareService,
  });
  await app.register(batchTasksRoutes, { service: batchTasks });
  // The batch scheduler: one pass a second once the server listens; its state is in the database.
  let scheduler: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    scheduler = setInterval(() => {
      batchTasks.tick().catch((error: unknown) => app.log.error({ err: error }, 'batch task pass failed'));
    }, 1000);
    scheduler.unref();
  });
  app.addHook('onClose', async () => clearInterval(scheduler));
  await app.register(liveRoutes, { live, plantAccess });
  await app.register(ingestRoutes, { stats: () => ({ ...ingestStats(), liveConnections: live.size }), live });

  await app.register(eventsRoutes, { service: createEventsService({ repository: createEventsRepository(db) }) });
  await app.register(gatewaysRoutes, {
    service: createGatewaysService({
      repository: createGatewaysRepository(db),
      access: createDeviceAccess(db),
      log: createOperationLog(db),
      registry,
      commands,
    }),
  });
  await app.register(firmwareRoutes, { service: firmwareService });
  if (config.webDist) await app.register(consolePlugin, { webDist: config.webDist });
  return app;
}
