import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { createConsumerSessionsRepository } from './consumer-sessions.repository.js';

// The consumer-session registry's SQL (issue 26 part 5), on PGlite and PostgreSQL: which process may adopt which
// broker session. The adoption itself, with real processes and Mosquitto: multi-process.api.test.ts.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Makes `owner`'s sessions look silent for `seconds`. */
async function age(owner: string, seconds: number) {
  await server.database.db.execute(
    sql`update mqtt_consumer_sessions set heartbeat_at = now() - make_interval(secs => ${seconds}) where owner = ${owner}`,
  );
}

describe('mqtt_consumer_sessions', () => {
  it('lets exactly one live process claim a silent process’s sessions, and never its own or a beating one’s', async () => {
    const repo = createConsumerSessionsRepository(server.database.db);
    await repo.announce(['t1-a-0', 't1-a-1'], 'proc-a');
    await repo.announce(['t1-b-0'], 'proc-b');
    // Fresh heartbeats: nothing to claim.
    expect(await repo.claimStale('proc-c', 10_000, 60_000)).toEqual([]);
    await age('proc-a', 30);
    // Its own sessions are never claimed by the process itself.
    expect(await repo.claimStale('proc-a', 10_000, 60_000)).toEqual([]);
    const [b, c] = await Promise.all([repo.claimStale('proc-b', 10_000, 60_000), repo.claimStale('proc-c', 10_000, 60_000)]);
    expect([...b, ...c].sort()).toEqual(['t1-a-0', 't1-a-1']);
    expect(b.length === 0 || c.length === 0).toBe(true);
    // Claimed: not claimed again while the adoption is live, claimed again once it is older than its lease.
    expect(await repo.claimStale('proc-d', 10_000, 60_000)).toEqual([]);
    expect((await repo.claimStale('proc-d', 10_000, 0)).sort()).toEqual(['t1-a-0', 't1-a-1']);
    // An adoption that drains for longer than its lease renews it, and is not taken over meanwhile.
    await server.database.db.execute(
      sql`update mqtt_consumer_sessions set adopted_at = now() - interval '70 seconds' where client_id like 't1-%'`,
    );
    await repo.renewAdoption(['t1-a-0', 't1-a-1'], 'proc-d');
    expect(await repo.claimStale('proc-e', 10_000, 60_000)).toEqual([]);
    // Adopted and ended: forgotten.
    await repo.adopted('t1-a-0', 'proc-d');
    await repo.adopted('t1-a-1', 'proc-b');
    const left = await server.database.db.execute(sql`select client_id from mqtt_consumer_sessions where client_id like 't1-%' order by 1`);
    expect(JSON.stringify(left)).toContain('t1-a-1');
    expect(JSON.stringify(left)).not.toContain('t1-a-0');
  });

  it('takes a session back for a process that beats again, and forgets a process that stopped cleanly', async () => {
    const repo = createConsumerSessionsRepository(server.database.db);
    await repo.announce(['t2-a-0'], 'proc-a2');
    await age('proc-a2', 30);
    expect(await repo.claimStale('proc-b2', 10_000, 60_000)).toEqual(['t2-a-0']);
    // The owner was only slow: its beat makes the session its own again, and the adopter's end does not delete it.
    expect(await repo.beat('proc-a2')).toBe(1);
    await repo.adopted('t2-a-0', 'proc-b2');
    expect(await repo.claimStale('proc-b2', 10_000, 60_000)).toEqual([]);
    // A restart under another process identity (same MQTT_CONSUMER_ID) takes the rows over.
    await repo.announce(['t2-a-0'], 'proc-a2-restarted');
    expect(await repo.beat('proc-a2')).toBe(0);
    expect(await repo.beat('proc-a2-restarted')).toBe(1);
    await repo.release('proc-a2-restarted');
    expect(await repo.beat('proc-a2-restarted')).toBe(0);
  });
});
