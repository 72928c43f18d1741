import type { PlantCreate } from '@sunward/contracts/plants';
import type { BuiltInRole } from '@sunward/contracts/roles';
import type { FastifyInstance } from 'fastify';
import { type CallOptions, type CallResult, call, signIn } from './client.js';
import { ADMIN, type TestServer } from './harness.js';

/** The envelope an API call answers: code, data, message. */
export type Body<T = unknown> = CallResult<T>['body'];

/** A caller's token, or the options of one call (token, query, headers, address). */
export type Caller = string | Omit<CallOptions, 'json' | 'form'>;

/**
 * get/post/del of one test file, answering the envelope body. Each call is made as `caller` (a token or
 * options); without one, as the file's usual caller (`defaultToken`, read at call time so it can be set in
 * beforeAll). The server is read at call time too, so a restarted server is used.
 */
export function apiClient(app: () => FastifyInstance, defaultToken: () => string | undefined = () => undefined) {
  const send = async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, caller: Caller | undefined, json?: unknown) => {
    const options = typeof caller === 'string' ? { token: caller } : { ...caller };
    const token = options.token ?? defaultToken();
    return (await call<T>(app(), method, path, { ...options, ...(token ? { token } : {}), ...(json === undefined ? {} : { json }) })).body;
  };
  return {
    get: <T = unknown>(path: string, caller?: Caller) => send<T>('GET', path, caller),
    /** Without a body, an empty JSON object (as the console's forms send). */
    post: <T = unknown>(path: string, json: unknown = {}, caller?: Caller) => send<T>('POST', path, caller, json),
    del: <T = unknown>(path: string, caller?: Caller) => send<T>('DELETE', path, caller),
  };
}

/** A new user with a built-in role (in a company when given), signed in: its id, account, password and token. */
export async function signedInUser(server: TestServer, role: BuiltInRole, companyId?: number) {
  const user = await server.createUser(role, undefined, companyId === undefined ? {} : { companyId });
  const { access_token } = await signIn(server.app, user.account, user.password);
  return { ...user, token: access_token };
}

/**
 * The usual cast of a permission test, signed in: the platform administrator, the administrator of a new
 * company, and a guest.
 */
export async function signedInCast(server: TestServer, companyName: string) {
  const admin = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const companyId = await server.createCompany(companyName);
  const companyAdmin = (await signedInUser(server, 'company_admin', companyId)).token;
  const guest = (await signedInUser(server, 'guest')).token;
  return { admin, companyId, companyAdmin, guest };
}

let gatewayCounter = 0;

/** A gateway in the factory registry, unbound (in a company's stock when given), with a new SN and key. */
export async function newGateway(server: TestServer, companyId?: number): Promise<{ id: number; sn: string; key: string }> {
  const n = ++gatewayCounter;
  const sn = `GWT${String(n).padStart(6, '0')}`;
  const key = `key${n}secret`;
  const id = await server.registerGateway(sn, key, companyId);
  return { id, sn, key };
}

/** A valid plant as the wizard sends it (Berlin, gross metering, constant EUR tariff), no gateway yet. */
export function plantInput(overrides: Partial<PlantCreate> = {}): PlantCreate {
  return {
    name: 'Sunny Meadow Plant',
    capacityKwp: 99.5,
    plantType: 1,
    latitude: 52.52,
    longitude: 13.405,
    timezone: 'Europe/Berlin',
    region: 'Germany',
    address: 'Alexanderplatz 1, Berlin',
    meteringTopology: 'gross',
    gateways: [],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.25, totalInvestment: 80000 },
    ...overrides,
  };
}

/**
 * Creates a plant through POST /api/v1/plant as `token`, bound to a new gateway (registered in `companyId`'s
 * stock when given); throws when the server refuses. Its id and the gateway.
 */
export async function createPlant(
  server: TestServer,
  token: string,
  overrides: Partial<PlantCreate> = {},
  companyId?: number,
): Promise<{ id: number; gateway: { id: number; sn: string; key: string } }> {
  const gateway = await newGateway(server, companyId);
  const result = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', {
    token,
    json: plantInput({ gateways: [{ sn: gateway.sn, key: gateway.key }], ...overrides }),
  });
  if (result.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(result.body)}`);
  return { id: result.body.data.id, gateway };
}
