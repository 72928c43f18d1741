import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { AcSwitchRecord } from '../ac-switches/ac-switches.repository.js';
import { switchFigures } from '../ac-switches/ac-switches.service.js';
import type { LightService } from '../light/light.service.js';
import type { RuleDevices } from './smart-rules.service.js';

/** What rules need of the AC switches: a plant's switch ids, and switching one for the rule's account. */
export interface RuleSwitches {
  ofPlant(plantId: number): Promise<number[]>;
  /** Switches on or off over the gateway protocol for `actor`; throws ApiError with the refusal's code. */
  set(switchId: number, plantId: number, on: boolean, actor: AuthContext): Promise<void>;
}

/**
 * AC switches for rules: the console's checks (bound to the rule's plant, 4413; reporting, 4428; switched off by
 * hand is only switched on by hand, 4427) before the remote-command path (commands.service switchAcSwitch: audit,
 * per-company cap, the switch's own `locked` read as 4427). The password is not asked: it was confirmed when the
 * rule was saved (smart-rules.service), and `actor` was re-checked just before.
 */
export function ruleSwitches(deps: {
  /** The registry (ac-switches.repository find): what a firing reads of a switch. */
  switches: {
    find(by: {
      id: number;
    }): Promise<Pick<AcSwitchRecord, 'id' | 'sn' | 'plantId' | 'deviceId' | 'gatewaySn' | 'protocolId' | 'values'> | undefined>;
  };
  plantSwitchIds: (plantId: number) => Promise<number[]>;
  /** commands.service: `confirmed` skips the password, asked when the rule was saved. */
  commands: {
    switchAcSwitch(auth: AuthContext, language: Language, sn: string, on: boolean, options: { confirmed: boolean }): Promise<unknown>;
  };
}): RuleSwitches {
  return {
    ofPlant: deps.plantSwitchIds,
    async set(switchId, plantId, on, actor) {
      const found = await deps.switches.find({ id: switchId });
      if (!found || found.plantId !== plantId) throw new ApiError(Code.SMART_RULE_DEVICE_INVALID);
      if (found.deviceId === null || found.gatewaySn === null) throw new ApiError(Code.AC_SWITCH_NOT_REPORTING);
      if (on && switchFigures(found).offLocally) throw new ApiError(Code.AC_SWITCH_OFF_LOCALLY);
      await deps.commands.switchAcSwitch(actor, 'en', found.sn, on, { confirmed: true });
    },
  };
}

/** The devices rules act on: bulbs through their bridge, AC switches through their gateway. */
export function ruleDevices(deps: { lights: LightService; switches: RuleSwitches }): RuleDevices {
  return {
    async ofPlant(kind, plantId) {
      if (kind === 'light') return (await deps.lights.plantLights(plantId)).map((l) => l.id);
      return deps.switches.ofPlant(plantId);
    },
    async apply(action, plantId, actor) {
      if (action.kind === 'light') {
        const setting = action.on
          ? { on: true, ...(action.brightness === undefined ? {} : { brightness: action.brightness }) }
          : { on: false };
        await deps.lights.applyForRule(action.deviceId, plantId, setting);
        return;
      }
      await deps.switches.set(action.deviceId, plantId, action.on, await actor());
    },
  };
}
