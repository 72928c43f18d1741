import { Code, type ResponseCode } from '@sunward/contracts/codes';
import type { Envelope } from '@sunward/contracts/envelope';
import { type MessageParams, translate } from '@sunward/contracts/messages';
import type { FastifyRequest } from 'fastify';

/** A refusal with a catalogue code; the error handler turns it into the envelope in the caller's language. */
export class ApiError extends Error {
  constructor(
    readonly responseCode: ResponseCode,
    readonly params: MessageParams = {},
    readonly data: unknown = null,
  ) {
    super(`response code ${responseCode}`);
  }
}

export function ok<T>(request: FastifyRequest, data: T): Envelope<T> {
  return { code: Code.OK, data, message: translate(request.language, 'code.0') };
}
