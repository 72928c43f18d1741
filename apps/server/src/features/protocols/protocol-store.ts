import { BUILT_IN_PROTOCOLS } from '@sunward/protocol/maps/index';
import { installProtocols } from '@sunward/protocol/registry';
import type { FastifyBaseLogger } from 'fastify';
import { isUniqueViolation } from '../../db/errors.js';
import { contentOfMap, seedName, storageOrderAfter, toDefinition } from './protocol-definition.js';
import type { ProtocolsRepository } from './protocols.repository.js';

/** Another server process sharing the database changed a protocol: picked up within this time. */
const POLL_MS = 15_000;

/**
 * The decoder's maps come from here (issue 19): the shipped maps are seeded as protocols on the first
 * start (and each new shipped map on the start after a release adds it), then every process decodes
 * with the stored current versions, installed into the protocol registry. A change made through this
 * process installs at once; other processes see it on their next poll.
 */
export function createProtocolStore(deps: { repository: ProtocolsRepository; log: FastifyBaseLogger }) {
  const { repository, log } = deps;
  let stamp = '';
  let timer: NodeJS.Timeout | null = null;

  async function seed(): Promise<void> {
    const present = await repository.identifiers();
    for (const map of BUILT_IN_PROTOCOLS) {
      if (present.has(map.id)) continue;
      const content = contentOfMap(map);
      try {
        await repository.create(
          { identifier: map.id, code: map.id, name: seedName(map.id), manufacturer: map.manufacturer, family: map.family, builtIn: true },
          {
            protocolVersion: map.version,
            configurationVersion: '1',
            definition: { ...content, storageOrder: storageOrderAfter(undefined, content) },
            note: null,
            createdBy: null,
          },
        );
      } catch (error) {
        // Another process seeded it first.
        if (!isUniqueViolation(error)) throw error;
      }
    }
  }

  async function reload(): Promise<void> {
    await repository.recordDeviceVersions();
    const rows = await repository.current();
    installProtocols(
      rows.map(toDefinition),
      rows.filter((r) => !r.enabled).map((r) => r.identifier),
    );
    stamp = await repository.stamp();
  }

  return {
    async start(): Promise<void> {
      await seed();
      await reload();
      timer = setInterval(() => {
        void repository
          .stamp()
          .then((now) => (now === stamp ? undefined : reload()))
          .catch((error: unknown) => log.warn({ err: error }, 'protocol maps not reloaded'));
      }, POLL_MS);
      timer.unref();
    },

    /** After a change made here: the decoder uses it from the next report on. */
    reload,

    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export type ProtocolStore = ReturnType<typeof createProtocolStore>;
