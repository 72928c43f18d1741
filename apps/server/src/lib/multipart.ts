import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { ApiError } from './envelope.js';

/**
 * The file of a multipart body (plugins/body-parsers.ts turns files into Buffers): a missing one is
 * refused with code 4 naming the field, in the caller's language.
 */
export function requireFile(value: unknown, language: Language, field = 'file'): Buffer {
  if (!Buffer.isBuffer(value))
    throw new ApiError(Code.VALIDATION, {}, { errors: [{ field, message: translate(language, 'validation.required') }] });
  return value;
}
