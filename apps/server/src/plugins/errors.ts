import { Code, httpStatusForCode, type ResponseCode } from '@sunward/contracts/codes';
import type { ValidationIssue } from '@sunward/contracts/envelope';
import type { Language } from '@sunward/contracts/languages';
import { isMessageKey, type MessageKey, translate } from '@sunward/contracts/messages';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiError } from '../lib/envelope.js';
import { isConsoleRoute } from './console.js';

interface ZodLikeIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Turns one schema issue into the localised phrase shown beside the field. */
export function describeIssue(language: Language, issue: ZodLikeIssue): ValidationIssue {
  const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
  const p = issue.params ?? {};
  const problem = ((): string => {
    switch (issue.keyword) {
      case 'invalid_type':
        return translate(language, p.input === undefined ? 'validation.required' : 'validation.invalidType');
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

// Refusals bypass the route's response schema, which describes only the success payload.
const serializeEnvelope = (payload: unknown) => JSON.stringify(payload);

function send(reply: FastifyReply, code: ResponseCode, message: string, data: unknown = null) {
  return reply
    .status(httpStatusForCode(code))
    .type('application/json; charset=utf-8')
    .serializer(serializeEnvelope)
    .send({ code, data, message });
}

/** Every failure leaves as the spec's envelope with a localised message; nothing leaks a stack trace. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const language = request.language;
    if (error instanceof ApiError) {
      return send(reply, error.responseCode, translate(language, `code.${error.responseCode}` as MessageKey, error.params), error.data);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => describeIssue(language, issue));
      const first = errors[0];
      const message = first
        ? translate(language, 'validation.field', { field: first.field, problem: first.message })
        : translate(language, 'code.4');
      return send(reply, Code.VALIDATION, message, { errors });
    }
    // Malformed JSON, wrong content type, oversize body: the client's fault, so code 4.
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      if (error.statusCode === 429) return send(reply, Code.RATE_LIMITED, translate(language, 'code.429'));
      const field = 'body';
      const problem = translate(language, 'validation.body');
      return reply
        .status(error.statusCode === 413 ? 413 : 400)
        .serializer(serializeEnvelope)
        .send({
          code: Code.VALIDATION,
          data: { errors: [{ field, message: problem }] },
          message: translate(language, 'validation.field', { field, problem }),
        });
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
