import { Code } from '@sunward/contracts/codes';
import { ApiCallError } from '../../lib/api-client';

/**
 * The challenge of a code-112 answer (password right, second factor asked), or undefined for any other
 * error. Kept apart from the form, which loads only when asked for, so the sign-in page stays light.
 */
export function challengeOf(error: unknown): string | undefined {
  if (!(error instanceof ApiCallError) || error.code !== Code.SECOND_FACTOR_REQUIRED) return undefined;
  const data = error.data;
  return data && typeof data === 'object' && 'challenge' in data && typeof data.challenge === 'string' ? data.challenge : undefined;
}
