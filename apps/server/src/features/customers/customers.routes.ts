import { AccountCheckQuerySchema } from '@sunward/contracts/company';
import {
  CustomerAddResultSchema,
  CustomerAddSchema,
  CustomerCheckSchema,
  CustomerEditSchema,
  CustomerListQuerySchema,
  CustomerOptionSchema,
  CustomerPageSchema,
  CustomerTypeBodySchema,
  CustomerTypeSchema,
  CustomerTypeTreeSchema,
} from '@sunward/contracts/customers';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import { SentInvitationSchema } from '@sunward/contracts/invitations';
import { PermissionEntrySchema } from '@sunward/contracts/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { PermissionsRepository } from '../permissions/permissions.repository.js';
import { presentPermissions } from '../permissions/permissions.service.js';
import type { CustomersService } from './customers.service.js';

const TAGS = ['Customers and roles'];
const Id = IdParamSchema;
const IdParams = z.object({ id: Id });
const Done = envelopeSchema(z.null());
const Created = envelopeSchema(z.object({ id: z.number().int() }));

/** Spec 01 §7 "Customers and roles": a company's customers and customer types. */
export const customersRoutes: FastifyPluginAsyncZod<{
  service: CustomersService;
  permissions: PermissionsRepository;
  roleOfAccount: (userId: number) => Promise<number | undefined>;
}> = async (app, { service, permissions, roleOfAccount }) => {
  app.get(
    '/api/v1/customers',
    {
      config: { access: 'customer.list.view' },
      schema: {
        tags: TAGS,
        summary: "The company's customers with their type and plants, paged (data.infos, data.total)",
        querystring: CustomerListQuerySchema,
        response: { 200: envelopeSchema(CustomerPageSchema) },
      },
    },
    async (request) => ok(request, await service.page(request.requireAuth(), request.query)),
  );

  app.get(
    '/api/v1/customers/list',
    {
      config: { access: 'user.producer' },
      schema: {
        tags: TAGS,
        summary: "All the company's customers (id, account, name) for selectors",
        response: { 200: envelopeSchema(z.array(CustomerOptionSchema)) },
      },
    },
    async (request) => ok(request, await service.options(request.requireAuth())),
  );

  app.get(
    '/api/v1/customer/check',
    {
      config: { access: { kind: 'manage', key: 'customer.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Whether an account exists (then adding it sends an invitation, no password) or is a customer already (204)',
        querystring: AccountCheckQuerySchema,
        response: { 200: envelopeSchema(CustomerCheckSchema) },
      },
    },
    async (request) => ok(request, await service.check(request.requireAuth(), request.query.account)),
  );

  app.post(
    '/api/v1/customer',
    {
      config: { access: { kind: 'manage', key: 'customer.edit' } },
      schema: {
        tags: TAGS,
        summary:
          'Adds a customer: a new account with a password, linked at once; an existing account is invited and linked when it accepts (210 already invited, 204 already a customer)',
        body: CustomerAddSchema,
        response: { 200: envelopeSchema(CustomerAddResultSchema) },
      },
    },
    async (request) => ok(request, await service.add(request.requireAuth(), request.body, request.language)),
  );

  app.get(
    '/api/v1/customer/invitations',
    {
      config: { access: 'customer.list.view' },
      schema: {
        tags: TAGS,
        summary: "The company's open invitations to become its customer (issue 15.4)",
        response: { 200: envelopeSchema(z.array(SentInvitationSchema)) },
      },
    },
    async (request) => ok(request, await service.invitations(request.requireAuth())),
  );

  app.post(
    '/api/v1/customer/invitation/:id/withdraw',
    {
      config: { access: { kind: 'manage', key: 'customer.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Withdraws an open invitation to become a customer (211 when not open)',
        params: IdParams,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.withdrawInvitation(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/customer/:customerId/:companyId',
    {
      config: { access: { kind: 'manage', key: 'customer.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Edits a customer: name, type, remark and assigned plants',
        params: z.object({ customerId: Id, companyId: Id }),
        body: CustomerEditSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      const { customerId, companyId } = request.params;
      await service.edit(request.requireAuth(), customerId, companyId, request.body, request.language);
      return ok(request, null);
    },
  );

  app.delete(
    '/api/v1/customers/delete/:companyId/:masterId',
    {
      config: { access: { kind: 'manage', key: 'customer.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Removes a customer from the company (the account stays, without the company’s plants)',
        params: z.object({ companyId: Id, masterId: Id }),
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.remove(request.requireAuth(), request.params.companyId, request.params.masterId);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/role/:customerId',
    {
      config: { access: 'customer.list.view' },
      schema: {
        tags: TAGS,
        summary: 'What a customer of the company may do: the permissions of its account, names localised',
        params: z.object({ customerId: Id }),
        response: { 200: envelopeSchema(z.array(PermissionEntrySchema)) },
      },
    },
    async (request) => {
      const masterId = await service.accountOf(request.requireAuth(), request.params.customerId);
      const roleId = await roleOfAccount(masterId);
      const keys = roleId === undefined ? [] : [...(await permissions.keysOfRole(roleId))];
      return ok(request, presentPermissions(await permissions.entriesByKeys(keys), request.language));
    },
  );

  // ---- Customer types ----

  app.get(
    '/api/v1/customer/types',
    {
      config: { access: 'customer.list.view' },
      schema: {
        tags: TAGS,
        // Derived, it would be getCustomerTypes like the flat list at customerTypes.
        operationId: 'getCustomerTypeTree',
        summary: 'Customer types as a tree: primary labels with their secondary labels',
        response: { 200: envelopeSchema(CustomerTypeTreeSchema) },
      },
    },
    async (request) => ok(request, await service.typeTree(request.requireAuth())),
  );

  app.get(
    '/api/v1/customerTypes',
    {
      config: { access: 'customer.type.list.view' },
      schema: {
        tags: TAGS,
        summary: 'Customer types as a flat list (parentId null for a primary label) with their customer counts',
        response: { 200: envelopeSchema(z.array(CustomerTypeSchema)) },
      },
    },
    async (request) => ok(request, await service.types(request.requireAuth())),
  );

  app.get(
    '/api/v1/customerType/:id',
    {
      config: { access: 'customer.type.list.view' },
      schema: { tags: TAGS, summary: 'One customer type', params: IdParams, response: { 200: envelopeSchema(CustomerTypeSchema) } },
    },
    async (request) => ok(request, await service.type(request.requireAuth(), request.params.id)),
  );

  app.post(
    '/api/v1/customerType',
    {
      config: { access: { kind: 'manage', key: 'customer.type.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Creates a primary label, or a secondary one under parentId (206 name taken at that level)',
        body: CustomerTypeBodySchema,
        response: { 200: Created },
      },
    },
    async (request) => ok(request, { id: await service.createType(request.requireAuth(), request.body, request.language) }),
  );

  app.post(
    '/api/v1/customerType/:id',
    {
      config: { access: { kind: 'manage', key: 'customer.type.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Edits a customer type; moving a secondary label to another primary checks the name there (206)',
        params: IdParams,
        body: CustomerTypeBodySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.updateType(request.requireAuth(), request.params.id, request.body, request.language);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/customerType/:id/delete',
    {
      config: { access: { kind: 'manage', key: 'customer.type.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Deletes a customer type without subtypes (205); its customers keep no type',
        params: IdParams,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.deleteType(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );
};
