import { Code } from '@sunward/contracts/codes';
import { numericPointIds } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { AcSwitchRecord } from '../ac-switches/ac-switches.repository.js';
import { ruleSwitches } from './rule-devices.js';

const PLANT = 7;
const actor: AuthContext = {
  userId: 3,
  sessionId: 'rule-1',
  account: 'saver (rule #1)',
  roleId: 2,
  roleKey: 'company_admin',
  companyId: 4,
  readOnly: false,
  permissions: new Set(['smart.acSwitch.control']),
  ip: '',
};

/** A switch's newest reading as the repository reads it: values by the map's numeric point order. */
function reading(points: Record<string, number>): number[] {
  const protocol = protocolById('vendor-ac-switch');
  if (!protocol) throw new Error('no vendor-ac-switch map');
  return numericPointIds(protocol).map((id) => points[id] ?? Number.NaN);
}

type SwitchRecord = Pick<AcSwitchRecord, 'id' | 'sn' | 'plantId' | 'deviceId' | 'gatewaySn' | 'protocolId' | 'values'>;

function record(over: Partial<SwitchRecord> = {}): SwitchRecord {
  return {
    id: 11,
    sn: 'SWUNIT01',
    plantId: PLANT,
    deviceId: 21,
    protocolId: 'vendor-ac-switch',
    gatewaySn: 'GWUNIT01',
    values: reading({ St: 0, Evt: 1 << 9 }),
    ...over,
  };
}

/** ruleSwitches over one switch record; the commands it sends are recorded. */
function switchesOf(found: SwitchRecord | undefined) {
  const sent: { auth: AuthContext; sn: string; on: boolean; options: { confirmed: boolean } }[] = [];
  const switches = ruleSwitches({
    switches: { find: async () => found },
    plantSwitchIds: async () => (found ? [found.id] : []),
    commands: {
      switchAcSwitch: async (auth, _language, sn, on, options) => {
        sent.push({ auth, sn, on, options });
        return {};
      },
    },
  });
  return { switches, sent };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return error instanceof ApiError ? error.responseCode : error;
};

describe('rule actions on AC switches', () => {
  it('switches for the rule’s account through the command path, the password confirmed when the rule was saved', async () => {
    const { switches, sent } = switchesOf(record());
    await switches.set(11, PLANT, true, actor);
    expect(sent).toEqual([{ auth: actor, sn: 'SWUNIT01', on: true, options: { confirmed: true } }]);
  });

  it('refuses a switch no longer bound to the rule’s plant (4413) and one no gateway reports (4428), sending nothing', async () => {
    for (const [found, code] of [
      [undefined, Code.SMART_RULE_DEVICE_INVALID],
      [record({ plantId: PLANT + 1 }), Code.SMART_RULE_DEVICE_INVALID],
      [record({ deviceId: null, gatewaySn: null, values: null }), Code.AC_SWITCH_NOT_REPORTING],
    ] as const) {
      const { switches, sent } = switchesOf(found);
      expect(await refusal(switches.set(11, PLANT, true, actor))).toBe(code);
      expect(sent).toEqual([]);
    }
  });

  it('a switch turned off by hand is only turned on by hand (4427), but may still be switched off', async () => {
    const { switches, sent } = switchesOf(record({ values: reading({ St: 0, Evt: 1 << 8 }) }));
    expect(await refusal(switches.set(11, PLANT, true, actor))).toBe(Code.AC_SWITCH_OFF_LOCALLY);
    expect(sent).toEqual([]);
    await switches.set(11, PLANT, false, actor);
    expect(sent.map((s) => s.on)).toEqual([false]);
  });
});
