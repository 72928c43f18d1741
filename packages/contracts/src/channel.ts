import { z } from 'zod';

/*
 * The channel hierarchy (issue 24, beyond the spec): maker → distributors/agents → installers → owners
 * as a tree of companies. Each level sees and operates its subtree's plants; a company with children
 * gets the channel dashboard (the tree with counts per subtree).
 */

export const CHANNEL_KINDS = ['maker', 'distributor', 'installer', 'owner'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** A child's kind must come after its parent's in CHANNEL_KINDS (an owner has no children). */
export function childKindsOf(parent: string): ChannelKind[] {
  const at = CHANNEL_KINDS.indexOf(parent as ChannelKind);
  return at < 0 ? [] : CHANNEL_KINDS.slice(at + 1);
}

export const CHANNEL_LIMITS = { nameMax: 64, nicknameMax: 32 } as const;

/** A parent's administrator creates a child company with its first administrator account. */
export const ChannelChildAddSchema = z.object({
  name: z.string().trim().min(1).max(CHANNEL_LIMITS.nameMax),
  kind: z.enum(CHANNEL_KINDS),
  adminAccount: z.string().trim().min(1).max(64),
  adminPassword: z.string().min(1).max(64),
  adminNickname: z.string().trim().min(1).max(CHANNEL_LIMITS.nicknameMax),
});
export type ChannelChildAdd = z.infer<typeof ChannelChildAddSchema>;

/** The caller's company's own channel settings. */
export const ChannelSettingsSchema = z.object({
  /** Children may use their own logo and colour instead of inheriting this company's. */
  childBranding: z.boolean(),
  /** This company's users are told about alarms in every plant of its subtree. */
  notifySubtree: z.boolean(),
});
export type ChannelSettings = z.infer<typeof ChannelSettingsSchema>;

/** Counts over a set of plants; each equals the sum of the plant list over the same plants. */
export const ChannelCountsSchema = z.object({
  plants: z.number(),
  devices: z.number(),
  /** Plants not offline. */
  online: z.number(),
  /** Events of their devices not yet cleared. */
  openAlarms: z.number(),
  powerW: z.number(),
  energyTodayWh: z.number(),
});
export type ChannelCounts = z.infer<typeof ChannelCountsSchema>;

export const ChannelNodeSchema = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.string(),
  parentId: z.number().nullable(),
  /** 0 for the caller's company. */
  depth: z.number(),
  childBranding: z.boolean(),
  notifySubtree: z.boolean(),
  /** The company's own plants. */
  own: ChannelCountsSchema,
  /** The company's plants and those of every company below it. */
  subtree: ChannelCountsSchema,
});
export type ChannelNode = z.infer<typeof ChannelNodeSchema>;

/** The caller's company and everything below it, parents before children. */
export const ChannelTreeSchema = z.object({
  nodes: z.array(ChannelNodeSchema),
  /** Kinds the caller's company may create below itself. */
  childKinds: z.array(z.enum(CHANNEL_KINDS)),
});
export type ChannelTree = z.infer<typeof ChannelTreeSchema>;
