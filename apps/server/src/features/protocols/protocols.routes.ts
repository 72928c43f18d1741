import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import { ProtocolRestoreBodySchema, ProtocolRestorePreviewSchema, ProtocolRestoreResultSchema } from '@sunward/contracts/protocol-switch';
import {
  DEVICE_FAMILIES,
  PROTOCOL_IMPORT_MAX_BYTES,
  ProtocolDetailSchema,
  ProtocolEnableSchema,
  ProtocolFileSchema,
  ProtocolListQuerySchema,
  ProtocolPageSchema,
  ProtocolSaveSchema,
  ProtocolScriptSaveSchema,
  ProtocolScriptSchema,
  ProtocolScriptTestResultSchema,
  ProtocolScriptTestSchema,
  ProtocolVersionRowSchema,
  ProtocolVersionSchema,
  SCRIPT_SOURCE_MAX,
} from '@sunward/contracts/protocols';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { ProtocolsService } from './protocols.service.js';

const TAGS = ['Protocols'];
const IdParams = z.object({ id: IdParamSchema });
const Done = envelopeSchema(z.null());
const VIEW = 'system.protocol';
const EDIT = { kind: 'manage', key: 'system.protocol.edit' } as const;
/** Room above the 10 MB import limit, so a larger file is answered 4204 rather than cut off. */
const IMPORT_BODY_LIMIT = PROTOCOL_IMPORT_MAX_BYTES + 2 * 1024 * 1024;
const bytesOf = (header: string | undefined) => Number(header ?? 0) || 0;

/**
 * Device protocols (calls.tsv family `protocols`, spec 02 §3 Protocol; issue 19): platform administrators
 * only (spec 02 §6); everyone else is refused by the permission check.
 */
export const protocolsRoutes: FastifyPluginAsyncZod<{ service: ProtocolsService }> = async (app, { service }) => {
  app.get(
    '/api/v1/protocols',
    {
      config: { access: VIEW },
      schema: {
        tags: TAGS,
        summary: 'Protocols with their current version, searched by name, code, identifier or manufacturer',
        querystring: ProtocolListQuerySchema,
        response: { 200: envelopeSchema(ProtocolPageSchema) },
      },
    },
    async (request) => ok(request, await service.page(request.query)),
  );

  app.get(
    '/api/v1/protocols/:id',
    {
      config: { access: VIEW },
      schema: {
        tags: TAGS,
        summary: 'One protocol with its current version’s registers, events and settings groups',
        params: IdParams,
        response: { 200: envelopeSchema(ProtocolDetailSchema) },
      },
    },
    async (request) => ok(request, await service.detail(request.params.id)),
  );

  app.get(
    '/api/v1/protocols/:id/versions',
    {
      config: { access: VIEW },
      schema: {
        tags: TAGS,
        summary: 'Every version of a protocol, newest first',
        params: IdParams,
        response: { 200: envelopeSchema(z.array(ProtocolVersionRowSchema)) },
      },
    },
    async (request) => ok(request, await service.versions(request.params.id)),
  );

  app.get(
    '/api/v1/protocols/:id/versions/:version',
    {
      config: { access: VIEW },
      schema: {
        tags: TAGS,
        summary: 'One version with its registers (versions never change once saved)',
        params: z.object({ id: IdParamSchema, version: z.coerce.number().int().min(1) }),
        response: { 200: envelopeSchema(ProtocolVersionSchema) },
      },
    },
    async (request) => ok(request, await service.version(request.params.id, request.params.version)),
  );

  const VersionParams = z.object({ id: IdParamSchema, version: z.coerce.number().int().min(1) });

  app.get(
    '/api/v1/protocols/:id/versions/:version/preview',
    {
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary:
          'What the protocol’s devices would read differently with this version: the latest reading of its device that reported last, read with the current version and with this one; nothing changes',
        params: VersionParams,
        response: { 200: envelopeSchema(ProtocolRestorePreviewSchema) },
      },
    },
    async (request) => ok(request, await service.restorePreview(request.params.id, request.params.version)),
  );

  app.post(
    '/api/v1/protocols/:id/versions/:version/restore',
    {
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary:
          'Moves every device of the protocol to this version: its content saved as the new current version; 4205 when another was saved since baseVersion, 4 naming version for the current one',
        params: VersionParams,
        body: ProtocolRestoreBodySchema,
        response: { 200: envelopeSchema(ProtocolRestoreResultSchema) },
      },
    },
    async (request) =>
      ok(
        request,
        await service.restore(request.requireAuth(), request.language, request.params.id, request.params.version, request.body.baseVersion),
      ),
  );

  app.post(
    '/api/v1/protocols',
    {
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary:
          'Creates a protocol with its first version: identifier and code unique (4200, 4201), name 6-12 characters, registers not overlapping (4, naming the field)',
        body: ProtocolSaveSchema,
        response: { 200: envelopeSchema(ProtocolDetailSchema) },
      },
    },
    async (request) => ok(request, await service.create(request.requireAuth(), request.language, request.body)),
  );

  app.put(
    '/api/v1/protocols/:id',
    {
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary:
          'Saves an edit as a new version that decodes from now on (the identifier stays); 4205 when another version was saved since baseVersion',
        params: IdParams,
        body: ProtocolSaveSchema,
        response: { 200: envelopeSchema(ProtocolDetailSchema) },
      },
    },
    async (request) => ok(request, await service.update(request.requireAuth(), request.language, request.params.id, request.body)),
  );

  app.put(
    '/api/v1/protocols/:id/enabled',
    {
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary: 'Enables or disables a protocol: a disabled one still decodes its devices but no new device is discovered on it',
        params: IdParams,
        body: ProtocolEnableSchema,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.setEnabled(request.params.id, request.body.enabled);
      return ok(request, null);
    },
  );

  app.delete(
    '/api/v1/protocols/:id',
    {
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary: 'Deletes a protocol and its versions: 4202 while devices use it, 4203 for a shipped one',
        params: IdParams,
        response: { 200: Done },
      },
    },
    async (request) => {
      await service.remove(request.params.id);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/protocols/:id/export',
    {
      config: { access: VIEW },
      schema: {
        tags: TAGS,
        summary: 'The current version as a protocol file (JSON) and its file name',
        params: IdParams,
        response: { 200: envelopeSchema(z.object({ fileName: z.string(), file: ProtocolFileSchema })) },
      },
    },
    async (request) => ok(request, await service.exportFile(request.params.id)),
  );

  app.post(
    '/api/v1/protocols/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary:
          'Imports a protocol file: a new protocol, or a new version of the one with its identifier; over 10 MB 4204, not a protocol file 4206',
        body: z.unknown(),
        response: { 200: envelopeSchema(ProtocolDetailSchema) },
      },
    },
    async (request) =>
      ok(
        request,
        await service.importFile(request.requireAuth(), request.language, bytesOf(request.headers['content-length']), request.body),
      ),
  );

  app.post(
    '/api/v1/protocols/import/sunspec',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary:
          'Turns a SunSpec model file (JSON) into a protocol draft for the editor, placed at start (default 40002); nothing is stored',
        querystring: z.object({
          start: z.coerce.number().int().min(0).max(65535).default(40002),
          family: z.enum(DEVICE_FAMILIES).optional(),
        }),
        body: z.unknown(),
        response: {
          200: envelopeSchema(z.object({ draft: ProtocolSaveSchema, skipped: z.array(z.string()) })),
        },
      },
    },
    async (request) =>
      ok(
        request,
        service.sunspecDraft(bytesOf(request.headers['content-length']), request.body, request.query.start, request.query.family),
      ),
  );

  const ScriptParams = z.object({ id: IdParamSchema, scriptId: IdParamSchema });

  app.get(
    '/api/v1/protocols/:id/scripts',
    {
      config: { access: VIEW },
      schema: {
        tags: TAGS,
        summary: 'The protocol’s scripts, one per configuration version; `active` marks the one the decoder runs now',
        params: IdParams,
        response: { 200: envelopeSchema(z.array(ProtocolScriptSchema)) },
      },
    },
    async (request) => ok(request, await service.scripts(request.params.id)),
  );

  app.post(
    '/api/v1/protocols/:id/scripts',
    {
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary:
          'Adds a script (`function transform(input)`) for a configuration version: 4207 when it already has one; a source that does not compile or fails on the sample registers is refused 4 naming `source`',
        params: IdParams,
        body: ProtocolScriptSaveSchema,
        response: { 200: envelopeSchema(ProtocolScriptSchema) },
      },
    },
    async (request) => ok(request, await service.addScript(request.requireAuth(), request.language, request.params.id, request.body)),
  );

  app.put(
    '/api/v1/protocols/:id/scripts/:scriptId',
    {
      config: { access: EDIT },
      schema: {
        tags: TAGS,
        summary: 'Replaces a script’s source (checked as when adding); the decoder runs it from the next report on',
        params: ScriptParams,
        body: z.object({ source: z.string().min(1).max(SCRIPT_SOURCE_MAX) }),
        response: { 200: envelopeSchema(ProtocolScriptSchema) },
      },
    },
    async (request) =>
      ok(request, await service.updateScript(request.language, request.params.id, request.params.scriptId, request.body.source)),
  );

  app.delete(
    '/api/v1/protocols/:id/scripts/:scriptId',
    {
      config: { access: EDIT },
      schema: { tags: TAGS, summary: 'Deletes a script', params: ScriptParams, response: { 200: Done } },
    },
    async (request) => {
      await service.removeScript(request.params.id, request.params.scriptId);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/protocols/:id/scripts/test',
    {
      config: { access: { kind: 'view', key: VIEW, readsOnly: 'runs a source in the sandbox on typed registers; nothing is stored' } },
      schema: {
        tags: TAGS,
        summary:
          'The test console: decodes the typed register blocks with the current version and runs the source on them in the sandbox; nothing is stored',
        params: IdParams,
        body: ProtocolScriptTestSchema,
        response: { 200: envelopeSchema(ProtocolScriptTestResultSchema) },
      },
    },
    async (request) => ok(request, await service.testScript(request.params.id, request.body)),
  );
};
