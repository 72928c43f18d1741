import type { FastifyBaseLogger } from 'fastify';
import type { JobRegistry } from '../jobs/registry.js';
import { every } from '../jobs/timers.js';
import type { ConsumerSessionsRepository } from './consumer-sessions.repository.js';
import type { ExternalConsumer } from './external-broker.js';

/** How often a process beats for its sessions and looks for silent processes' sessions. */
export const SESSION_BEAT_MS = 2000;
/** An adoption not finished in this long (its process died too) is claimed again. */
const ADOPTION_LEASE_MS = 60_000;
/** How often a draining adoption renews its claim. */
const ADOPTION_RENEW_MS = 10_000;

/**
 * Several server processes on one external broker (issue 26 part 5). Each holds persistent sessions in the share
 * group, so that after a crash the broker keeps what it had not acknowledged. But the broker (Mosquitto 2, measured)
 * keeps routing the share group's messages to a dead process's sessions and queues them until that process returns
 * or the session expires (then drops them). So each process names its sessions in mqtt_consumer_sessions and beats
 * every 2 s; a process whose sessions went silent for `takeoverMs` has them adopted by one live process, which
 * resumes each session, stores and acknowledges what the broker kept, leaves the share group and ends it.
 */
export async function startConsumerSessions(deps: {
  consumer: ExternalConsumer;
  repository: ConsumerSessionsRepository;
  jobs: Pick<JobRegistry, 'register' | 'owner'>;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  takeoverMs: number;
}) {
  const { consumer, repository, jobs } = deps;
  const owner = jobs.owner;
  await repository.announce(consumer.clientIds, owner);
  const removeBeat = await jobs.register({
    name: 'mqtt_session_beat',
    everyMs: SESSION_BEAT_MS,
    scope: 'process',
    run: () => repository.beat(owner),
  });
  const removeAdoption = await jobs.register({
    name: 'mqtt_session_adoption',
    everyMs: SESSION_BEAT_MS,
    scope: 'process',
    run: async () => {
      const claimed = await repository.claimStale(owner, deps.takeoverMs, ADOPTION_LEASE_MS);
      if (claimed.length > 0) deps.log.warn({ sessions: claimed }, 'adopting the broker sessions of a server process that stopped beating');
      // All at once: each adopted session leaves the share group as soon as it is resumed, and the pipeline
      // batches their reports together (one connection hands over one report at a time).
      // The claim is renewed while the sessions drain (a large backlog takes longer than the lease).
      const stopRenewing = every(ADOPTION_RENEW_MS, () => {
        repository
          .renewAdoption(claimed, owner)
          .catch((error: unknown) => deps.log.warn({ err: error }, 'renewing a session adoption failed'));
      });
      const outcomes = await Promise.allSettled(
        claimed.map(async (clientId) => {
          const handled = await consumer.adopt(clientId);
          await repository.adopted(clientId, owner);
          return handled;
        }),
      );
      stopRenewing();
      const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failed) throw failed.reason;
      const handled = outcomes.reduce((n, o) => n + (o.status === 'fulfilled' ? o.value : 0), 0);
      return { adopted: claimed.length, handled };
    },
  });
  return {
    async close() {
      await removeBeat();
      await removeAdoption();
      // The sessions were ended (expiry 0) by the consumer's close: nothing left to adopt.
      await repository.release(owner);
    },
  };
}
