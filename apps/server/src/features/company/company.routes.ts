import { Code } from '@sunward/contracts/codes';
import {
  AccountCheckQuerySchema,
  AdminTransferSchema,
  AgentAddSchema,
  AgentsSchema,
  CompanyAddSchema,
  CompanyCheckQuerySchema,
  CompanyEditSchema,
  CompanyInfoSchema,
  CompanyLogoSchema,
  CompanyRoleBodySchema,
  CompanyRoleSchema,
  RoleCheckQuerySchema,
  StaffAddSchema,
  StaffEditSchema,
  StaffListQuerySchema,
  StaffPageSchema,
  StaffRowSchema,
  ThemeColorSchema,
  UploadedImageSchema,
} from '@sunward/contracts/company';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import { InvitationSentResultSchema } from '@sunward/contracts/invitations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, ok } from '../../lib/envelope.js';
import { requireFile } from '../../lib/multipart.js';
import type { CompanyService } from './company.service.js';
import type { LogoStore } from './company-logo.js';

const TAGS = ['Company'];
const IdParams = z.object({ id: IdParamSchema });
const Done = envelopeSchema(z.null());
const Created = envelopeSchema(z.object({ id: z.number().int() }));

/** Spec 01 §7 "Company": information, logo, theme colour, administrator, staff, roles (and agents). */
export const companyRoutes: FastifyPluginAsyncZod<{ service: CompanyService; logos: LogoStore }> = async (app, { service, logos }) => {
  app.get(
    '/api/v1/company/info',
    {
      config: { access: 'company.info' },
      schema: {
        tags: TAGS,
        summary: "The caller's company: name, contacts, logo, icon, theme colour, administrator",
        querystring: z.object({ id: IdParamSchema.optional() }),
        response: { 200: envelopeSchema(CompanyInfoSchema) },
      },
    },
    async (request) => ok(request, await service.info(request.requireAuth(), request.query.id)),
  );

  app.get(
    '/api/v1/company/check',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: TAGS,
        summary: 'Whether a company name is free (203 when taken); id leaves that company out',
        querystring: CompanyCheckQuerySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.checkName(request.query.name, request.query.id);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/company/add',
    {
      config: {
        access: {
          kind: 'own-account',
          reason:
            'an independent owner makes their own account the administrator of a new company; the service admits only owners and the platform administrator',
        },
      },
      schema: {
        tags: TAGS,
        summary:
          'Creates a company; its administrator is the caller (an account without a company) or, for the platform administrator, adminAccount',
        body: CompanyAddSchema,
        response: { 200: Created },
      },
    },
    async (request) => ok(request, { id: await service.add(request.requireAuth(), request.body, request.language) }),
  );

  app.post(
    '/api/v1/company/:id/edit',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Edits the company information (203 duplicate name)',
        params: IdParams,
        body: CompanyEditSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.edit(request.requireAuth(), request.params.id, request.body, request.language);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/company/:id/themeColor',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        summary: "Sets the console's primary colour for the company's users (#RRGGBB)",
        params: IdParams,
        body: ThemeColorSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.setTheme(request.requireAuth(), request.params.id, request.body.themeColor);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/company/uploadLogo',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Uploads a logo or icon image (multipart field "file": jpg, jpeg, gif or png by content); answers its URL',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(UploadedImageSchema) },
      },
    },
    async (request) => {
      const body = request.body as Record<string, unknown> | undefined;
      const file = body?.file;
      return ok(request, { url: await service.uploadLogo(request.requireAuth(), requireFile(file, request.language), request.language) });
    },
  );

  app.post(
    '/api/v1/company/:id/logo',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Sets the menu logo (expanded, 220x58) and icon (collapsed, 58x58) from uploaded images; null removes one',
        params: IdParams,
        body: CompanyLogoSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.setLogo(request.requireAuth(), request.params.id, request.body, request.language);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/files/company/:name',
    {
      config: { access: 'public' },
      schema: { tags: TAGS, summary: 'A company logo or icon by its unguessable name', params: z.object({ name: z.string().max(40) }) },
    },
    async (request, reply) => {
      const file = await logos.read(request.params.name);
      if (!file) throw new ApiError(Code.NOT_FOUND);
      return reply.type(file.mime).header('cache-control', 'private, max-age=31536000, immutable').send(file.bytes);
    },
  );

  app.post(
    '/api/v1/company/:id/admin',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Transfers the administrator role to a member of the company, confirmed with the administrator’s password (705)',
        params: IdParams,
        body: AdminTransferSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.transferAdmin(request.requireAuth(), request.params.id, request.body, request.language);
      return ok(request, null);
    },
  );

  // ---- Staff ----

  app.get(
    '/api/v1/company/user/list',
    {
      config: { access: 'company.user' },
      schema: {
        tags: TAGS,
        summary: 'Members of the company, paged (data.infos, data.total)',
        querystring: StaffListQuerySchema,
        response: { 200: envelopeSchema(StaffPageSchema) },
      },
    },
    async (request) => ok(request, await service.staffPage(request.requireAuth(), request.query, request.language)),
  );

  app.get(
    '/api/v1/company/user/check',
    {
      config: { access: { kind: 'manage', key: 'company.user.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Whether an account can be added as a member (104 exists, 106 linked to another company)',
        querystring: AccountCheckQuerySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.checkAccount(request.requireAuth(), request.query.account);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/company/user/:id',
    {
      config: { access: 'company.user' },
      schema: { tags: TAGS, summary: 'One member of the company', params: IdParams, response: { 200: envelopeSchema(StaffRowSchema) } },
    },
    async (request) => ok(request, await service.staffMember(request.requireAuth(), request.params.id, request.language)),
  );

  app.post(
    '/api/v1/company/user/add',
    {
      config: { access: { kind: 'manage', key: 'company.user.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Adds a member with a new account and one role (form or JSON body; 104, 106)',
        body: StaffAddSchema,
        response: { 200: Created },
      },
    },
    async (request) => ok(request, { id: await service.addStaff(request.requireAuth(), request.body, request.language) }),
  );

  app.post(
    '/api/v1/company/user/edit/:id',
    {
      config: { access: { kind: 'manage', key: 'company.user.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Edits a member: nickname, contacts, role (802 for one’s own role)',
        params: IdParams,
        body: StaffEditSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.editStaff(request.requireAuth(), request.params.id, request.body, request.language);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/company/user/delete/:id',
    {
      config: { access: { kind: 'manage', key: 'company.user.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Deletes a member (not the administrator, not oneself); their plants pass to the administrator',
        params: IdParams,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.removeStaff(request.requireAuth(), request.params.id, request.language);
      return ok(request, null);
    },
  );

  // ---- Roles ----

  app.get(
    '/api/v1/company/roles',
    {
      config: { access: 'company.management' },
      schema: {
        tags: TAGS,
        summary: 'The roles a member can have: company administrator and staff (built in) and the custom roles, with their grants',
        response: { 200: envelopeSchema(z.array(CompanyRoleSchema)) },
      },
    },
    async (request) => ok(request, await service.roles(request.requireAuth(), request.language)),
  );

  app.get(
    '/api/v1/company/role/check',
    {
      config: { access: { kind: 'manage', key: 'company.role.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Whether a role name is free in the company (801 when taken); id leaves that role out',
        querystring: RoleCheckQuerySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.checkRoleName(request.requireAuth(), request.query.name, request.query.id);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/company/role',
    {
      config: { access: { kind: 'manage', key: 'company.role.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Creates a custom role (at most 5: 800; unique name: 801) with permissions the caller holds',
        body: CompanyRoleBodySchema,
        response: { 200: Created },
      },
    },
    async (request) => ok(request, { id: await service.createRole(request.requireAuth(), request.body, request.language) }),
  );

  app.post(
    '/api/v1/company/role/:id',
    {
      config: { access: { kind: 'manage', key: 'company.role.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Updates a custom role (801; 802 for the caller’s own role); members get the change on their next request',
        params: IdParams,
        body: CompanyRoleBodySchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.updateRole(request.requireAuth(), request.params.id, request.body, request.language);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/company/role/:id/delete',
    {
      config: { access: { kind: 'manage', key: 'company.role.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Deletes a custom role no member has (802 for the caller’s own role)',
        params: IdParams,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.deleteRole(request.requireAuth(), request.params.id, request.language);
      return ok(request, null);
    },
  );

  // ---- Agents (spec 02 §6; the spec names no paths) ----

  app.get(
    '/api/v1/company/agents',
    {
      config: { access: 'company.info' },
      schema: {
        tags: TAGS,
        summary: "The company's agents, its open invitations to become one, and the companies the caller is agent of",
        response: { 200: envelopeSchema(AgentsSchema) },
      },
    },
    async (request) => ok(request, await service.agents(request.requireAuth())),
  );

  app.post(
    '/api/v1/company/agent',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        summary:
          'Invites an account to become an agent of this company; the same answer whatever the account is (900 oneself, 901 a member, 202 already an agent, 210 already invited)',
        body: AgentAddSchema,
        response: { 200: envelopeSchema(InvitationSentResultSchema) },
      },
    },
    async (request) => ok(request, await service.inviteAgent(request.requireAuth(), request.body.account)),
  );

  app.post(
    '/api/v1/company/agent/invitation/:id/withdraw',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Withdraws an open invitation to become an agent (211 when not open)',
        params: IdParams,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.withdrawAgentInvitation(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/company/agent/:id/delete',
    {
      config: { access: { kind: 'manage', key: 'company.edit' } },
      schema: { tags: TAGS, summary: 'Ends an agent appointment', params: IdParams, response: { 200: Done } },
    },
    async (request) => {
      await service.removeAgent(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );
};
