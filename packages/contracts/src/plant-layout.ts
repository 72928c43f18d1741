import { z } from 'zod';
import { LIMITS } from './limits.js';

/**
 * A plant's layout (spec 01 §2, spec 02 §2/§4/§5; docs/decisions.md "Plant layout"). The physical view is
 * what the editor saves: panel groups (a roof face with its inclination, azimuth and panels' rated power,
 * wired as one string of an inverter) and panels placed on a grid, each bound to at most one optimizer.
 * The logical view (root → inverters → strings → optimizers → panels) is derived from it and the devices.
 */

/** Canvas units per grid step; positions snap to it. A portrait panel is 2 × 4 steps. */
export const LAYOUT_GRID = 20;
export const PANEL_SHORT = 2 * LAYOUT_GRID;
export const PANEL_LONG = 4 * LAYOUT_GRID;
export const LAYOUT_CANVAS = { width: 2000, height: 1200 } as const;
export const LAYOUT_GROUPS_MAX = 20;

const Id = z.string().regex(/^[\w-]{1,40}$/);

export const LayoutPanelSchema = z.object({
  id: Id,
  groupId: Id,
  x: z.number().int().min(0).max(LAYOUT_CANVAS.width),
  y: z.number().int().min(0).max(LAYOUT_CANVAS.height),
  /** 0 portrait, 90 landscape. */
  rotation: z.union([z.literal(0), z.literal(90)]),
  /** The optimizer under this panel (an optimizer of the plant, once in the layout). */
  optimizerSn: z.string().min(1).max(64).nullable(),
});

export const LayoutGroupSchema = z.object({
  id: Id,
  name: z.string().trim().min(1).max(40),
  inclinationDeg: z.number().min(0).max(90),
  azimuthDeg: z.number().min(0).max(359),
  /** Each panel's rated power (STC). */
  panelRatedPowerW: z.number().positive().max(2000),
  /** The inverter this group's string is wired to, and which string (MPP input) of it. */
  inverterSn: z.string().min(1).max(64).nullable(),
  stringNo: z.number().int().min(1).max(32).nullable(),
});

export const PhysicalLayoutSchema = z.object({
  /** 0 before the first save; each save adds one. */
  version: z.number().int().min(0),
  updatedAt: z.string().nullable(),
  groups: z.array(LayoutGroupSchema),
  panels: z.array(LayoutPanelSchema),
});

/**
 * A save: the version the editor loaded (a save over a newer one is refused, 4300) and the whole layout.
 * The panel count is checked by the server against LIMITS.panelsMax (4301) after the schema, so the
 * refusal names the rule rather than a schema error.
 */
export const SaveLayoutBodySchema = z.object({
  version: z.number().int().min(0),
  groups: z.array(LayoutGroupSchema).max(LAYOUT_GROUPS_MAX),
  panels: z.array(LayoutPanelSchema).max(1000),
});

export const LAYOUT_PANELS_MAX = LIMITS.panelsMax;

/** A device the editor may bind or wire: optimizers to panels, inverters to groups. */
export const LayoutDeviceSchema = z.object({
  sn: z.string(),
  family: z.string(),
  name: z.string(),
  ratedPowerW: z.number().nullable(),
  powerW: z.number().nullable(),
  /** PV inputs of an inverter (1 for other devices). */
  strings: z.number().int(),
});

export const LayoutEditorDataSchema = z.object({
  layout: PhysicalLayoutSchema,
  devices: z.array(LayoutDeviceSchema),
  canEdit: z.boolean(),
});

export const LOGICAL_PERIODS = ['power', 'day', 'month', 'year', 'total'] as const;
export type LogicalPeriod = (typeof LOGICAL_PERIODS)[number];
export const LogicalPeriodSchema = z.enum(LOGICAL_PERIODS);

/** `other`: what an inverter measured beyond its strings in the layout (inputs without optimizers), so children add up. */
export const LOGICAL_KINDS = ['root', 'inverter', 'tandem', 'optimizer', 'panel', 'unassigned', 'other'] as const;

/** Spec 01 §2 node data: power, unit W or kWh, efficiency, sn, item name, leaf flag, active flag. */
export interface LogicalNode {
  key: string;
  kind: (typeof LOGICAL_KINDS)[number];
  name: string;
  sn: string | null;
  /** W for the period `power`, kWh otherwise. */
  value: number | null;
  unit: 'W' | 'kWh';
  ratedPowerW: number | null;
  /** value against rated power (power), or against rated power × sun hours of the period (energy); %. */
  efficiencyPct: number | null;
  leaf: boolean;
  /** The device reports (not offline); panels follow their optimizer. */
  active: boolean;
  children: LogicalNode[];
}

export const LogicalNodeSchema: z.ZodType<LogicalNode> = z.lazy(() =>
  z.object({
    key: z.string(),
    kind: z.enum(LOGICAL_KINDS),
    name: z.string(),
    sn: z.string().nullable(),
    value: z.number().nullable(),
    unit: z.enum(['W', 'kWh']),
    ratedPowerW: z.number().nullable(),
    efficiencyPct: z.number().nullable(),
    leaf: z.boolean(),
    active: z.boolean(),
    children: z.array(LogicalNodeSchema),
  }),
);

export const LogicalLayoutSchema = z.object({
  period: LogicalPeriodSchema,
  /** The plant-local day, month or year the energies cover (null for power and total). */
  date: z.string().nullable(),
  root: LogicalNodeSchema,
});

/** The live physical view: each optimizer's power now, and its curve over a day for the time slider. */
export const LayoutLiveSchema = z.object({
  date: z.string(),
  timezone: z.string(),
  ts: z.string().nullable(),
  /** Optimizer SN → W now (null when it never reported). */
  power: z.record(z.string(), z.number().nullable()),
  /** The day's 15-minute steps (epoch ms) and each optimizer's mean power in them. */
  times: z.array(z.number()),
  series: z.record(z.string(), z.array(z.number().nullable())),
});

/** A public read-only link to the layout (/plantLayout?token=…): shown once, revocable. */
export const LayoutLinkSchema = z.object({
  active: z.boolean(),
  createdAt: z.string().nullable(),
  /** Only in the answer that creates it. */
  token: z.string().optional(),
});

export const PublicLayoutSchema = z.object({
  plantName: z.string(),
  timezone: z.string(),
  layout: PhysicalLayoutSchema,
  live: LayoutLiveSchema,
  logical: LogicalLayoutSchema,
});

export type LayoutPanel = z.infer<typeof LayoutPanelSchema>;
export type LayoutGroup = z.infer<typeof LayoutGroupSchema>;
export type PhysicalLayout = z.infer<typeof PhysicalLayoutSchema>;
export type SaveLayoutBody = z.infer<typeof SaveLayoutBodySchema>;
export type LayoutDevice = z.infer<typeof LayoutDeviceSchema>;
export type LayoutEditorData = z.infer<typeof LayoutEditorDataSchema>;
export type LogicalLayout = z.infer<typeof LogicalLayoutSchema>;
export type LayoutLive = z.infer<typeof LayoutLiveSchema>;
export type LayoutLink = z.infer<typeof LayoutLinkSchema>;
export type PublicLayout = z.infer<typeof PublicLayoutSchema>;

/** The 10 % efficiency band (0–9, 10 = above 100 %) a node or panel is coloured by. */
export function efficiencyBand(pct: number | null): number | null {
  if (pct === null || !Number.isFinite(pct)) return null;
  if (pct > 100) return 10;
  return Math.min(9, Math.max(0, Math.floor(pct / 10)));
}

/**
 * Spec 02 §5: a group holding undeletable panels cannot be deleted. A panel is undeletable while it is
 * bound to an optimizer that has reported (its readings belong to that place on the roof): unbind it and
 * save first. Returns the saved groups a save would delete that still hold such panels.
 */
export function lockedGroupsRemoved(
  before: Pick<PhysicalLayout, 'panels' | 'groups'>,
  after: Pick<SaveLayoutBody, 'groups'>,
  reported: ReadonlySet<string>,
): string[] {
  const kept = new Set(after.groups.map((g) => g.id));
  const locked = before.panels.filter((p) => p.optimizerSn !== null && reported.has(p.optimizerSn));
  return [...new Set(locked.filter((p) => !kept.has(p.groupId)).map((p) => p.groupId))];
}
