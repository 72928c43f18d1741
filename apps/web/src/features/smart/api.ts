import { AC_SWITCH_LIMITS, AcSwitchPageSchema } from '@sunward/contracts/ac-switches';
import { Code } from '@sunward/contracts/codes';
import {
  AppListSchema,
  LightBridgeStatusSchema,
  LightOauthStartSchema,
  LightSchema,
  type LightSetting,
  RulePlantSchema,
  RulePreviewSchema,
  type SmartApp,
  type SmartRuleInput,
  SmartRuleRunSchema,
  SmartRuleSchema,
} from '@sunward/contracts/smart-home';
import { z } from 'zod';
import { apiRequest, refusalCode } from '../../lib/api-client';

/** Query keys: the shell's menu reads ['smartApps'] too (app/enabled-apps.ts), so a change here updates the menu. */
export const smartKeys = {
  apps: ['smartApps'] as const,
};

export const fetchApps = () => apiRequest('/api/v1/component/apps', { schema: AppListSchema });

export const setAppEnabled = (app: SmartApp, enabled: boolean) =>
  apiRequest(`/api/v1/component/apps/${app}/enable`, {
    method: 'POST',
    json: { enabled },
    schema: AppListSchema,
    tolerate: [Code.APP_NOT_AVAILABLE, Code.NO_PERMISSION],
  });

const LIGHT_CODES = [
  Code.APP_NOT_ENABLED,
  Code.LIGHT_NOT_AUTHORISED,
  Code.LIGHT_TOKEN_REFUSED,
  Code.LIGHT_BRIDGE_UNREACHABLE,
  Code.LIGHT_OAUTH_STATE_INVALID,
  Code.LIGHT_NOT_FOUND,
  Code.PLANT_NOT_FOUND,
  Code.VALIDATION,
];

export const lightKeys = {
  all: ['lights'] as const,
  list: ['lights', 'list'] as const,
  bridge: ['lights', 'bridge'] as const,
};

export const fetchLights = () => apiRequest('/api/v1/light', { schema: z.array(LightSchema), tolerate: LIGHT_CODES });
export const checkBridge = () => apiRequest('/api/v1/light/bridge/check', { schema: LightBridgeStatusSchema, tolerate: LIGHT_CODES });
export const startOauth = () => apiRequest('/api/v1/light/oauth', { schema: LightOauthStartSchema, tolerate: LIGHT_CODES });
export const finishOauth = (code: string, state: string) =>
  apiRequest('/api/v1/light/oauth/callback', {
    method: 'POST',
    json: { code, state },
    schema: LightBridgeStatusSchema,
    tolerate: LIGHT_CODES,
  });
export const revokeBridge = () =>
  apiRequest('/api/v1/light/oauth/revoke', { method: 'POST', json: {}, schema: LightBridgeStatusSchema, tolerate: LIGHT_CODES });
export const bindLight = (id: number, plantId: number | null) =>
  plantId === null
    ? apiRequest(`/api/v1/light/${id}/unbind`, { method: 'POST', json: {}, schema: LightSchema, tolerate: LIGHT_CODES })
    : apiRequest(`/api/v1/light/${id}/bind`, { method: 'POST', json: { plantId }, schema: LightSchema, tolerate: LIGHT_CODES });
export const setLight = (id: number, setting: LightSetting) =>
  apiRequest(`/api/v1/light/${id}/setting`, { method: 'POST', json: setting, schema: LightSchema, tolerate: LIGHT_CODES });

const RULE_CODES = [
  Code.VALIDATION,
  Code.NO_PERMISSION,
  Code.APP_NOT_ENABLED,
  Code.PLANT_NOT_FOUND,
  Code.SMART_RULE_NOT_FOUND,
  Code.SMART_RULE_NAME_EXISTS,
  Code.SMART_RULE_DEVICE_TWICE,
  Code.SMART_RULE_DEVICE_INVALID,
  Code.CONFIRM_PASSWORD_WRONG,
  Code.TOO_MANY_ATTEMPTS,
];

export const ruleKeys = {
  all: ['smartRules'] as const,
  list: ['smartRules', 'list'] as const,
  plants: ['smartRules', 'plants'] as const,
  runs: (id: number) => ['smartRules', 'runs', id] as const,
};

export const fetchRules = () => apiRequest('/api/v1/smart/rule', { schema: z.array(SmartRuleSchema), tolerate: RULE_CODES });
export const fetchRulePlants = () => apiRequest('/api/v1/smart/rule/plant', { schema: z.array(RulePlantSchema), tolerate: RULE_CODES });
export const fetchPlantLights = (plantId: number) => apiRequest(`/api/v1/plant/${plantId}/light`, { schema: z.array(LightSchema) });
/**
 * The plant's AC switches a rule may act on; none while the company has not enabled the smart switch app (4400)
 * or the caller may not see switches (2): the rule form then offers bulbs only.
 */
export const fetchPlantSwitches = async (plantId: number) => {
  try {
    const page = await apiRequest(`/api/v1/acSwitch/getPageByStation?plantId=${plantId}&size=${AC_SWITCH_LIMITS.pageSizeMax}`, {
      schema: AcSwitchPageSchema,
      tolerate: [Code.APP_NOT_ENABLED, Code.NO_PERMISSION],
    });
    return page.infos;
  } catch (error) {
    const code = refusalCode(error);
    if (code === Code.APP_NOT_ENABLED || code === Code.NO_PERMISSION) return [];
    throw error;
  }
};
export const saveRule = (id: number | undefined, input: SmartRuleInput) =>
  apiRequest(id === undefined ? '/api/v1/smart/rule' : `/api/v1/smart/rule/${id}`, {
    method: 'POST',
    json: input,
    schema: SmartRuleSchema,
    tolerate: RULE_CODES,
  });
export const enableRule = (id: number, enabled: boolean) =>
  apiRequest(`/api/v1/smart/rule/${id}/enable`, { method: 'POST', json: { enabled }, schema: SmartRuleSchema, tolerate: RULE_CODES });
export const deleteRule = (id: number) =>
  apiRequest(`/api/v1/smart/rule/${id}/delete`, { method: 'POST', json: {}, schema: z.null(), tolerate: RULE_CODES });
export const fetchRuleRuns = (id: number) =>
  apiRequest(`/api/v1/smart/rule/${id}/runs`, { schema: z.array(SmartRuleRunSchema), tolerate: RULE_CODES });
export const previewRule = (id: number) =>
  apiRequest(`/api/v1/smart/rule/${id}/preview`, { schema: RulePreviewSchema, tolerate: RULE_CODES });
