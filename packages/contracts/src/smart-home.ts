import { z } from 'zod';

/**
 * The application centre (issue 22, spec 02 §3 "Application centre: smart bulbs with rules"): apps a company
 * enables for its plants. Cameras need the platform administrator's grant first.
 */
export const SMART_APPS = ['smart_switch', 'smart_bulb', 'smart_rule', 'camera', 'energy_hub'] as const;
export const SmartAppSchema = z.enum(SMART_APPS);
export type SmartApp = z.infer<typeof SmartAppSchema>;
/** Apps one can enable today. */
export const AVAILABLE_SMART_APPS: readonly SmartApp[] = ['smart_switch', 'smart_bulb', 'smart_rule', 'camera', 'energy_hub'];
/**
 * Apps a company administrator can enable only after the platform administrator granted them to the company
 * (spec 02: "video service must be enabled by the administrator"; POST qvs/grants/{companyId}); without: 4613.
 */
export const GRANTED_SMART_APPS: readonly SmartApp[] = ['camera'];
/** `not_required`, or whether the platform administrator granted the app to the company. */
export const AppGrantSchema = z.enum(['not_required', 'granted', 'missing']);
export type AppGrant = z.infer<typeof AppGrantSchema>;

/**
 * An app's authorisation: `not_required` (nothing outside to authorise), `missing` (the bulb bridge is not
 * connected), `granted` (connected), `revoked` (cancelled; connect again), `failed` (the bridge refused the token).
 */
export const AppAuthorisationSchema = z.enum(['not_required', 'missing', 'granted', 'revoked', 'failed']);
export type AppAuthorisation = z.infer<typeof AppAuthorisationSchema>;

export const AppStateSchema = z.object({
  app: SmartAppSchema,
  available: z.boolean(),
  enabled: z.boolean(),
  authorisation: AppAuthorisationSchema,
  /** The platform administrator's grant, for apps that need one (GRANTED_SMART_APPS). */
  grant: AppGrantSchema,
  changedAt: z.string().nullable(),
});
export type AppState = z.infer<typeof AppStateSchema>;

export const AppListSchema = z.object({
  apps: z.array(AppStateSchema),
  /** Whether the caller may enable and disable apps (a company administrator). */
  canManage: z.boolean(),
});
export type AppList = z.infer<typeof AppListSchema>;

export const AppEnableSchema = z.object({ enabled: z.boolean() });
export type AppEnable = z.infer<typeof AppEnableSchema>;

/** Brightness in percent, colour temperature in kelvin (spec 02 §5: brightness integer 0–100). */
export const BRIGHTNESS_MIN = 0;
export const BRIGHTNESS_MAX = 100;
export const COLOR_TEMPERATURE_MIN = 2000;
export const COLOR_TEMPERATURE_MAX = 6500;
export const BrightnessSchema = z.number().int().min(BRIGHTNESS_MIN).max(BRIGHTNESS_MAX);

/** GET light/oauth: where to send the browser to authorise the bridge. */
export const LightOauthStartSchema = z.object({ url: z.string() });
export type LightOauthStart = z.infer<typeof LightOauthStartSchema>;

export const LightOauthCallbackSchema = z.object({
  code: z.string().min(1).max(2048),
  state: z.string().min(1).max(256),
});
export type LightOauthCallback = z.infer<typeof LightOauthCallbackSchema>;

/** GET light/bridge/check: the connection and whether the bridge answers. */
export const LightBridgeStatusSchema = z.object({
  authorisation: AppAuthorisationSchema,
  reachable: z.boolean(),
  connectedAt: z.string().nullable(),
  /** Why the bridge cannot be used (token expired or revoked, no answer), in the caller's language. */
  message: z.string().nullable(),
  lights: z.number().int(),
});
export type LightBridgeStatus = z.infer<typeof LightBridgeStatusSchema>;

export const LightSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  plantId: z.number().int().nullable(),
  plantName: z.string().nullable(),
  on: z.boolean(),
  brightness: z.number().int(),
  colorTemperature: z.number().int(),
  reachable: z.boolean(),
});
export type Light = z.infer<typeof LightSchema>;

export const LightBindSchema = z.object({ plantId: z.number().int().positive() });
export type LightBind = z.infer<typeof LightBindSchema>;

export const LightSettingSchema = z
  .object({
    on: z.boolean().optional(),
    brightness: BrightnessSchema.optional(),
    colorTemperature: z.number().int().min(COLOR_TEMPERATURE_MIN).max(COLOR_TEMPERATURE_MAX).optional(),
  })
  .refine((s) => s.on !== undefined || s.brightness !== undefined || s.colorTemperature !== undefined, {
    message: 'at least one setting',
  });
export type LightSetting = z.infer<typeof LightSettingSchema>;

/** Smart rules (issue 22 part 3). Limits shared by the console's form and the server. */
export const RULE_LIMITS = {
  nameMax: 50,
  actionsMax: 10,
  surplusMaxW: 10_000_000,
  holdMinutesMax: 240,
  minIntervalMinutesMin: 1,
  minIntervalMinutesMax: 1440,
  /** Hysteresis: a fired rule is released once the surplus falls this far below its threshold (at least 100 W)… */
  surplusHysteresisRatio: 0.1,
  surplusHysteresisMinW: 100,
  /** …or the state of charge this many points below its threshold. */
  socHysteresisPoints: 5,
} as const;

const ClockSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM');

export const RuleConditionsSchema = z
  .object({
    /** PV surplus (PV power less the plant's load, or PV power where the load is not measured) above W, held for minutes. */
    pvSurplus: z
      .object({
        aboveW: z.number().int().min(0).max(RULE_LIMITS.surplusMaxW),
        minutes: z.number().int().min(0).max(RULE_LIMITS.holdMinutesMax),
      })
      .optional(),
    /** Battery state of charge above this percentage. */
    socAbove: z.number().int().min(0).max(100).optional(),
    /** Between these local times of the plant (from > to spans midnight). */
    timeWindow: z.object({ from: ClockSchema, to: ClockSchema }).optional(),
  })
  .refine((c) => c.pvSurplus !== undefined || c.socAbove !== undefined || c.timeWindow !== undefined, {
    message: 'at least one condition',
  });
export type RuleConditions = z.infer<typeof RuleConditionsSchema>;

/** A device a rule acts on: a bulb (`deviceId` of the light list) or an AC switch (`deviceId` of the acSwitch list). */
export const RuleDeviceKindSchema = z.enum(['light', 'switch']);
export type RuleDeviceKind = z.infer<typeof RuleDeviceKindSchema>;
export const RuleActionSchema = z.object({
  kind: RuleDeviceKindSchema,
  deviceId: z.number().int().positive(),
  on: z.boolean(),
  /** Bulbs only: brightness 0–100 % when switched on (an AC switch is on or off: code 4 naming the field). */
  brightness: BrightnessSchema.optional(),
});
export type RuleAction = z.infer<typeof RuleActionSchema>;

export const SmartRuleInputSchema = z.object({
  plantId: z.number().int().positive(),
  name: z.string().trim().min(1).max(RULE_LIMITS.nameMax),
  enabled: z.boolean().default(true),
  conditions: RuleConditionsSchema,
  actions: z.array(RuleActionSchema).min(1).max(RULE_LIMITS.actionsMax),
  minIntervalMinutes: z.number().int().min(RULE_LIMITS.minIntervalMinutesMin).max(RULE_LIMITS.minIntervalMinutesMax).default(5),
  /**
   * The saver's password again, needed when the rule switches AC switches: it will then cut or restore circuits
   * for the saver without asking (708 wrong or missing, 135 once wrong too often). Never stored.
   */
  password: z.string().max(200).optional(),
});
export type SmartRuleInput = z.input<typeof SmartRuleInputSchema>;

export const SmartRuleSchema = z.object({
  id: z.number().int(),
  plantId: z.number().int(),
  plantName: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  conditions: RuleConditionsSchema,
  actions: z.array(RuleActionSchema),
  minIntervalMinutes: z.number().int(),
  /** Fired and holding (not released yet). */
  active: z.boolean(),
  lastFiredAt: z.string().nullable(),
});
export type SmartRule = z.infer<typeof SmartRuleSchema>;

export const RuleValuesSchema = z.object({
  pvSurplusW: z.number().nullable(),
  soc: z.number().nullable(),
  /** The plant's local time, HH:MM. */
  localTime: z.string(),
});
export type RuleValues = z.infer<typeof RuleValuesSchema>;

export const RuleActionResultSchema = z.object({
  kind: RuleDeviceKindSchema,
  deviceId: z.number().int(),
  ok: z.boolean(),
  /** Why it failed, in English as stored (e.g. the bridge's authorisation was cancelled)… */
  message: z.string().nullable(),
  /** …and its code, which the console shows in the reader's language (runs stored before codes were kept have none). */
  code: z.number().int().nullable().optional(),
});

export const SmartRuleRunSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  outcome: z.enum(['ok', 'partial', 'failed']),
  values: RuleValuesSchema,
  results: z.array(RuleActionResultSchema),
});
export type SmartRuleRun = z.infer<typeof SmartRuleRunSchema>;

/** The dry run: what the rule sees now and whether it would act (nothing is sent). */
export const RulePreviewSchema = z.object({
  values: RuleValuesSchema,
  conditions: z.object({ pvSurplus: z.boolean().nullable(), socAbove: z.boolean().nullable(), timeWindow: z.boolean().nullable() }),
  wouldFire: z.boolean(),
});
export type RulePreview = z.infer<typeof RulePreviewSchema>;

export const RuleEnableSchema = z.object({ enabled: z.boolean() });
export const RuleListQuerySchema = z.object({ plantId: z.coerce.number().int().positive().optional() });

/** smart/rule/plant: plants the caller may give rules, with their bulbs and rules counted. */
export const RulePlantSchema = z.object({
  plantId: z.number().int(),
  plantName: z.string(),
  lights: z.number().int(),
  rules: z.number().int(),
});
export type RulePlant = z.infer<typeof RulePlantSchema>;

/** smart/rule/plant/check: whether a rule can be made for the plant (bulbs or AC switches bound) and the name is free. */
export const RulePlantCheckQuerySchema = z.object({
  plantId: z.coerce.number().int().positive(),
  name: z.string().max(RULE_LIMITS.nameMax).optional(),
  ruleId: z.coerce.number().int().positive().optional(),
});
export const RulePlantCheckSchema = z.object({ lights: z.number().int(), switches: z.number().int(), nameFree: z.boolean() });
export type RulePlantCheck = z.infer<typeof RulePlantCheckSchema>;
