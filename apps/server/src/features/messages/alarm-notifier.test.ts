import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLiveHub } from '../../ingest/live-hub.js';
import { createAlarmNotifier } from './alarm-notifier.service.js';
import type { MessagesRepository, NewMessage } from './messages.repository.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const HOUR = 3600_000;
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

/** A notifier over an in-memory repository: one plant, one device, one recipient; `cleared` is the event history's cleared openings. */
function setup(cleared: Set<string> = new Set()) {
  const live = createLiveHub();
  const inserted: NewMessage[] = [];
  const repository = {
    devices: async (ids: readonly number[]) =>
      ids.map((id) => ({
        id,
        sn: `SN${id}`,
        alias: null,
        family: 'inverter',
        protocolId: 'sunspec-inverter-3p',
        plantId: 1,
        plantName: 'Plant',
        timezone: 'UTC',
      })),
    openedLevels: async () => new Map<string, string>(),
    recipients: async () => [{ userId: 7, language: 'en', plantId: 1 }],
    insertMany: async (rows: readonly NewMessage[]) => {
      inserted.push(...rows);
    },
    unreadCounts: async () => new Map([[7, inserted.length]]),
    clearedOpenings: async (openings: readonly { deviceId: number; code: number; at: string }[]) =>
      new Set(openings.map((o) => `${o.deviceId}|${o.code}|${Date.parse(o.at)}`).filter((key) => cleared.has(key))),
  } as unknown as MessagesRepository;
  const log = { error: () => undefined } as unknown as FastifyBaseLogger;
  const notifier = createAlarmNotifier({
    repository,
    live,
    emails: { queue: async () => undefined },
    settings: { throttleMs: 0, collectMs: 5 },
    log,
    now: () => NOW,
  });
  notifier.start();
  const event = (change: 'opened' | 'cleared', deviceId: number, code: number, ts: string) =>
    live.publish({ type: 'event', change, deviceId, plantId: 1, code, level: change === 'opened' ? 'fault' : null, ts });
  const told = () => inserted.map((m) => `${(m.data as { deviceId: number }).deviceId}:${(m.data as { change: string }).change}`);
  return { notifier, event, told };
}

describe('alarm notifier: past events notify nobody', () => {
  it('tells a recent opening and its clearing', async () => {
    const { notifier, event, told } = setup();
    event('opened', 1, 10, at(60_000));
    await notifier.idle();
    event('cleared', 1, 10, at(1_000));
    await notifier.close();
    expect(told()).toEqual(['1:opened', '1:cleared']);
  });

  it('says nothing of an event opened and cleared before it arrived (same collection)', async () => {
    const { notifier, event, told } = setup();
    event('opened', 1, 10, at(2 * HOUR));
    event('cleared', 1, 10, at(HOUR));
    event('opened', 2, 11, at(HOUR));
    await notifier.close();
    expect(told()).toEqual(['2:opened']);
  });

  it('says nothing of an opening the event history already shows cleared, nor of its clearing later', async () => {
    const { notifier, event, told } = setup(new Set([`1|10|${NOW - 3 * HOUR}`]));
    event('opened', 1, 10, at(3 * HOUR));
    await notifier.idle();
    event('cleared', 1, 10, at(2 * HOUR));
    await notifier.close();
    expect(told()).toEqual([]);
  });

  it('says nothing of changes older than 12 hours (a backlog, the demo history)', async () => {
    const { notifier, event, told } = setup();
    event('opened', 1, 10, at(13 * HOUR));
    event('cleared', 2, 12, at(20 * HOUR));
    event('opened', 3, 13, at(11 * HOUR));
    await notifier.close();
    expect(told()).toEqual(['3:opened']);
  });
});
