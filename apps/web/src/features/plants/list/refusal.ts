import { ApiCallError } from '../../../lib/api-client';

/** The server's own localised words for a refusal, or undefined for failures the client already reported. */
export function refusalText(error: unknown): string | undefined {
  return error instanceof ApiCallError && error.message ? error.message : undefined;
}

export function refusalCode(error: unknown): number | undefined {
  return error instanceof ApiCallError ? error.code : undefined;
}
