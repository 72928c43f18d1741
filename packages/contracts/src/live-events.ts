import { z } from 'zod';

/**
 * What GET /api/v1/live pushes (Server-Sent Events, `event: <type>`, `data: <JSON>`): the server publishes
 * these, the console parses each message with {@link parseLiveEvent} before it acts on it.
 */
export const LiveEventSchema = z.discriminatedUnion('type', [
  /** A device's status, power or state of charge changed (after its report is stored). */
  z.object({
    type: z.literal('device'),
    deviceId: z.number(),
    plantId: z.number().nullable(),
    status: z.number(),
    powerW: z.number().nullable(),
    soc: z.number().nullable(),
    ts: z.string(),
  }),
  /** A plant's status changed. */
  z.object({ type: z.literal('plant'), plantId: z.number(), status: z.number() }),
  /** An upgrade's progress on one device. */
  z.object({
    type: z.literal('upgrade'),
    deviceId: z.number(),
    plantId: z.number().nullable(),
    sn: z.string(),
    progress: z.number(),
    status: z.string(),
  }),
  /** A device event opened or cleared (after it is stored); the alarm notifier fans it out to people. */
  z.object({
    type: z.literal('event'),
    change: z.enum(['opened', 'cleared']),
    deviceId: z.number(),
    plantId: z.number().nullable(),
    code: z.number(),
    level: z.string().nullable(),
    ts: z.string(),
  }),
  /** The caller's unread message count changed; only that user's connections receive it. */
  z.object({ type: z.literal('message'), userId: z.number(), plantId: z.null(), unread: z.number() }),
]);
export type LiveEvent = z.infer<typeof LiveEventSchema>;
export type LiveEventType = LiveEvent['type'];

/** One pushed message's data, parsed; undefined when it is not JSON or not a known event (it is skipped). */
export function parseLiveEvent(data: string): LiveEvent | undefined {
  try {
    const parsed = LiveEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
