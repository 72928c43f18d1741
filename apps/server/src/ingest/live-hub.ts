/** In-process fan-out of changes to the console's live connections (Server-Sent Events). */
export type LiveEvent =
  | { type: 'device'; deviceId: number; plantId: number | null; status: number; powerW: number | null; soc: number | null; ts: string }
  | { type: 'plant'; plantId: number; status: number }
  | { type: 'upgrade'; deviceId: number; plantId: number | null; sn: string; progress: number; status: string }
  /** A device event opened or cleared (after it is stored); the alarm notifier fans it out to people. */
  | {
      type: 'event';
      change: 'opened' | 'cleared';
      deviceId: number;
      plantId: number | null;
      code: number;
      level: string | null;
      ts: string;
    }
  /** The caller's unread message count changed; only that user's connections receive it. */
  | { type: 'message'; userId: number; plantId: null; unread: number };

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
