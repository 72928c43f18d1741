import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { protocolById } from '@sunward/protocol/maps/index';
import type { Random } from './physics/random.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * Days of the history a gateway sends before it reports live; the older days follow as a late backfill
 * (they change no event, so the incidents lie in this part).
 */
export const RECENT_DAYS = 7;

/** A fault or warning the history raises on a device, through its map's event bits, and clears again. */
export interface HistoryIncident {
  deviceSn: string;
  point: string;
  bit: number;
  level: string;
  from: number;
  to: number;
}

/**
 * What a gateway's past looks like: readings from `start` every `intervalMs` until `end` (the moment the
 * simulator started), the incidents on the way, a device whose counters were replaced, and a stretch of
 * readings its store-and-forward buffer sends late (after the readings that followed it). The part from
 * `recentFrom` goes first, then the gateway reports live, then the older part follows.
 */
export interface HistoryPlan {
  start: number;
  /** The last week (or less): sent first, in time order, with the incidents and the late batch; then live. */
  recentFrom: number;
  end: number;
  intervalMs: number;
  incidents: HistoryIncident[];
  counterReplacement: { deviceSn: string; at: number } | undefined;
  lateBatch: { from: number; to: number; sendAfter: number } | undefined;
}

const PV_FAMILIES = new Set(['inverter', 'hybrid_inverter', 'micro_inverter']);

function incident(gateway: SimulatedGateway, level: string, from: number, hours: number, random: Random): HistoryIncident | undefined {
  const candidates = gateway.devices.flatMap((device) => {
    // Faults go on the PV inverters (their production stops); warnings on any device that has them.
    if (level === 'fault' && !PV_FAMILIES.has(device.family)) return [];
    const protocol = protocolById(device.protocolId);
    return (protocol?.events ?? []).filter((e) => e.level === level).map((e) => ({ device, e }));
  });
  if (candidates.length === 0) return undefined;
  const { device, e } = random.pick(candidates);
  return { deviceSn: device.sn, point: e.point, bit: e.bit, level, from, to: from + hours * HOUR };
}

/**
 * The history of the `index`-th gateway of the fleet over `days` days before `end`, a reading every
 * `gateway.intervalSeconds`: the interval it reports live at, so the past looks like what it would have
 * sent (docs/decisions.md "Demo history"). Deterministic for a seed. The first gateway gets a fault (and, over a week or more, a counter replacement on an inverter);
 * the second a warning and a late store-and-forward batch; the others now and then a fault or warning.
 */
export function planHistory(gateway: SimulatedGateway, index: number, options: { days: number; end: number; random: Random }): HistoryPlan {
  const { random } = options;
  const intervalMs = gateway.intervalSeconds * 1000;
  const start = Math.ceil((options.end - options.days * DAY) / intervalMs) * intervalMs;
  const span = options.end - start;
  const recentFrom = Math.max(start, Math.ceil((options.end - RECENT_DAYS * DAY) / intervalMs) * intervalMs);
  const recentSpan = options.end - recentFrom;
  // Somewhere in the second half of the recent part, on the hour.
  const later = () => Math.floor((recentFrom + recentSpan * (0.5 + 0.4 * random.next())) / HOUR) * HOUR;
  const incidents: HistoryIncident[] = [];
  const levels =
    index === 0 ? ['fault'] : index === 1 ? ['warning'] : random.next() < 0.5 ? [random.pick(['fault', 'warning', 'protect'])] : [];
  for (const level of levels) {
    const found = incident(gateway, level, later(), random.int(1, 4), random);
    if (found && found.to < options.end) incidents.push(found);
  }
  const inverter = gateway.devices.find((d) => d.family === 'inverter');
  const counterReplacement =
    index === 0 && inverter && options.days >= 7
      ? { deviceSn: inverter.sn, at: start + Math.floor((span * 2) / 3 / HOUR) * HOUR }
      : undefined;
  // Four hours in the first half of the recent part reach the server half a day late.
  const lateFrom = Math.floor((recentFrom + recentSpan * 0.3) / HOUR) * HOUR;
  const lateBatch =
    index === 1 && options.days >= 2 ? { from: lateFrom, to: lateFrom + 4 * HOUR, sendAfter: lateFrom + 16 * HOUR } : undefined;
  return { start, recentFrom, end: options.end, intervalMs, incidents, counterReplacement, lateBatch };
}

/** The incident under way on a device at `t`, if any. */
export function activeIncident(plan: HistoryPlan, deviceSn: string, t: number): HistoryIncident | undefined {
  return plan.incidents.find((i) => i.deviceSn === deviceSn && t >= i.from && t < i.to);
}

/** Days (whole or not) the plan covers. */
export function planDays(plan: HistoryPlan): number {
  return (plan.end - plan.start) / DAY;
}
