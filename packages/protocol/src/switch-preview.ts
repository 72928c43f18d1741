/**
 * What a device's protocol switch would change (issue 19, item 1: "a device's protocol can be switched with a
 * preview of what would decode differently"): the device's last reading put back on the wire with the map
 * that decoded it, then read with both maps, point by point. Readings keep decoded values, not registers, so
 * the registers are the ones the first map gives those values; for what that map reads this is exact. Pure.
 */
import { decodeBlocks, encodeValues } from './codec.js';
import type { DecodedValue, LocalisedText, ProtocolDefinition } from './types.js';

export interface SwitchPreviewRow {
  id: string;
  label: LocalisedText;
  /** As the device's current map reads it; null: that map has no such point (or did not decode it). */
  before: DecodedValue | null;
  unitBefore: string | null;
  /** As the other map would read the same registers; null: no such point, or nothing to read. */
  after: DecodedValue | null;
  unitAfter: string | null;
  changed: boolean;
}

export function switchPreview(
  from: ProtocolDefinition,
  to: ProtocolDefinition,
  lastValues: Readonly<Record<string, DecodedValue>>,
): SwitchPreviewRow[] {
  const blocks = encodeValues(from, { ...lastValues });
  const before = decodeBlocks(from, blocks).values;
  const after = decodeBlocks(to, blocks).values;
  const fromPoints = new Map(from.points.map((p) => [p.id, p]));
  const toPoints = new Map(to.points.map((p) => [p.id, p]));
  const ids = [...new Set([...from.points.map((p) => p.id), ...to.points.map((p) => p.id)])];
  return ids
    .filter((id) => before[id] !== undefined || after[id] !== undefined)
    .map((id) => {
      const a = fromPoints.get(id);
      const b = toPoints.get(id);
      const row = {
        id,
        label: (b ?? a)?.label ?? { en: id, zh: id },
        before: before[id] ?? null,
        unitBefore: a?.unit ?? null,
        after: after[id] ?? null,
        unitAfter: b?.unit ?? null,
      };
      return { ...row, changed: row.before !== row.after || row.unitBefore !== row.unitAfter };
    });
}
