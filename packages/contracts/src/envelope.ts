import { z } from 'zod';
import type { ResponseCode } from './codes.js';

/** Every response of /oauth/*, /anonymous/* and /api/v1/* has this shape; code 0 is success. */
export interface Envelope<T> {
  code: ResponseCode;
  data: T;
  message: string;
}

export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), data, message: z.string() });
}

/** Validation failures name the failing field so a form can show the message beside it. */
export const ValidationIssueSchema = z.object({ field: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;
export const ValidationErrorDataSchema = z.object({ errors: z.array(ValidationIssueSchema) });
export type ValidationErrorData = z.infer<typeof ValidationErrorDataSchema>;
