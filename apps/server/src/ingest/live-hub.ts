import type { LiveEvent } from '@sunward/contracts/live-events';

/** Fan-out of changes to the console's live connections (Server-Sent Events); the event shape is in contracts. */
export type { LiveEvent };

/**
 * Which changes a subscriber hears. `process` (the default): only what this process published, for
 * subscribers that act on a change (alarm notifier, webhooks, smart rules): the process that stored the change
 * acts on it, exactly once in a cluster. `cluster`: also what other server processes published (through
 * the live bus, ingest/live-bus.ts), for subscribers that only show changes (the SSE stream of GET /api/v1/live).
 */
export type LiveScope = 'process' | 'cluster';

export type LiveListener = (event: LiveEvent) => void;

export interface LiveHub {
  publish(event: LiveEvent): void;
  subscribe(listener: LiveListener, options?: { scope?: LiveScope }): () => void;
  /** Subscribers of this process (live connections and the services that listen). */
  readonly size: number;
}

/** The hub with its delivery of other processes' events, for the live bus. */
export interface LocalLiveHub extends LiveHub {
  /** Hands events another process published to this process's `cluster` subscribers. */
  deliverRemote(events: readonly LiveEvent[]): void;
}

/**
 * The in-process hub: on the embedded database (one process by construction) it is the whole story; with
 * DATABASE_URL the live bus wraps it and forwards what is published to the other processes.
 */
export function createLiveHub(options: { onPublish?: (event: LiveEvent) => void } = {}): LocalLiveHub {
  const processScope = new Set<LiveListener>();
  const clusterScope = new Set<LiveListener>();
  const deliver = (listeners: Set<LiveListener>, event: LiveEvent) => {
    for (const listener of listeners) listener(event);
  };
  return {
    publish(event) {
      deliver(processScope, event);
      deliver(clusterScope, event);
      options.onPublish?.(event);
    },
    deliverRemote(events) {
      for (const event of events) deliver(clusterScope, event);
    },
    subscribe(listener, subscribeOptions) {
      const set = subscribeOptions?.scope === 'cluster' ? clusterScope : processScope;
      set.add(listener);
      return () => set.delete(listener);
    },
    get size() {
      return processScope.size + clusterScope.size;
    },
  };
}
