import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.gen.js';

export type { components, operations, paths } from './schema.gen.js';

/** The Sunward API's paths, typed from its OpenAPI document (packages/api-client/openapi.json). */
export type SunwardClient = Client<paths>;

/**
 * A typed client of the Sunward HTTP API (openapi-fetch): `client.GET('/api/v1/plant/{id}', { params: { path: { id } } })`
 * answers the envelope typed by the document. Pass `baseUrl` and, for signed-in calls, an `Authorization` header.
 */
export function createSunwardClient(options: ClientOptions = {}): SunwardClient {
  return createFetchClient<paths>(options);
}
