import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import {
  GatewayBindingSchema,
  GatewayCheckSchema,
  PlantCancelShareSchema,
  PlantCreateSchema,
  PlantDetailSchema,
  PlantFieldsSchema,
  PlantGatewaySchema,
  PlantListQuerySchema,
  PlantMapSchema,
  PlantPageSchema,
  PlantRowSchema,
  PlantShareSchema,
  PlantStatusCountSchema,
  PlantTransferSchema,
  ShareUserSchema,
  TariffSchema,
} from '@sunward/contracts/plants';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, ok } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { type PlantAccess, visibleCondition } from './plant-access.js';
import type { PlantFilter, PlantsRepository } from './plants.repository.js';
import type { PlantsService } from './plants.service.js';

const TAGS = ['Plants'];
/** Binding a gateway by its SN and key (plant creation, a plant's gateway, the check). */
const GATEWAY_CODES = [Code.GATEWAY_REGISTRATION_WRONG, Code.GATEWAY_USED];
const IdParams = z.object({ id: IdParamSchema });
const Done = envelopeSchema(z.null());
const ContactsSchema = PlantFieldsSchema.pick({ contactName: true, contactPhone: true, installer: true, ownerName: true });
const OptionSchema = z.object({ id: z.number(), name: z.string(), plantType: z.number() });
const FilterQuerySchema = PlantListQuerySchema.omit({ page: true, size: true, sort: true, order: true });

/** Spec 01 §7 plant calls: list, map, counts, the plant and its sub-resources, sharing and transfer. */
export const plantsRoutes: FastifyPluginAsyncZod<{ service: PlantsService; repository: PlantsRepository; access: PlantAccess }> = async (
  app,
  { service, repository, access },
) => {
  app.post(
    '/api/v1/gateways/check',
    {
      config: {
        access: { kind: 'view', key: 'station.view', readsOnly: 'checks a gateway SN and key before a plant is created; stores nothing' },
      },
      schema: {
        'x-codes': GATEWAY_CODES,
        tags: TAGS,
        summary: 'Checks a gateway SN and key before binding (300 unknown SN or wrong key, 301 already bound, 135 too many wrong keys)',
        body: GatewayBindingSchema,
        response: { 200: envelopeSchema(GatewayCheckSchema) },
      },
    },
    async (request) => ok(request, await service.checkGateway(request.requireAuth(), request.body)),
  );

  app.post(
    '/api/v1/plant',
    {
      config: { access: { kind: 'manage', key: 'station.create' } },
      schema: {
        'x-codes': [Code.COORDINATES_INVALID, ...GATEWAY_CODES],
        tags: TAGS,
        summary: 'Creates a plant: bound gateways, tariff, location and details in one transaction',
        body: PlantCreateSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number() })) },
      },
    },
    async (request) => ok(request, { id: await service.create(request.requireAuth(), request.body) }),
  );

  app.get(
    '/api/v1/plant',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Plants the caller can pick (id, name, type), by name',
        response: { 200: envelopeSchema(z.array(OptionSchema)) },
      },
    },
    async (request) => ok(request, await repository.options(request.requireAuth(), false)),
  );

  app.get(
    '/api/v1/plant/own',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Plants the caller owns or has been shared',
        response: { 200: envelopeSchema(z.array(OptionSchema)) },
      },
    },
    async (request) => ok(request, await repository.options(request.requireAuth(), true)),
  );

  const listHandler = async (auth: AuthContext, query: z.infer<typeof PlantListQuerySchema>) => {
    const page = await repository.list(auth, toFilter(query), query.page, query.size, query.sort, query.order);
    return { ...page, page: query.page, size: query.size };
  };

  app.get(
    '/api/v1/plants',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Plant list: search, filters, sorting and pagination served by the database',
        querystring: PlantListQuerySchema,
        response: { 200: envelopeSchema(PlantPageSchema) },
      },
    },
    async (request) => ok(request, await listHandler(request.requireAuth(), request.query)),
  );

  app.post(
    '/api/v1/plants',
    {
      config: {
        access: {
          kind: 'view',
          key: 'station.view',
          readsOnly: 'the plant list queried with its filters in a body (spec 01 §7); stores nothing',
        },
      },
      schema: {
        tags: TAGS,
        summary: 'Plant list with the query as a body (long filters)',
        body: PlantListQuerySchema,
        response: { 200: envelopeSchema(PlantPageSchema) },
      },
    },
    async (request) => ok(request, await listHandler(request.requireAuth(), request.body)),
  );

  app.get(
    '/api/v1/plant/filter/page',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Filtered plant page (same query as the list)',
        querystring: PlantListQuerySchema,
        response: { 200: envelopeSchema(PlantPageSchema) },
      },
    },
    async (request) => ok(request, await listHandler(request.requireAuth(), request.query)),
  );

  app.get(
    '/api/v1/plant/filter',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Values for the advanced search (regions in use)',
        response: { 200: envelopeSchema(z.object({ regions: z.array(z.string()) })) },
      },
    },
    async (request) => ok(request, { regions: await repository.regions(request.requireAuth()) }),
  );

  app.get(
    '/api/v1/overview/plantCount',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: "Counts of the caller's plants by status",
        querystring: FilterQuerySchema,
        response: { 200: envelopeSchema(PlantStatusCountSchema) },
      },
    },
    async (request) => ok(request, await repository.statusCount(request.requireAuth(), toFilter(request.query))),
  );

  app.get(
    '/api/v1/plants/map',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Map markers [id, latitude, longitude, status] for every plant matching the filters',
        querystring: FilterQuerySchema,
        response: { 200: envelopeSchema(PlantMapSchema) },
      },
    },
    async (request) => ok(request, { markers: await repository.mapMarkers(request.requireAuth(), toFilter(request.query)) }),
  );

  for (const url of ['/api/v1/plant/:id', '/api/v1/plant/:id/info'])
    app.get(
      url,
      {
        config: { access: 'station.view' },
        schema: {
          'x-codes': [Code.PLANT_NOT_FOUND],
          tags: TAGS,
          summary: 'A plant with its tariff and the caller’s access',
          params: IdParams,
          response: { 200: envelopeSchema(PlantDetailSchema) },
        },
      },
      async (request) => ok(request, await service.detail(request.requireAuth(), request.params.id)),
    );

  for (const url of ['/api/v1/plant/:id', '/api/v1/plant/:id/info'])
    app.post(
      url,
      {
        config: { access: { kind: 'manage', key: 'station.edit' } },
        schema: {
          'x-codes': [Code.PLANT_NOT_FOUND, Code.COORDINATES_INVALID],
          tags: TAGS,
          summary: 'Updates the plant’s fields',
          params: IdParams,
          body: PlantFieldsSchema,
          response: { 200: envelopeSchema(z.object({ id: z.number() })) },
        },
      },
      async (request) => {
        await service.update(request.requireAuth(), request.params.id, request.body);
        return ok(request, { id: request.params.id });
      },
    );

  app.get(
    '/api/v1/plant/:id/list/info',
    {
      config: { access: 'station.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'One plant as a list row (map popups, row refresh)',
        params: IdParams,
        response: { 200: envelopeSchema(PlantRowSchema) },
      },
    },
    async (request) => {
      const auth = request.requireAuth();
      await access.require(auth, request.params.id, 'view');
      const row = await repository.row(auth, request.params.id);
      if (!row) throw new ApiError(Code.PLANT_NOT_FOUND);
      return ok(request, row);
    },
  );

  app.get(
    '/api/v1/plant/:id/income',
    {
      config: { access: 'station.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'The plant’s tariff (currency, pricing method, prices, investment)',
        params: IdParams,
        response: { 200: envelopeSchema(TariffSchema.nullable()) },
      },
    },
    async (request) => {
      await access.require(request.requireAuth(), request.params.id, 'view');
      return ok(request, await repository.tariff(request.params.id));
    },
  );

  app.post(
    '/api/v1/plant/:id/income',
    {
      config: { access: { kind: 'manage', key: 'station.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Sets the plant’s tariff',
        'x-codes': [Code.PLANT_NOT_FOUND],
        params: IdParams,
        body: TariffSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.setTariff(request.requireAuth(), request.params.id, request.body);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/plant/:id/contacts',
    {
      config: { access: 'station.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Contact, installer and owner names',
        params: IdParams,
        response: {
          200: envelopeSchema(
            z.object({
              contactName: z.string().nullable(),
              contactPhone: z.string().nullable(),
              installer: z.string().nullable(),
              ownerName: z.string().nullable(),
            }),
          ),
        },
      },
    },
    async (request) => {
      await access.require(request.requireAuth(), request.params.id, 'view');
      const contacts = await repository.contacts(request.params.id);
      if (!contacts) throw new ApiError(Code.PLANT_NOT_FOUND);
      return ok(request, contacts);
    },
  );

  app.post(
    '/api/v1/plant/:id/contacts',
    {
      config: { access: { kind: 'manage', key: 'station.edit' } },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Sets contact, installer and owner names',
        params: IdParams,
        body: ContactsSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await access.require(request.requireAuth(), request.params.id, 'manage');
      await repository.setContacts(request.params.id, request.body);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/plant/:id/gateway',
    {
      config: { access: 'station.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Gateways bound to the plant',
        params: IdParams,
        response: { 200: envelopeSchema(z.array(PlantGatewaySchema)) },
      },
    },
    async (request) => {
      await access.require(request.requireAuth(), request.params.id, 'view');
      return ok(request, await repository.gateways(request.params.id));
    },
  );

  app.post(
    '/api/v1/plant/:id/gateway',
    {
      config: { access: { kind: 'manage', key: 'station.edit' } },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND, ...GATEWAY_CODES],
        tags: TAGS,
        summary: 'Binds one more gateway (same checks as gateways/check)',
        params: IdParams,
        body: GatewayBindingSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.bindGateway(request.requireAuth(), request.params.id, request.body);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/plant/:id/check/device',
    {
      config: { access: 'station.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Whether the plant has devices yet (gateways and devices counted)',
        params: IdParams,
        response: { 200: envelopeSchema(z.object({ hasDevices: z.boolean(), deviceCount: z.number(), gatewayCount: z.number() })) },
      },
    },
    async (request) => {
      await access.require(request.requireAuth(), request.params.id, 'view');
      const summary = await repository.deviceSummary(request.params.id);
      return ok(request, { hasDevices: summary.deviceCount > 0, ...summary });
    },
  );

  app.post(
    '/api/v1/plant/:id/share',
    {
      config: { access: { kind: 'manage', key: 'station.share' } },
      schema: {
        'x-codes': [
          Code.PLANT_NOT_FOUND,
          Code.SHARE_COMPANY_PLANT,
          Code.ACCOUNT_NOT_REGISTERED,
          Code.SHARE_WITH_SELF,
          Code.SHARE_TO_COMPANY_USER,
          Code.ACCOUNT_DISABLED,
        ],
        tags: TAGS,
        summary: 'Shares the plant with a guest or maintainer account (701, 702, 703)',
        params: IdParams,
        body: PlantShareSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.share(request.requireAuth(), request.params.id, request.body.account, request.body.role);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/plant/:id/cancelShare',
    {
      config: {
        access: {
          kind: 'own-account',
          reason: 'a guest leaves a plant shared with them; withdrawing a share from someone else needs station.share (plants.service)',
        },
      },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Withdraws a share (the creator), or leaves a shared plant (the guest)',
        params: IdParams,
        body: PlantCancelShareSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.cancelShare(request.requireAuth(), request.params.id, request.body.userId);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/plant/:id/getShareUsers',
    {
      config: { access: 'station.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Accounts the plant is shared with',
        params: IdParams,
        response: { 200: envelopeSchema(z.array(ShareUserSchema)) },
      },
    },
    async (request) => ok(request, await service.shareUsers(request.requireAuth(), request.params.id)),
  );

  app.post(
    '/api/v1/plant/:id/transfer',
    {
      config: { access: { kind: 'manage', key: 'station.transfer' } },
      schema: {
        'x-codes': [
          Code.PLANT_NOT_FOUND,
          Code.OWNER_PASSWORD_WRONG,
          Code.ACCOUNT_NOT_REGISTERED,
          Code.TRANSFER_TO_SELF,
          Code.ACCOUNT_DISABLED,
          Code.SHARE_TO_COMPANY_USER,
        ],
        tags: TAGS,
        summary: 'Transfers ownership (target account and the owner’s password; 704, 705)',
        params: IdParams,
        body: PlantTransferSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.transfer(request.requireAuth(), request.params.id, request.body.account, request.body.password);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/plant/:id/delete',
    {
      config: { access: { kind: 'manage', key: 'station.delete' } },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'Deletes the plant and all its data; its gateways become free to bind again',
        params: IdParams,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.delete(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/user/:id/plantCount',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Plants a user owns or has been shared (oneself, or anyone for the platform administrator)',
        params: IdParams,
        response: { 200: envelopeSchema(z.object({ total: z.number() })) },
      },
    },
    async (request) => {
      const auth = request.requireAuth();
      if (request.params.id !== auth.userId && auth.roleKey !== 'platform_admin') throw new ApiError(Code.NO_PERMISSION);
      return ok(request, { total: await repository.plantCountOfUser(request.params.id) });
    },
  );
};

const EventCountSchema = envelopeSchema(z.object({ total: z.number(), open: z.number() }));

/** Device events over the caller's plants (overview) or one user's plants. */
export const eventCountRoutes: FastifyPluginAsyncZod<{ repository: PlantsRepository }> = async (app, { repository }) => {
  app.get(
    '/api/v1/overview/eventCount',
    {
      config: { access: 'station.view' },
      schema: { tags: TAGS, summary: "Events of the caller's plants: all and still open", response: { 200: EventCountSchema } },
    },
    async (request) => ok(request, await repository.openEventCount(visibleCondition(request.requireAuth()))),
  );
  app.get(
    '/api/v1/user/:id/eventCount',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Events of the plants a user owns (oneself, or anyone for the platform administrator)',
        params: IdParams,
        response: { 200: EventCountSchema },
      },
    },
    async (request) => {
      const auth = request.requireAuth();
      if (request.params.id !== auth.userId && auth.roleKey !== 'platform_admin') throw new ApiError(Code.NO_PERMISSION);
      return ok(request, await repository.openEventCount(sql`plants.owner_id = ${request.params.id}`));
    },
  );
};

function toFilter(query: z.infer<typeof FilterQuerySchema>): PlantFilter {
  return {
    keyword: query.keyword,
    status: query.status,
    plantType: query.plantType,
    capacityMin: query.capacityMin,
    capacityMax: query.capacityMax,
    region: query.region,
    gridDateFrom: query.gridDateFrom,
    gridDateTo: query.gridDateTo,
  };
}
