import type { EventLevel } from '@sunward/contracts/events';
import { isLanguage, type Language } from '@sunward/contracts/languages';
import { type AlarmData, MessageType } from '@sunward/contracts/notifications';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent, LiveHub } from '../../ingest/live-hub.js';
import { every } from '../../jobs/timers.js';
import { eventDefinition, eventText } from '../events/event-text.js';
import { alarmText, levelName, plantTime } from './alarm-texts.js';
import { createAlarmThrottle } from './alarm-throttle.js';
import type { AlarmDevice, MessagesRepository, NewMessage } from './messages.repository.js';

type EventChange = Extract<LiveEvent, { type: 'event' }>;

/** One alarm rendered for one recipient, handed to the e-mail side (which applies the user's settings). */
export interface AlarmForEmail {
  userId: number;
  plantId: number;
  level: EventLevel;
  title: string;
  content: string;
}

export interface AlarmNotifierSettings {
  /** One message per device and event code per this window (ALARM_THROTTLE_MINUTES); 0 turns it off. */
  throttleMs: number;
  /** Changes are collected this long before they are fanned out, so a burst is one batch of inserts. */
  collectMs: number;
  /** Events older than this when they arrive are recorded but notify nobody (default ALARM_MAX_AGE_MS). */
  maxAgeMs?: number;
}

/** A store-and-forward backlog or the demo's history brings past events: beyond 12 hours they notify nobody. */
export const ALARM_MAX_AGE_MS = 12 * 3600 * 1000;

const LEVELS: readonly string[] = ['fault', 'protect', 'warning'];
const asLevel = (level: string | null | undefined): EventLevel => (level && LEVELS.includes(level) ? (level as EventLevel) : 'warning');

/**
 * Equipment alarms to people: every event the ingest pipeline opens or clears becomes an in-app message
 * for each user who sees the plant, in that user's language, and an e-mail for those who asked. It
 * listens on the live hub and works off the ingest path: changes are queued, collected for a moment and
 * fanned out in one batch of inserts; a flapping device is throttled per device and code.
 */
export function createAlarmNotifier(deps: {
  repository: MessagesRepository;
  live: LiveHub;
  emails: { queue(alarms: readonly AlarmForEmail[]): Promise<void> };
  settings: AlarmNotifierSettings;
  log: FastifyBaseLogger;
  now?: () => number;
}) {
  const { repository, live, emails, settings, log } = deps;
  const now = deps.now ?? Date.now;
  const throttle = createAlarmThrottle<EventChange>(settings.throttleMs);
  const queue: EventChange[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopExpiry: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;
  // Device|code pairs whose current opening notified nobody: their clearing does not either.
  const quiet = new Set<string>();

  function schedule() {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(flush);
    }, settings.collectMs);
  }

  /**
   * What notifies (docs/decisions.md "Past events notify nobody"): every change is in the event history,
   * but an opening that was already cleared when it reached us, or an event change older than maxAgeMs,
   * makes no message or e-mail; nor does the clearing of an opening that stayed quiet.
   */
  async function worthTelling(changes: readonly EventChange[], at: number): Promise<EventChange[]> {
    const maxAgeMs = settings.maxAgeMs ?? ALARM_MAX_AGE_MS;
    const stale = (c: EventChange) => at - Date.parse(c.ts) > maxAgeMs;
    const openings = changes.filter((c) => c.change === 'opened' && !stale(c));
    const clearedNow = new Set<string>();
    // Cleared later in the same collection, or already cleared in the event history.
    changes.forEach((c, i) => {
      if (c.change !== 'cleared') return;
      for (const o of changes.slice(0, i))
        if (o.change === 'opened' && o.deviceId === c.deviceId && o.code === c.code)
          clearedNow.add(`${o.deviceId}|${o.code}|${Date.parse(o.ts)}`);
    });
    const alreadyCleared = await deps.repository
      .clearedOpenings(openings.map((o) => ({ deviceId: o.deviceId, code: o.code, at: o.ts })))
      .catch((error: unknown) => {
        log.error({ err: error }, 'alarm: cleared events not checked');
        return new Set<string>();
      });
    const told: EventChange[] = [];
    for (const c of changes) {
      const key = `${c.deviceId}|${c.code}`;
      if (c.change === 'opened') {
        // A device already in a flapping window keeps counting its changes (the "N more times" of the
        // message that ends the window), even those cleared at once.
        const cleared =
          !throttle.watching(key, at) && (clearedNow.has(`${key}|${Date.parse(c.ts)}`) || alreadyCleared.has(`${key}|${Date.parse(c.ts)}`));
        if (stale(c) || cleared) quiet.add(key);
        else {
          quiet.delete(key);
          told.push(c);
        }
      } else if (quiet.has(key)) quiet.delete(key);
      else if (!stale(c)) told.push(c);
    }
    return told;
  }

  async function flush(): Promise<void> {
    const at = now();
    const taken = await worthTelling(queue.splice(0), at);
    const out = throttle.expire(at);
    for (const change of taken) {
      const passed =
        settings.throttleMs > 0 ? throttle.offer(`${change.deviceId}|${change.code}`, change, at) : { item: change, suppressed: 0 };
      if (passed) out.push(passed);
    }
    if (out.length === 0) return;
    try {
      await deliver(out);
    } catch (error) {
      log.error({ err: error, alarms: out.length }, 'alarm fan-out failed');
    }
  }

  async function deliver(changes: readonly { item: EventChange; suppressed: number }[]): Promise<void> {
    const devices = new Map((await repository.devices([...new Set(changes.map((c) => c.item.deviceId))])).map((d) => [d.id, d]));
    const clears = changes.filter((c) => c.item.level === null).map((c) => ({ deviceId: c.item.deviceId, code: c.item.code }));
    const openedLevels = await repository.openedLevels(clears);
    const alarms = changes.flatMap(({ item, suppressed }) => {
      const device = devices.get(item.deviceId);
      // A device in no plant is seen by no plant's users.
      const plantId = item.plantId ?? device?.plantId ?? null;
      if (!device || plantId === null) return [];
      const level = asLevel(
        item.level ?? openedLevels.get(`${item.deviceId}|${item.code}`) ?? eventDefinition(device.protocolId, item.code)?.level,
      );
      const data: AlarmData = {
        plantId,
        plantName: device.plantName,
        deviceId: device.id,
        deviceSn: device.sn,
        family: device.family,
        code: item.code,
        level,
        change: item.change,
        at: item.ts,
        suppressed,
      };
      return [{ data, device }];
    });
    if (alarms.length === 0) return;
    const recipients = await repository.recipients([...new Set(alarms.map((a) => a.data.plantId ?? 0))]);
    const byPlant = new Map<number, { userId: number; language: Language }[]>();
    for (const r of recipients)
      byPlant.set(r.plantId, [
        ...(byPlant.get(r.plantId) ?? []),
        { userId: r.userId, language: isLanguage(r.language) ? r.language : 'en' },
      ]);

    const rows: NewMessage[] = [];
    const forEmail: AlarmForEmail[] = [];
    for (const alarm of alarms) {
      // Rendered once per language, whatever the number of recipients.
      const rendered = new Map<Language, { title: string; content: string }>();
      for (const r of byPlant.get(alarm.data.plantId ?? 0) ?? []) {
        let text = rendered.get(r.language);
        if (!text) {
          text = renderAlarm(alarm.data, alarm.device, r.language, settings.throttleMs);
          rendered.set(r.language, text);
        }
        rows.push({ userId: r.userId, type: MessageType.ALARM, title: text.title, content: text.content, data: alarm.data });
        forEmail.push({ userId: r.userId, plantId: alarm.data.plantId ?? 0, level: alarm.data.level, ...text });
      }
    }
    if (rows.length === 0) return;
    await repository.insertMany(rows);
    const counts = await repository.unreadCounts([...new Set(rows.map((r) => r.userId))]);
    for (const [userId, unread] of counts) live.publish({ type: 'message', userId, plantId: null, unread });
    await emails.queue(forEmail);
  }

  return {
    start() {
      unsubscribe = live.subscribe((event) => {
        if (event.type !== 'event') return;
        queue.push(event);
        schedule();
      });
      // Held changes go out when their window ends, even if the device says nothing more.
      if (settings.throttleMs > 0) {
        stopExpiry = every(Math.min(settings.throttleMs, 5000), () => {
          running = running.then(flush);
        });
      }
    },

    /** Resolves once every change received so far is fanned out (tests, shutdown). */
    async idle(): Promise<void> {
      if (timer) {
        clearTimeout(timer);
        timer = undefined;
        running = running.then(flush);
      }
      await running;
    },

    async close(): Promise<void> {
      unsubscribe?.();
      stopExpiry?.();
      await this.idle();
    },
  };
}

export type AlarmNotifier = ReturnType<typeof createAlarmNotifier>;

/** Title and content of one alarm in one language: the level, the map's description and solution, where and when. */
export function renderAlarm(
  data: AlarmData,
  device: AlarmDevice,
  language: Language,
  throttleMs: number,
): { title: string; content: string } {
  const text = eventText(device.protocolId, data.code, language);
  const event = text.description ?? alarmText(language, 'unknownEvent', { code: data.code });
  const deviceName = device.alias ?? device.sn;
  const params = {
    level: levelName(language, data.level),
    event,
    device: deviceName,
    sn: device.sn,
    plant: data.plantName ?? '',
    code: data.code,
    time: plantTime(new Date(data.at), device.timezone ?? 'UTC'),
  };
  const opened = data.change === 'opened';
  const lines = [alarmText(language, opened ? 'openedContent' : 'clearedContent', params)];
  if (opened && text.solution) lines.push(alarmText(language, 'solution', { solution: text.solution }));
  if (data.suppressed > 0)
    lines.push(alarmText(language, 'suppressed', { count: data.suppressed, minutes: Math.max(1, Math.round(throttleMs / 60_000)) }));
  return { title: alarmText(language, opened ? 'openedTitle' : 'clearedTitle', params), content: lines.join('\n') };
}
