import { envelopeSchema } from '@sunward/contracts/envelope';
import { PermissionEntrySchema, type PermissionKey, type PermissionKeyOfKind, PermissionQuerySchema } from '@sunward/contracts/permissions';
import { COMPANY_ASSIGNABLE_PERMISSIONS, CUSTOMER_ASSIGNABLE_PERMISSIONS } from '@sunward/contracts/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { PermissionsRepository } from './permissions.repository.js';
import { presentPermissions } from './permissions.service.js';

export const permissionsRoutes: FastifyPluginAsyncZod<{ repository: PermissionsRepository }> = async (app, { repository }) => {
  app.get(
    '/api/v1/permission',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Customers and roles'],
        summary: "The caller's permission list: type 0 menu entries, others buttons, names localised",
        querystring: PermissionQuerySchema,
        response: { 200: envelopeSchema(z.array(PermissionEntrySchema)) },
      },
    },
    async (request) => {
      const auth = request.requireAuth();
      const rows = await repository.entriesByKeys([...auth.permissions]);
      return ok(request, presentPermissions(rows, request.language));
    },
  );

  const catalogueRoute = (url: string, access: PermissionKeyOfKind<'view'>, keys: readonly PermissionKey[], summary: string) =>
    app.get(
      url,
      {
        config: { access },
        schema: {
          tags: ['Customers and roles'],
          summary,
          querystring: PermissionQuerySchema,
          response: { 200: envelopeSchema(z.array(PermissionEntrySchema)) },
        },
      },
      // Only what the caller holds: a company grants no more than it has (issue 7, no escalation).
      async (request) => {
        const held = request.requireAuth().permissions;
        return ok(request, presentPermissions(await repository.entriesByKeys(keys.filter((k) => held.has(k))), request.language));
      },
    );

  catalogueRoute(
    '/api/v1/permission/company',
    'company.role.list.view',
    COMPANY_ASSIGNABLE_PERMISSIONS,
    'Permissions a company may grant to its roles (the role editor tree)',
  );
  catalogueRoute(
    '/api/v1/permission/customer',
    'user.producer',
    CUSTOMER_ASSIGNABLE_PERMISSIONS,
    'Permissions a company may grant to its customers',
  );
};
