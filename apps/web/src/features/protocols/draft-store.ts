import type { ProtocolSave } from '@sunward/contracts/protocols';

/*
 * A draft made outside the editor (a SunSpec model turned into registers) handed to the editor page by a
 * key in its address. Kept in this tab's memory only: a reload of the editor starts from an empty draft.
 */
const drafts = new Map<string, { draft: ProtocolSave; skipped: string[] }>();
let counter = 0;

export function storeDraft(draft: ProtocolSave, skipped: string[]): string {
  const key = `d${++counter}`;
  drafts.set(key, { draft, skipped });
  return key;
}

export function takeDraft(key: string | null): { draft: ProtocolSave; skipped: string[] } | undefined {
  return key ? drafts.get(key) : undefined;
}
