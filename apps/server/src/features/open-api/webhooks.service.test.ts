import type { LiveEvent } from '@sunward/contracts/live-events';
import type { WebhookEvent } from '@sunward/contracts/open-api';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OpenApiRepository } from './open-api.repository.js';
import { createWebhooksService } from './webhooks.service.js';

/** The service with an in-memory repository: one company (7) owning plant 1, one webhook taking `events`. */
function setUp(events: WebhookEvent[]) {
  const queued: { eventType: WebhookEvent; payload: unknown }[] = [];
  let listener: ((event: LiveEvent) => void) | undefined;
  const repository = {
    webhooksFor: async () => [{ id: 1, companyId: 7, url: 'http://127.0.0.1:1/', secret: 's', events, createdAt: new Date() }],
    enqueue: async (rows: { eventType: WebhookEvent; payload: unknown }[]) => {
      queued.push(...rows);
    },
    plantCompanies: async (ids: readonly number[]) => new Map(ids.filter((id) => id === 1).map((id) => [id, 7] as const)),
    deviceSns: async (ids: readonly number[]) => new Map(ids.map((id) => [id, `SN${id}`] as const)),
    commandsFinishedSince: async () => [],
    due: async () => [],
  } as unknown as OpenApiRepository;
  const log = { warn: vi.fn() } as unknown as FastifyBaseLogger;
  const service = createWebhooksService({
    repository,
    live: {
      subscribe: (l) => {
        listener = l;
        return () => undefined;
      },
    },
    settings: { pollMs: 60_000, backoffUnitMs: 1000, timeoutMs: 1000, allowPrivate: false },
    log,
  });
  service.start();
  const device = (deviceId: number, status: number, plantId: number | null = 1): LiveEvent => ({
    type: 'device',
    deviceId,
    plantId,
    status,
    powerW: 100,
    soc: null,
    ts: '2026-06-21T10:00:00.000Z',
  });
  const send = async (event: LiveEvent) => {
    listener?.(event);
    await service.close();
    service.start();
  };
  return { queued, send, device, service };
}

let running: ReturnType<typeof setUp>['service'] | undefined;
afterEach(async () => {
  await running?.close();
});

describe('webhook events from the live hub', () => {
  it('are offline when a device becomes Offline (or is first seen Offline) and online when it leaves Offline', async () => {
    const { queued, send, device, service } = setUp(['device.offline', 'device.online']);
    running = service;
    await send(device(10, 1));
    expect(queued).toEqual([]);
    await send(device(10, 2));
    await send(device(10, 2));
    await send(device(10, 1));
    await send(device(11, 2));
    expect(queued.map((q) => q.eventType)).toEqual(['device.offline', 'device.online', 'device.offline']);
    expect(queued[0]?.payload).toMatchObject({
      type: 'device.offline',
      companyId: 7,
      data: { plantId: 1, deviceId: 10, sn: 'SN10', status: 2 },
    });
  });

  it('are raised and cleared for events, only for company plants and subscribed webhooks', async () => {
    const { queued, send, service } = setUp(['event.raised']);
    running = service;
    const event = (change: 'opened' | 'cleared', plantId: number | null): LiveEvent => ({
      type: 'event',
      change,
      deviceId: 3,
      plantId,
      code: 1001,
      level: 'fault',
      ts: '2026-06-21T10:00:00.000Z',
    });
    await send(event('opened', 1));
    await send(event('cleared', 1));
    await send(event('opened', null));
    await send(event('opened', 2));
    expect(queued.map((q) => q.eventType)).toEqual(['event.raised']);
    expect(queued[0]?.payload).toMatchObject({ data: { code: 1001, level: 'fault', sn: 'SN3' } });
  });
});
