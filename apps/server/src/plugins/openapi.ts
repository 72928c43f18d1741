import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerContractSchemas } from '../openapi/components.js';
import { finishDocument } from '../openapi/finish.js';
import { accessSentence, describeCodes, isPublic, operationCodes } from '../openapi/operations.js';
import type { RouteAccess } from './route-access.js';

const zodTransform = createJsonSchemaTransform({ skipList: [] });
const zodComponents = createJsonSchemaTransformObject({});

type Transform = Parameters<typeof zodTransform>[0];

/**
 * OpenAPI 3.1 generated from the route schemas; browsable at /api/docs, raw at /api/docs/json (issue 25).
 * Each operation gets, without the route writing it: its operationId (method and path), who may call it in its
 * description, `security: []` when public, and the business codes it can answer (`x-codes`). Routes declare a
 * summary (openapi/document.api.test.ts fails otherwise), and may add a description and `x-codes`.
 */
export const openApiPlugin = fp<{ version: string; publicUrl?: string }>(async (app: FastifyInstance, { version, publicUrl }) => {
  registerContractSchemas();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sunward API',
        version,
        description:
          'The HTTP API of the Sunward console. Every JSON answer is the envelope `{code, data, message}`: code 0 is success; any other ' +
          'code is a business refusal (listed per operation in `x-codes`) with `message` in the caller’s language (Accept-Language). ' +
          'Sign in with POST /oauth/token and send `Authorization: Bearer <access_token>`.',
      },
      servers: [{ url: publicUrl ?? '/', description: publicUrl ? 'This installation' : 'The server answering this document' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The access token from POST /oauth/token' } },
      },
      security: [{ bearer: [] }],
    },
    transform: (input: Transform) => {
      const result = zodTransform({ ...input, schema: input.schema && inlineParameterShapes(input.schema) });
      const schema = result.schema as Record<string, unknown>;
      if (schema.hide) return result;
      const source = (input.schema ?? {}) as Record<string, unknown>;
      const access = (input.route.config as { access?: RouteAccess } | undefined)?.access;
      const hasInput = ['body', 'querystring', 'params', 'headers'].some((part) => source[part] !== undefined);
      const declared = Array.isArray(source['x-codes']) ? (source['x-codes'] as number[]) : [];
      const description = [typeof source.description === 'string' ? source.description : undefined, accessSentence(access)];
      return {
        url: result.url,
        schema: {
          ...schema,
          description: description.filter((part) => part !== undefined).join('\n\n'),
          // A public route that checks its own credential (the open API's key) keeps the security it declares.
          ...(isPublic(access) && source.security === undefined ? { security: [] } : {}),
          'x-codes': describeCodes(operationCodes(access, hasInput, declared)),
          ...routeExamples(source),
        },
      };
    },
    transformObject: (input) => finishDocument(zodComponents(input) as unknown as Record<string, unknown>) as never,
  });
  // Close to 500 operations: the reference opens on its groups with a filter box (rendering every operation took
  // seconds of a user's CPU before anything showed), and a group unfolds on a click.
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'none', filter: true } });
});

/**
 * Parameters are listed one by one in the document, so a registered shape used as a route's querystring,
 * params or headers is given as a copy (the swagger plugin cannot list the fields of a reference).
 */
function inlineParameterShapes<T extends object>(schema: T): T {
  const copy: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  for (const part of ['querystring', 'params', 'headers']) {
    const shape = copy[part];
    if (shape instanceof z.ZodObject && z.globalRegistry.get(shape)?.id) copy[part] = shape.extend({});
  }
  return copy as T;
}

/**
 * A shape given `.meta({ examples })` at a route (the body, or the answer's `data`) keeps its examples: they become
 * a component reference in conversion, which drops them, so they travel to finish.ts in `x-route-examples`.
 */
function routeExamples(source: Record<string, unknown>): { 'x-route-examples'?: { body?: unknown[]; data?: unknown[] } } {
  const body = ownExamples(source.body);
  const answer = isRecord(source.response) ? source.response['200'] : undefined;
  const data = answer instanceof z.ZodObject ? ownExamples(answer.shape.data) : undefined;
  return body || data ? { 'x-route-examples': { ...(body ? { body } : {}), ...(data ? { data } : {}) } } : {};
}

function ownExamples(schema: unknown): unknown[] | undefined {
  const examples = schema instanceof z.ZodType ? z.globalRegistry.get(schema)?.examples : undefined;
  return Array.isArray(examples) && examples.length > 0 ? examples : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
