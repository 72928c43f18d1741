import { z } from 'zod';
import { EventRowSchema } from './events.js';
import { EnergyFlowSchema, PlantStatusCountSchema } from './plants.js';

/**
 * The large-screen display (issue 20, spec 02 §2, the `fullscreen` family of spec 01 §187): fleet figures for a
 * wall screen, opened signed in or through a display link (a revocable, read-only credential with an expiry).
 */
export const DISPLAY_LINK_SCOPES = ['company', 'plants'] as const;
export type DisplayLinkScope = (typeof DISPLAY_LINK_SCOPES)[number];

export const DISPLAY_LINK_STATES = ['active', 'expired', 'revoked'] as const;
export type DisplayLinkState = (typeof DISPLAY_LINK_STATES)[number];

/** The display's three styles (spec 02 §2) and how a display link's page is addressed. */
export const DISPLAY_STYLES = ['single', 'screens', 'pages'] as const;
export type DisplayStyle = (typeof DISPLAY_STYLES)[number];

export const DISPLAY_LIMITS = {
  nameMax: 60,
  plantsMax: 50,
  expiresDaysMin: 1,
  expiresDaysMax: 365,
  linksPerUserMax: 50,
  /** Plants in each of the top and bottom lists by specific yield. */
  rankSize: 5,
  alarmRows: 12,
  /** Parts of the "multiple screens" style: ?screen=1..3. */
  screens: 3,
  rotateSecondsMin: 5,
  rotateSecondsMax: 600,
  rotateSecondsDefault: 20,
} as const;

/** The header a display link's page sends its token in (never in a URL the server logs). */
export const DISPLAY_TOKEN_HEADER = 'x-display-token';

export const DisplayLinkCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(DISPLAY_LIMITS.nameMax),
    scope: z.enum(DISPLAY_LINK_SCOPES),
    plantIds: z.array(z.number().int().positive()).max(DISPLAY_LIMITS.plantsMax).default([]),
    /** A company display for another company than the caller's: platform administrators only (700 otherwise). */
    companyId: z.number().int().positive().optional(),
    expiresInDays: z.number().int().min(DISPLAY_LIMITS.expiresDaysMin).max(DISPLAY_LIMITS.expiresDaysMax),
  })
  .superRefine((v, ctx) => {
    if (v.scope === 'plants' && v.plantIds.length === 0)
      ctx.addIssue({ code: 'custom', path: ['plantIds'], message: 'validation.required' });
  });
export type DisplayLinkCreate = z.infer<typeof DisplayLinkCreateSchema>;

export const DisplayLinkRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  scope: z.enum(DISPLAY_LINK_SCOPES),
  companyId: z.number().nullable(),
  /** The company a company display shows. */
  companyName: z.string().nullable(),
  plantIds: z.array(z.number()),
  /** Names of the chosen plants the creator still sees, for the list. */
  plantNames: z.array(z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  state: z.enum(DISPLAY_LINK_STATES),
});
export type DisplayLinkRow = z.infer<typeof DisplayLinkRowSchema>;

/** A company a platform administrator may make a company display for (the picker's options). */
export const DisplayCompanySchema = z.object({ id: z.number(), name: z.string() });
export type DisplayCompany = z.infer<typeof DisplayCompanySchema>;

/** The answer to a creation: the token is shown this once; the server keeps only its hash. */
export const DisplayLinkCreatedSchema = z.object({ link: DisplayLinkRowSchema, token: z.string() });
export type DisplayLinkCreated = z.infer<typeof DisplayLinkCreatedSchema>;

export const DisplayDataQuerySchema = z.object({
  /** The plant whose energy flow is shown; by default the one generating most now. */
  flowPlantId: z.coerce.number().int().positive().optional(),
});
export type DisplayDataQuery = z.infer<typeof DisplayDataQuerySchema>;

export const DisplayKpiSchema = z.object({
  plantCount: z.number(),
  capacityKwp: z.number(),
  /** Sum of the plant list's power now (W). */
  powerW: z.number(),
  /** Sums of the plant list's energy today and lifetime (Wh). */
  energyTodayWh: z.number(),
  /** Sums of each plant overview's month and year energy (Wh). */
  energyMonthWh: z.number(),
  energyYearWh: z.number(),
  energyTotalWh: z.number(),
  /** CO₂ avoided over the lifetime energy, by the overview's benefit factors. */
  co2Kg: z.number(),
  trees: z.number(),
});
export type DisplayKpi = z.infer<typeof DisplayKpiSchema>;

export const DisplayPlantSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.number(),
  latitude: z.number(),
  longitude: z.number(),
  capacityKwp: z.number(),
  powerW: z.number().nullable(),
  energyTodayWh: z.number().nullable(),
  /** kWh per kWp today, as the plant list shows it. */
  specificYield: z.number().nullable(),
});
export type DisplayPlant = z.infer<typeof DisplayPlantSchema>;

export const DisplayDataSchema = z.object({
  generatedAt: z.string(),
  /** The link's name, or null signed in. */
  title: z.string().nullable(),
  kpi: DisplayKpiSchema,
  statusCounts: PlantStatusCountSchema,
  plants: z.array(DisplayPlantSchema),
  top: z.array(DisplayPlantSchema),
  bottom: z.array(DisplayPlantSchema),
  alarms: z.object({ total: z.number(), infos: z.array(EventRowSchema) }),
  flow: z.object({ plantId: z.number(), plantName: z.string(), flow: EnergyFlowSchema }).nullable(),
});
export type DisplayData = z.infer<typeof DisplayDataSchema>;
