import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI generated from the route schemas; browsable at /api/docs, raw at /api/docs/json. */
export const openApiPlugin = fp<{ version: string }>(async (app: FastifyInstance, { version }) => {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Sunward API', version, description: 'Every response is the envelope {code, data, message}; code 0 is success.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
});
