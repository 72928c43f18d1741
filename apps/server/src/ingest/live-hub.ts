/** In-process fan-out of changes to the console's live connections (Server-Sent Events). */
export type LiveEvent =
  | { type: 'device'; deviceId: number; plantId: number | null; status: number; powerW: number | null; soc: number | null; ts: string }
  | { type: 'plant'; plantId: number; status: number }
  | { type: 'upgrade'; deviceId: number; plantId: number | null; sn: string; progress: number; status: string };

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
