import { fieldErrors, refusalMessage } from '../lib/api-client';

/** Where a form shows a refusal: beside the fields the server named, beside one field, or as a message. */
export type RefusalPlacement =
  | { kind: 'fields'; fields: { name: string; errors: string[] }[] }
  | { kind: 'field'; name: string; text: string }
  | { kind: 'message'; text: string };

/**
 * A code-4 refusal's field problems go to their fields; any other refusal goes to the field `fieldOf`
 * names, or becomes a message; `fallback` is said when the server gave no words (a network failure).
 */
export function placeRefusal(error: unknown, fallback: string, fieldOf?: (error: unknown) => string | undefined): RefusalPlacement {
  const fields = Object.entries(fieldErrors(error));
  if (fields.length > 0) return { kind: 'fields', fields: fields.map(([name, text]) => ({ name, errors: [text] })) };
  const text = refusalMessage(error) ?? fallback;
  const name = fieldOf?.(error);
  return name ? { kind: 'field', name, text } : { kind: 'message', text };
}
