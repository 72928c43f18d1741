import { EventEmitter } from 'node:events';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { Code, httpStatusForCode, type ResponseCode } from '@sunward/contracts/codes';
import type { ValidationIssue } from '@sunward/contracts/envelope';
import { DEFAULT_LANGUAGE, type Language, languageFromAcceptLanguage } from '@sunward/contracts/languages';
import { isMessageKey, type MessageKey, translate } from '@sunward/contracts/messages';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiError } from '../lib/envelope.js';
import { isConsoleRoute } from './console.js';
import { choiceProblem, type IssueContext, issuePath, typeProblem } from './validation-problem.js';

interface ZodLikeIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Turns one schema issue into the localised phrase shown beside the field; with the request's part and the
 * route's schema of it, a wrong type says what was expected (validation-problem.ts).
 */
export function describeIssue(language: Language, issue: ZodLikeIssue, context?: IssueContext): ValidationIssue {
  const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
  const p = issue.params ?? {};
  const problem = ((): string => {
    switch (issue.keyword) {
      case 'invalid_type':
        return typeProblem(language, p.expected, issuePath(issue.instancePath), context);
      case 'too_small':
        return p.origin === 'string' || p.origin === 'array'
          ? translate(language, p.origin === 'string' && p.minimum === 1 ? 'validation.required' : 'validation.tooShort', {
              min: String(p.minimum),
            })
          : translate(language, 'validation.tooSmall', { min: String(p.minimum) });
      case 'too_big':
        return p.origin === 'string' || p.origin === 'array'
          ? translate(language, 'validation.tooLong', { max: String(p.maximum) })
          : translate(language, 'validation.tooBig', { max: String(p.maximum) });
      case 'invalid_format':
        return translate(language, 'validation.invalidFormat');
      case 'invalid_value':
        return choiceProblem(language, p.values) ?? translate(language, 'validation.invalidValue');
      case 'invalid_union':
        return translate(language, 'validation.invalidValue');
      case 'unrecognized_keys':
        return translate(language, 'validation.unknownField');
      default:
        // Custom refinements carry a message key so their text can be localised too.
        return issue.message && isMessageKey(issue.message)
          ? translate(language, issue.message as MessageKey)
          : translate(language, 'validation.invalidValue');
    }
  })();
  return { field, message: problem };
}

/** The request's part that failed validation, as sent, and the route's schema of it. */
function issueContext(request: FastifyRequest, part: string | undefined): IssueContext | undefined {
  const parts = { body: request.body, querystring: request.query, params: request.params, headers: request.headers };
  if (part === undefined || !(part in parts)) return undefined;
  const schema = (request.routeOptions.schema as Record<string, unknown> | undefined)?.[part];
  return { input: parts[part as keyof typeof parts], schema };
}

// Refusals bypass the route's response schema, which describes only the success payload.
const serializeEnvelope = (payload: unknown) => JSON.stringify(payload);

function send(reply: FastifyReply, code: ResponseCode, message: string, data: unknown = null, status = httpStatusForCode(code)) {
  return reply.status(status).type('application/json; charset=utf-8').serializer(serializeEnvelope).send({ code, data, message });
}

/** Code 4 naming one field, shaped like a schema refusal: `{errors: [{field, message}]}`. */
function sendFieldProblem(reply: FastifyReply, language: Language, field: string, key: MessageKey, status = 400) {
  const problem = translate(language, key);
  return send(
    reply,
    Code.VALIDATION,
    translate(language, 'validation.field', { field, problem }),
    { errors: [{ field, message: problem }] },
    status,
  );
}

/**
 * The first text (value or key) in a parsed query, path or body that holds a NUL character, as the field
 * path a schema refusal would name (`keyword`, `gateways.0.sn`); undefined when there is none. PostgreSQL
 * cannot store NUL in text or jsonb, so it is refused before any route sees it. Only parsed data is looked
 * into (each object once): files are bytes, not text, whether a Buffer or the raw upload stream a route
 * reads itself (an IncomingMessage, an EventEmitter: its socket, server and their cycles were walked without
 * end before, growing the queue until the process ran out of memory on the first upload over a socket).
 */
export function fieldWithNul(value: unknown): string | undefined {
  // Breadth first, so the shallowest field is named, as a reader scans the form.
  const pending: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  const seen = new WeakSet<object>();
  for (let i = 0, next = pending[0]; next; next = pending[++i]) {
    const { value: v, path } = next;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path.join('.') || 'body';
      continue;
    }
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof EventEmitter) continue;
    if (seen.has(v)) continue;
    seen.add(v);
    for (const [key, inner] of Object.entries(v)) {
      if (key.includes('\u0000')) return [...path, key].join('.');
      pending.push({ value: inner, path: [...path, key] });
    }
  }
  return undefined;
}

/** What a framework refusal of the request itself (not of a field) is, by Fastify's error code or status. */
function requestProblem(error: FastifyError): { field: string; key: MessageKey; status: number } {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH' || error.statusCode === 414)
    return { field: 'url', key: 'validation.urlTooLong', status: 414 };
  if (error.code === 'FST_ERR_BAD_URL') return { field: 'url', key: 'validation.invalidFormat', status: 400 };
  if (error.statusCode === 413) return { field: 'body', key: 'validation.bodyTooLarge', status: 413 };
  if (error.statusCode === 415) return { field: 'body', key: 'validation.mediaType', status: 415 };
  return { field: 'body', key: 'validation.body', status: 400 };
}

/**
 * Fastify's `frameworkErrors`: a path it cannot decode or a parameter longer than its limit, refused
 * before routing (no hook has run, so the language comes from Accept-Language here).
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const language = languageFromAcceptLanguage(request.headers['accept-language']) ?? DEFAULT_LANGUAGE;
  const { field, key, status } = requestProblem(error);
  return sendFieldProblem(reply, language, field, key, status);
}

/**
 * Node's `clientError`: a request the HTTP parser refuses (request line or headers over Node's 16 KB,
 * malformed HTTP). There is no request object, so the envelope is written on the socket: 414 when the
 * request line itself is too long (a huge query), 431 for huge headers, 400 otherwise, in the language the
 * request's Accept-Language asked for when its bytes show it.
 */
export function clientErrorHandler(error: ConnectionError, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Node hands the bytes it had read as a Buffer (Fastify's type describes its JSON form).
  const packet: unknown = error.rawPacket;
  const raw = Buffer.isBuffer(packet) ? packet.toString('latin1') : '';
  const accept = /\r\naccept-language:[ \t]*([^\r\n]{1,200})/i.exec(raw)?.[1];
  const language = languageFromAcceptLanguage(accept) ?? DEFAULT_LANGUAGE;
  const lineEnd = raw.indexOf('\r\n');
  const [status, field, key]: [number, string, MessageKey] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? lineEnd === -1 || lineEnd > 8192
        ? [414, 'url', 'validation.urlTooLong']
        : [431, 'headers', 'validation.headersTooLarge']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'body', 'validation.body']
        : [400, 'request', 'validation.body'];
  const problem = translate(language, key);
  const body = JSON.stringify({
    code: Code.VALIDATION,
    data: { errors: [{ field, message: problem }] },
    message: translate(language, 'validation.field', { field, problem }),
  });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}

/** Whole seconds until `data.retryAt` (at least 1), when an error's data names one. */
export function retryAfterSeconds(data: unknown, now = Date.now()): number | undefined {
  if (!data || typeof data !== 'object' || !('retryAt' in data) || typeof data.retryAt !== 'string') return undefined;
  const at = Date.parse(data.retryAt);
  return Number.isNaN(at) ? undefined : Math.max(1, Math.ceil((at - now) / 1000));
}

/** Every failure leaves as the spec's envelope with a localised message; nothing leaks a stack trace. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  // Text with a NUL character is refused in one place, for every route, naming the field (code 4).
  app.addHook('preValidation', async (request, reply) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = fieldWithNul(part);
      if (field !== undefined) return sendFieldProblem(reply, request.language, field, 'validation.nulCharacter');
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const language = request.language;
    if (error instanceof ApiError) {
      // Throttled secrets (codes 110, 135) say when to retry, in the body (data.retryAt) and as Retry-After.
      const seconds = retryAfterSeconds(error.data);
      if (seconds !== undefined) reply.header('retry-after', String(seconds));
      return send(reply, error.responseCode, translate(language, `code.${error.responseCode}` as MessageKey, error.params), error.data);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = issueContext(request, error.validationContext);
      const errors = error.validation.map((issue) => describeIssue(language, issue, context));
      const first = errors[0];
      const message = first
        ? translate(language, 'validation.field', { field: first.field, problem: first.message })
        : translate(language, 'code.4');
      return send(reply, Code.VALIDATION, message, { errors });
    }
    // Malformed JSON, wrong content type, oversize body, too long a parameter: the client's fault, so code 4.
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      if (error.statusCode === 429) return send(reply, Code.RATE_LIMITED, translate(language, 'code.429'));
      const { field, key, status } = requestProblem(error);
      return sendFieldProblem(reply, language, field, key, status);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, Code.SERVER_ERROR, translate(language, 'code.500'));
  });

  app.setNotFoundHandler((request, reply) => {
    if (app.hasReplyDecorator('sendFile') && isConsoleRoute(request.method, request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return send(reply, Code.NOT_FOUND, translate(request.language, 'code.404'));
  });
});
