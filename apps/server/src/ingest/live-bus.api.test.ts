import type { LiveEvent } from '@sunward/contracts/live-events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../db/scratch-database.js';
import { createRateLimitRepository } from '../plugins/rate-limit.repository.js';
import { startTestServer, TEST_POSTGRES_URL, type TestServer } from '../test/harness.js';
import { createLiveBus, type LiveBus } from './live-bus.js';

const quiet = { info: () => undefined, warn: () => undefined };
const plant = (plantId: number, status: number): LiveEvent => ({ type: 'plant', plantId, status });

describe.runIf(process.env.TEST_DATABASE === 'postgres')('live bus (LISTEN/NOTIFY)', () => {
  let url: string;
  let drop: () => Promise<void>;
  const buses: LiveBus[] = [];
  beforeAll(async () => {
    const scratch = await createScratchDatabase(TEST_POSTGRES_URL, 'sunward_bus');
    url = scratch.url;
    drop = scratch.drop;
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await drop?.();
  });
  const bus = async (options: { reconnectMs?: number } = {}) => {
    const created = createLiveBus({ connectionString: url, ...options });
    buses.push(created);
    await created.start(quiet);
    return created;
  };

  it('delivers at once locally, to the other process once, and never twice to its own', async () => {
    const [a, b] = [await bus(), await bus()];
    const onA: LiveEvent[] = [];
    const onB: LiveEvent[] = [];
    const onBProcess: LiveEvent[] = [];
    a.subscribe((e) => onA.push(e), { scope: 'cluster' });
    b.subscribe((e) => onB.push(e), { scope: 'cluster' });
    b.subscribe((e) => onBProcess.push(e));
    a.publish(plant(1, 1));
    expect(onA).toEqual([plant(1, 1)]);
    for (let i = 0; i < 500; i++) a.publish(plant(2 + i, 2));
    await expect.poll(() => onB.length, { timeout: 5000 }).toBe(501);
    expect(onB[0]).toEqual(plant(1, 1));
    expect(onA).toHaveLength(501);
    // Subscribers that act on changes hear only their own process's.
    expect(onBProcess).toHaveLength(0);
    expect(a.stats.notifies).toBeLessThan(20);
  });

  it('reconnects a listener whose connection was ended, and delivers again', async () => {
    const a = await bus();
    const b = await bus({ reconnectMs: 50 });
    const onB: LiveEvent[] = [];
    b.subscribe((e) => onB.push(e), { scope: 'cluster' });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'sunward-live-bus' and datname = current_database() and pid <> pg_backend_pid()`,
      );
    } finally {
      await admin.end();
    }
    await expect.poll(() => a.stats.reconnects + b.stats.reconnects >= 2, { timeout: 10_000 }).toBe(true);
    a.publish(plant(900, 3));
    await expect.poll(() => onB.some((e) => e.type === 'plant' && e.plantId === 900), { timeout: 5000 }).toBe(true);
  });
});

describe('API rate-limit counters in the database (the PostgreSQL store; its SQL runs on both)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts within a window from the first request, starts a new one after it, and purges ended windows', async () => {
    const counters = createRateLimitRepository(server.database.db);
    const first = await counters.hit('ip:192.0.2.1', 60_000);
    expect(first.current).toBe(1);
    expect(first.ttl).toBeGreaterThan(59_000);
    expect((await counters.hit('ip:192.0.2.1', 60_000)).current).toBe(2);
    expect((await counters.peek('ip:192.0.2.1')).current).toBe(2);
    expect((await counters.peek('ip:192.0.2.2')).current).toBe(0);
    await counters.hit('ip:192.0.2.3', 1);
    await expect.poll(async () => (await counters.peek('ip:192.0.2.3')).current, { timeout: 5000 }).toBe(0);
    expect((await counters.hit('ip:192.0.2.3', 60_000)).current).toBe(1);
    await counters.hit('ip:192.0.2.4', 1);
    await expect.poll(async () => (await counters.peek('ip:192.0.2.4')).current, { timeout: 5000 }).toBe(0);
    expect(await counters.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect((await counters.peek('ip:192.0.2.1')).current).toBe(2);
  });
});
