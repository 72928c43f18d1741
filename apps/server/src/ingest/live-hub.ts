import type { LiveEvent } from '@sunward/contracts/live-events';

/** In-process fan-out of changes to the console's live connections (Server-Sent Events); the event shape is in contracts. */
export type { LiveEvent };

export function createLiveHub() {
  const listeners = new Set<(event: LiveEvent) => void>();
  return {
    publish(event: LiveEvent) {
      for (const listener of listeners) listener(event);
    },
    subscribe(listener: (event: LiveEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get size() {
      return listeners.size;
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
