import type { Language } from '@sunward/contracts/languages';
import { type MessageKey, translate } from '@sunward/contracts/messages';
import type { PermissionEntry } from '@sunward/contracts/permissions';
import type { PermissionRow } from './permissions.repository.js';

/** Presents the caller's permissions with names in their language (spec 01 §6: type 0 menu, others buttons). */
export function presentPermissions(rows: readonly PermissionRow[], language: Language): PermissionEntry[] {
  return rows.map((row) => ({
    id: row.id,
    key: row.key,
    name: translate(language, `permission.${row.key}` as MessageKey),
    type: row.type,
    parentKey: row.parentKey,
    sort: row.sort,
  }));
}
