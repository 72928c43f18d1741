import { Code } from '@sunward/contracts/codes';
import {
  ENERGY_HUB_WRITE_KEY,
  EnergyEventSchema,
  EnrollmentBodySchema,
  EnrollmentListSchema,
  EnrollmentReviewSchema,
  EnrollmentSchema,
  EventCreateSchema,
  EventListQuerySchema,
  EventListSchema,
  EventRespondSchema,
  OpenAdrSettingsBodySchema,
  PlantBatteriesSchema,
  ResponseSettingsSchema,
} from '@sunward/contracts/energy-hub';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { SmartApp } from '@sunward/contracts/smart-home';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { appGate } from '../smart-apps/app-gate.js';
import type { EnergyHubService } from './energy-hub.service.js';

const TAGS = ['Energy hub'];
const IdParams = z.object({ id: IdParamSchema });
const READ = 'station.view';
/** Enrolling, settings and answers (operate on the plant), the programme's side (manage on the plant). */
const WRITE = { kind: 'manage', key: ENERGY_HUB_WRITE_KEY } as const;
const GATE = [Code.APP_NOT_ENABLED];
const ENROLLMENT = [...GATE, Code.ENERGY_HUB_ENROLLMENT_NOT_FOUND];
const EVENT = [...GATE, Code.ENERGY_HUB_EVENT_NOT_FOUND];

/** Issue 23 part 4: the energy hub's enrollments, events and answers, behind the company's energy hub app. */
export const energyHubRoutes: FastifyPluginAsyncZod<{
  service: EnergyHubService;
  apps: { require(auth: AuthContext, app: SmartApp): Promise<unknown> };
}> = async (app, { service, apps }) => {
  app.addHook('onRequest', appGate(apps, 'energy_hub'));

  app.get(
    '/api/v1/energyHub/plant/:id/batteries',
    {
      config: { access: READ },
      schema: {
        tags: TAGS,
        summary: 'The batteries of a plant that an enrollment can name',
        'x-codes': [...GATE, Code.PLANT_NOT_FOUND],
        params: IdParams,
        response: { 200: envelopeSchema(PlantBatteriesSchema) },
      },
    },
    async (request) => ok(request, { infos: await service.batteries(request.requireAuth(), request.params.id) }),
  );

  app.get(
    '/api/v1/energyHub/enrollments',
    {
      config: { access: READ },
      schema: {
        tags: TAGS,
        summary: 'Enrollments of the plants the caller sees, newest first',
        'x-codes': GATE,
        response: { 200: envelopeSchema(EnrollmentListSchema) },
      },
    },
    async (request) => ok(request, { infos: await service.list(request.requireAuth()) }),
  );

  app.get(
    '/api/v1/energyHub/enrollments/:id',
    {
      config: { access: READ },
      schema: {
        tags: TAGS,
        summary: 'One enrollment',
        'x-codes': ENROLLMENT,
        params: IdParams,
        response: { 200: envelopeSchema(EnrollmentSchema) },
      },
    },
    async (request) => ok(request, await service.get(request.requireAuth(), request.params.id)),
  );

  app.post(
    '/api/v1/energyHub/enrollments',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Enrolls a plant’s batteries in a demand-response programme (pending the programme’s answer)',
        'x-codes': [
          ...GATE,
          Code.PLANT_NOT_FOUND,
          Code.ENERGY_HUB_UTILITY_ACCOUNT_INVALID,
          Code.ENERGY_HUB_SOURCE_ACCOUNT_INVALID,
          Code.ENERGY_HUB_SN_REPEATED,
          Code.ENERGY_HUB_DEVICE_NOT_FOUND,
          Code.ENERGY_HUB_NOT_BATTERY,
          Code.ENERGY_HUB_CUSTOMER_BOUND,
          Code.ENERGY_HUB_ACCOUNT_BOUND,
          Code.ENERGY_HUB_DEVICE_USED,
        ],
        body: EnrollmentBodySchema,
        response: { 200: envelopeSchema(EnrollmentSchema) },
      },
    },
    async (request) => ok(request, await service.enroll(request.requireAuth(), request.body, request.language)),
  );

  app.post(
    '/api/v1/energyHub/enrollments/:id/review',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'The programme’s answer to a pending enrollment: accepted or rejected (manage on the plant)',
        'x-codes': [...ENROLLMENT, Code.ENERGY_HUB_ENROLLMENT_STATE],
        params: IdParams,
        body: EnrollmentReviewSchema,
        response: { 200: envelopeSchema(EnrollmentSchema) },
      },
    },
    async (request) => ok(request, await service.review(request.requireAuth(), request.params.id, request.body.accept)),
  );

  app.post(
    '/api/v1/energyHub/enrollments/:id/unenroll',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Leaves the programme: pending events cancelled, running discharges stopped, the batteries freed',
        'x-codes': [...ENROLLMENT, Code.ENERGY_HUB_ENROLLMENT_STATE],
        params: IdParams,
        response: { 200: envelopeSchema(EnrollmentSchema) },
      },
    },
    async (request) => ok(request, await service.unenroll(request.requireAuth(), request.params.id)),
  );

  app.post(
    '/api/v1/energyHub/enrollments/:id/settings',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Response settings: the SOC every battery keeps, which batteries take part, the most one discharges',
        'x-codes': [...ENROLLMENT, Code.ENERGY_HUB_SETTINGS_DEVICE],
        params: IdParams,
        body: ResponseSettingsSchema,
        response: { 200: envelopeSchema(EnrollmentSchema) },
      },
    },
    async (request) => ok(request, await service.saveSettings(request.requireAuth(), request.params.id, request.body, request.language)),
  );

  app.post(
    '/api/v1/energyHub/enrollments/:id/openadr',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'OpenADR 2.0b: the programme’s VTN and this VEN’s name (docs/openadr.md)',
        'x-codes': ENROLLMENT,
        params: IdParams,
        body: OpenAdrSettingsBodySchema,
        response: { 200: envelopeSchema(EnrollmentSchema) },
      },
    },
    async (request) => ok(request, await service.saveOpenAdr(request.requireAuth(), request.params.id, request.body)),
  );

  app.get(
    '/api/v1/energyHub/events',
    {
      config: { access: READ },
      schema: {
        tags: TAGS,
        summary: 'Events of the caller’s enrollments (or one enrollment’s), with each battery’s result',
        'x-codes': ENROLLMENT,
        querystring: EventListQuerySchema,
        response: { 200: envelopeSchema(EventListSchema) },
      },
    },
    async (request) => ok(request, { infos: await service.events(request.requireAuth(), request.language, request.query.enrollmentId) }),
  );

  app.post(
    '/api/v1/energyHub/enrollments/:id/events',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'An event from the programme for an accepted enrollment (manage on the plant; a VTN sends them over OpenADR)',
        'x-codes': [...ENROLLMENT, Code.ENERGY_HUB_ENROLLMENT_STATE, Code.ENERGY_HUB_EVENT_EXISTS],
        params: IdParams,
        body: EventCreateSchema,
        response: { 200: envelopeSchema(EnergyEventSchema) },
      },
    },
    async (request) => ok(request, await service.addEvent(request.requireAuth(), request.params.id, request.body, request.language)),
  );

  app.get(
    '/api/v1/energyHub/events/:id',
    {
      config: { access: READ },
      schema: {
        tags: TAGS,
        summary: 'One event and each battery’s result',
        'x-codes': EVENT,
        params: IdParams,
        response: { 200: envelopeSchema(EnergyEventSchema) },
      },
    },
    async (request) => ok(request, await service.event(request.requireAuth(), request.params.id, request.language)),
  );

  app.post(
    '/api/v1/energyHub/events/:id/respond',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'The site’s answer: join or reject a pending event, opt in or out until it ends',
        'x-codes': [...EVENT, Code.ENERGY_HUB_EVENT_STATE, Code.ENERGY_HUB_ENROLLMENT_STATE],
        params: IdParams,
        body: EventRespondSchema,
        response: { 200: envelopeSchema(EnergyEventSchema) },
      },
    },
    async (request) => ok(request, await service.respond(request.requireAuth(), request.params.id, request.body.action, request.language)),
  );

  app.post(
    '/api/v1/energyHub/events/:id/cancel',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'The programme cancels an event (manage on the plant); running discharges stop',
        'x-codes': [...EVENT, Code.ENERGY_HUB_EVENT_STATE],
        params: IdParams,
        response: { 200: envelopeSchema(EnergyEventSchema) },
      },
    },
    async (request) => ok(request, await service.cancelEvent(request.requireAuth(), request.params.id, request.language)),
  );
};
