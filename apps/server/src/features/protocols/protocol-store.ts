import { BUILT_IN_PROTOCOLS } from '@sunward/protocol/maps/index';
import { installProtocols } from '@sunward/protocol/registry';
import type { FastifyBaseLogger } from 'fastify';
import { isUniqueViolation } from '../../db/errors.js';
import { installScripts, loadScriptEngine } from '../../ingest/protocol-scripts.js';
import type { JobRegistry } from '../../jobs/registry.js';
import { every } from '../../jobs/timers.js';
import { contentOfMap, sameContent, seedName, storageOrderAfter, toDefinition } from './protocol-definition.js';
import type { ProtocolsRepository } from './protocols.repository.js';

/** Another server process sharing the database changed a protocol: picked up within this time. */
const POLL_MS = 15_000;

/**
 * The decoder's maps come from here (issue 19): the shipped maps are seeded as protocols on the first
 * start (each new shipped map on the start after a release adds it, and a changed one as a new version of
 * its built-in protocol), then every process decodes
 * with the stored current versions, installed into the protocol registry. A change made through this
 * process installs at once; other processes see it on their next poll.
 */
export function createProtocolStore(deps: {
  repository: ProtocolsRepository;
  log: FastifyBaseLogger;
  /** The server's job registry, which then runs the poll as a process job (tests leave it out: a plain timer). */
  jobs?: Pick<JobRegistry, 'register'>;
}) {
  const { repository, log } = deps;
  let stamp = '';
  let stopPolling: (() => void) | undefined;

  /**
   * A release changed a shipped map that an older database seeded: the shipped map becomes a new version
   * (the stored ones stay as they are, and readings keep reading the same through the storage order). Nothing
   * happens when any stored version already is the shipped map (an administrator's later edit stays current).
   */
  async function updateBuiltIns(): Promise<void> {
    const rows = await repository.builtInVersions();
    for (const map of BUILT_IN_PROTOCOLS) {
      const versions = rows.filter((r) => r.identifier === map.id);
      const current = versions.find((v) => v.version === v.currentVersion);
      if (!current) continue;
      const content = contentOfMap(map);
      if (versions.some((v) => v.protocolVersion === map.version && sameContent(v.definition, content))) continue;
      const added = await repository.addVersion(
        current.id,
        { code: current.code, name: current.name, manufacturer: current.manufacturer, family: current.family },
        {
          protocolVersion: map.version,
          configurationVersion: current.configurationVersion,
          definition: { ...content, storageOrder: storageOrderAfter(current.definition.storageOrder, content) },
          note: null,
          createdBy: null,
        },
        current.currentVersion,
      );
      // null: another process starting at the same time stored it first.
      if (added !== null) log.info({ protocol: map.id, version: added }, 'built-in protocol updated from the shipped map');
    }
  }

  async function seed(): Promise<void> {
    const present = await repository.identifiers();
    await updateBuiltIns();
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
    // Scripts of the current versions' configuration versions (compiled on first use, in their sandbox).
    installScripts(await repository.currentScripts());
    stamp = await repository.stamp();
  }

  /** Reloads the maps when another process changed them. */
  async function poll(): Promise<void> {
    if ((await repository.stamp()) !== stamp) await reload();
  }

  return {
    async start(): Promise<void> {
      await loadScriptEngine();
      await seed();
      await reload();
      if (deps.jobs) {
        const remove = await deps.jobs.register({ name: 'protocol_maps', everyMs: POLL_MS, scope: 'process', run: poll });
        stopPolling = () => void remove();
      } else {
        stopPolling = every(POLL_MS, () => void poll().catch((error: unknown) => log.warn({ err: error }, 'protocol maps not reloaded')));
      }
    },

    /** After a change made here: the decoder uses it from the next report on. */
    reload,

    stop(): void {
      stopPolling?.();
      stopPolling = undefined;
    },
  };
}

export type ProtocolStore = ReturnType<typeof createProtocolStore>;
