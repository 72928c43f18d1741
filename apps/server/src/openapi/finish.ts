import { Code } from '@sunward/contracts/codes';
import { translate } from '@sunward/contracts/messages';
import { exampleOf } from './examples.js';
import { operationIdFor } from './operations.js';
import { constraints, describePathParameter, describeQueryParameter } from './parameters.js';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

/** The envelope every JSON answer has; refusals carry a business code and a message. */
const ENVELOPE: Json = {
  type: 'object',
  description:
    'Every JSON answer: code 0 and `data` on success; otherwise a business code (x-codes) and a message in the caller’s language',
  properties: {
    code: { type: 'integer', description: 'Business code: 0 is success' },
    data: { description: 'The answer (null on most refusals; validation refusals list the fields in `errors`)' },
    message: { type: 'string', description: 'What happened, in the caller’s language' },
  },
  required: ['code', 'data', 'message'],
};

/** Refusals answered with an HTTP error status (plugins/errors.ts, contracts httpStatusForCode). */
const REFUSALS: Readonly<Record<string, { status: string; code: number; description: string; data?: unknown }>> = {
  ValidationFailed: {
    status: '400',
    code: Code.VALIDATION,
    description: 'A parameter or the body is not valid (code 4): `data.errors` names each field and what is wrong with it',
    data: { errors: [{ field: 'size', message: 'expected an integer' }] },
  },
  Unauthorized: {
    status: '401',
    code: Code.TOKEN_INVALID,
    description: 'No session, or the access token is unknown or expired (code 401): refresh it or sign in again',
  },
  Forbidden: { status: '403', code: Code.NO_PERMISSION, description: 'The session lacks the permission this call needs (code 2)' },
  TooManyRequests: {
    status: '429',
    code: Code.RATE_LIMITED,
    description: 'Too many requests from this caller (code 429): retry after the Retry-After header’s seconds',
  },
};

/**
 * The last pass over the generated document: operationIds, parameter descriptions, the refusal answers,
 * examples, and only the component schemas something refers to.
 */
export function finishDocument(document: Json): Json {
  const components = (document.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) finishOperation(operation, method, path, schemas);
    }
  }
  const responses: Record<string, Json> = {};
  for (const [name, refusal] of Object.entries(REFUSALS)) {
    responses[name] = {
      description: refusal.description,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Envelope' },
          example: { code: refusal.code, data: refusal.data ?? null, message: translate('en', `code.${refusal.code}` as never) },
        },
      },
    };
  }
  const finished = { ...document, paths, components: { ...components, schemas: { ...schemas, Envelope: ENVELOPE }, responses } };
  return pruneSchemas(finished);
}

function finishOperation(operation: Json, method: string, path: string, schemas: Readonly<Record<string, Json>>): void {
  operation.operationId ??= operationIdFor(method, path);
  const parameters = Array.isArray(operation.parameters) ? (operation.parameters as Json[]) : [];
  for (const parameter of parameters) {
    if (typeof parameter.description === 'string' && parameter.description !== '') continue;
    const name = String(parameter.name);
    const schema = parameter.schema as Json | undefined;
    const text = parameter.in === 'path' ? describePathParameter(name, path) : describeQueryParameter(name);
    parameter.description = `${text}${constraints(schema)}`;
    const example = exampleOf(schema, schemas, name);
    if (example !== undefined && parameter.example === undefined) parameter.example = example;
  }
  // The route's own examples (plugins/openapi.ts routeExamples) come first.
  const given = (operation['x-route-examples'] ?? {}) as { body?: unknown[]; data?: unknown[] };
  delete operation['x-route-examples'];
  const body = (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
  for (const media of Object.values(body ?? {})) {
    if (given.body) media.examples = namedExamples(given.body, (value) => value);
    addExample(media, schemas, (value) => value);
  }

  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const ok = responses['200'];
  if (ok) {
    if (ok.description === 'Default Response' || !ok.description)
      ok.description = ok.content
        ? 'The envelope with code 0 and the answer in `data`; a refusal has another code (x-codes)'
        : 'The file or page asked for';
    const content = ok.content as Record<string, Json> | undefined;
    const json = content?.['application/json'];
    const success = (value: unknown) => ({ ...(value as Json), code: 0, message: 'Success' });
    if (json && given.data) json.examples = namedExamples(given.data, (data) => success({ data }));
    if (json) addExample(json, schemas, success);
  }
  const codes = new Set(((operation['x-codes'] ?? []) as { code: number }[]).map((entry) => entry.code));
  if (codes.has(Code.VALIDATION)) responses['400'] ??= { $ref: '#/components/responses/ValidationFailed' };
  if (codes.has(Code.TOKEN_INVALID)) responses['401'] ??= { $ref: '#/components/responses/Unauthorized' };
  if (codes.has(Code.NO_PERMISSION)) responses['403'] ??= { $ref: '#/components/responses/Forbidden' };
  responses['429'] ??= { $ref: '#/components/responses/TooManyRequests' };
  operation.responses = responses;
}

/** Media-type examples by name (`example1` …), as the swagger plugin names a schema's examples. */
function namedExamples(values: readonly unknown[], shape: (value: unknown) => unknown): Json {
  return Object.fromEntries(values.map((value, index) => [`example${index + 1}`, { value: shape(value) }]));
}

function addExample(media: Json, schemas: Readonly<Record<string, Json>>, shape: (value: unknown) => unknown): void {
  if (media.example !== undefined || media.examples !== undefined) return;
  const value = exampleOf(media.schema, schemas);
  if (value !== undefined && value !== null) media.example = shape(value);
}

/** Component schemas nothing refers to (directly or through another referenced one) are left out. */
function pruneSchemas(document: Json): Json {
  const components = document.components as Json;
  const schemas = components.schemas as Record<string, Json>;
  const used = new Set<string>();
  const pending = [...references({ ...document, components: { ...components, schemas: {} } })];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (used.has(name)) continue;
    used.add(name);
    pending.push(...references(schemas[name]));
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...components, schemas: kept } };
}

function references(value: unknown): string[] {
  const found: string[] = [];
  JSON.stringify(value, (key, inner: unknown) => {
    if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/'))
      found.push(decodeURIComponent(inner.slice('#/components/schemas/'.length)));
    return inner;
  });
  return found;
}
