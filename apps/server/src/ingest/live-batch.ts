import { type LiveEvent, LiveEventSchema } from '@sunward/contracts/live-events';

/**
 * The live bus's wire work, pure: events waiting for the next NOTIFY are coalesced (a newer state of the same
 * device, plant, upgrade or unread count replaces the older one; opened and cleared device events never are),
 * then packed into payloads under PostgreSQL's NOTIFY limit.
 */

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; the margin covers the envelope's own bytes. */
export const NOTIFY_PAYLOAD_MAX_BYTES = 7900;

/** The key under which a newer event replaces an older one still waiting; undefined: every one is sent. */
export function coalesceKey(event: LiveEvent): string | undefined {
  switch (event.type) {
    case 'device':
      return `d${event.deviceId}`;
    case 'plant':
      return `p${event.plantId}`;
    case 'upgrade':
      return `u${event.deviceId}`;
    case 'message':
      return `m${event.userId}`;
    case 'event':
      return undefined;
  }
}

/** Events waiting for the next send, in publishing order, the newest state per key in its first place. */
export function createCoalescingQueue(limit: number) {
  let events: LiveEvent[] = [];
  let at = new Map<string, number>();
  let dropped = 0;
  return {
    push(event: LiveEvent) {
      const key = coalesceKey(event);
      const index = key === undefined ? undefined : at.get(key);
      if (index !== undefined) {
        events[index] = event;
        return;
      }
      // Beyond the limit (the database unreachable for long) the oldest waiting are lost: push is best effort.
      if (events.length >= limit) {
        dropped++;
        return;
      }
      if (key !== undefined) at.set(key, events.length);
      events.push(event);
    },
    /** Everything waiting, emptying the queue. */
    take(): LiveEvent[] {
      const taken = events;
      events = [];
      at = new Map();
      return taken;
    },
    /** Events refused since the last call because the queue was full. */
    takeDropped(): number {
      const n = dropped;
      dropped = 0;
      return n;
    },
    get length() {
      return events.length;
    },
  };
}

/** One NOTIFY payload: the publishing process and its events, `{"o":"…","e":[…]}`. */
interface Envelope {
  o: string;
  e: unknown[];
}

/**
 * Packs events into as few payloads as fit under `maxBytes` (UTF-8) each, in order. An event that alone does
 * not fit is left out and counted in `oversized` (none of today's shapes comes near: the largest is ~250 bytes).
 */
export function packPayloads(origin: string, events: readonly LiveEvent[], maxBytes = NOTIFY_PAYLOAD_MAX_BYTES) {
  const head = `{"o":${JSON.stringify(origin)},"e":[`;
  const overhead = Buffer.byteLength(head) + 2;
  const payloads: string[] = [];
  let oversized = 0;
  let parts: string[] = [];
  let size = overhead;
  const close = () => {
    if (parts.length > 0) payloads.push(`${head}${parts.join(',')}]}`);
    parts = [];
    size = overhead;
  };
  for (const event of events) {
    const json = JSON.stringify(event);
    const bytes = Buffer.byteLength(json);
    if (overhead + bytes > maxBytes) {
      oversized++;
      continue;
    }
    // +1 for the comma before every event but the first.
    if (size + bytes + (parts.length > 0 ? 1 : 0) > maxBytes) close();
    size += bytes + (parts.length > 0 ? 1 : 0);
    parts.push(json);
  }
  close();
  return { payloads, oversized };
}

/** A payload read back: its origin and the events that are valid live events (others are skipped). */
export function unpackPayload(payload: string): { origin: string; events: LiveEvent[] } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { o, e } = parsed as Partial<Envelope>;
  if (typeof o !== 'string' || !Array.isArray(e)) return undefined;
  const events: LiveEvent[] = [];
  for (const item of e) {
    const event = LiveEventSchema.safeParse(item);
    if (event.success) events.push(event.data);
  }
  return { origin: o, events };
}
