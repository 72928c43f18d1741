import { Code } from '@sunward/contracts/codes';
import {
  SETTINGS_FAMILIES,
  type SettingPair,
  type SettingsFamily,
  type SettingsScope,
  settingsScopeOf,
  type WritableParam,
} from '@sunward/contracts/commands';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { allProtocols, protocolById } from '@sunward/protocol/maps/index';
import { ApiError } from '../../lib/envelope.js';

/**
 * Settings groups as the protocols declare them (issue 19): a protocol's `settingsFamilies` names, per
 * family of spec 01 §7, the writable registers that make its form. Nothing here knows a model: a protocol
 * created in the console with a group has its form, and a model without the group answers 601.
 */

/** The families a protocol carries that show on a page's scope, in the spec's order. */
export function familiesOf(protocolId: string, scope?: SettingsScope): SettingsFamily[] {
  const declared = protocolById(protocolId)?.settingsFamilies ?? {};
  return SETTINGS_FAMILIES.filter((family) => (declared[family]?.length ?? 0) > 0 && (!scope || settingsScopeOf(family) === scope));
}

/** The register ids of a protocol's family, undefined when the protocol has no such group. */
export function familyPointIds(protocolId: string, family: SettingsFamily): readonly string[] | undefined {
  const ids = protocolById(protocolId)?.settingsFamilies?.[family];
  return ids && ids.length > 0 ? ids : undefined;
}

/** The protocols decoding now that carry a family of the scope (the setting pages list their devices). */
export function protocolsWithSettings(scope: SettingsScope): string[] {
  return allProtocols()
    .filter((protocol) => familiesOf(protocol.id, scope).length > 0)
    .map((protocol) => protocol.id);
}

/** Which asked values the device's reply does not carry as asked: the write is not confirmed for them. */
export function unconfirmed(asked: Record<string, number>, reply: Record<string, number | string> | null): string[] {
  return Object.entries(asked)
    .filter(([id, value]) => {
      const now = reply?.[id];
      return typeof now !== 'number' || Math.abs(now - value) > 1e-6;
    })
    .map(([id]) => id);
}

/**
 * The protocol's limits that go in open/closed pairs (its settingPairs, spec 02 §5); with a family, only the
 * pairs whose two points are both in that family's form.
 */
export function settingPairsOf(protocolId: string, family?: SettingsFamily): SettingPair[] {
  const protocol = protocolById(protocolId);
  const ids = family ? (protocol?.settingsFamilies?.[family] ?? []) : undefined;
  return (protocol?.settingPairs ?? [])
    .filter((pair) => !ids || (ids.includes(pair.open) && ids.includes(pair.closed)))
    .map((pair) => ({ open: pair.open, closed: pair.closed, trip: pair.trip }));
}

export type LimitPairProblem = { kind: 'integer'; id: string } | { kind: 'order'; pair: SettingPair };

/**
 * Spec 02 §5 "open value must exceed closed value, positive integers": the first problem a write leaves in
 * the pairs it touches. A paired value asked must be a positive integer; a pair with either half asked must
 * then be in order, the half not asked being the device's last reported value: open > closed for an
 * over-limit (`above`), closed > open for an under-limit (`below`, the switch opens below its limit and
 * closes again above the closed value). A pair whose other half is not known yet is not judged.
 */
export function limitPairProblem(
  pairs: readonly SettingPair[],
  asked: Readonly<Record<string, number>>,
  reported: Readonly<Record<string, number | null | undefined>>,
): LimitPairProblem | undefined {
  for (const pair of pairs)
    for (const id of [pair.open, pair.closed]) {
      const value = asked[id];
      if (value !== undefined && !(Number.isInteger(value) && value > 0)) return { kind: 'integer', id };
    }
  for (const pair of pairs) {
    if (asked[pair.open] === undefined && asked[pair.closed] === undefined) continue;
    const open = asked[pair.open] ?? reported[pair.open];
    const closed = asked[pair.closed] ?? reported[pair.closed];
    if (typeof open !== 'number' || typeof closed !== 'number') continue;
    if (pair.trip === 'above' ? open <= closed : closed <= open) return { kind: 'order', pair };
  }
  return undefined;
}

/**
 * Refuses a write to a device whose protocol pairs limits when it breaks a pair (limitPairProblem): code 4
 * naming the value that is not a positive integer, or 4430 naming the limit. Nothing is sent then.
 */
export function assertLimitPairs(
  protocolId: string,
  asked: Readonly<Record<string, number>>,
  params: readonly WritableParam[],
  language: Language,
  field: string,
): void {
  const pairs = settingPairsOf(protocolId);
  if (pairs.length === 0) return;
  const problem = limitPairProblem(pairs, asked, Object.fromEntries(params.map((p) => [p.id, p.value])));
  if (!problem) return;
  if (problem.kind === 'integer')
    throw new ApiError(
      Code.VALIDATION,
      {},
      { errors: [{ field: `${field}.${problem.id}`, message: translate(language, 'commands.positiveInteger') }] },
    );
  throw new ApiError(Code.AC_SWITCH_LIMIT_PAIR, { limit: params.find((p) => p.id === problem.pair.open)?.label ?? problem.pair.open });
}
