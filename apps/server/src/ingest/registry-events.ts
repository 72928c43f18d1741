/**
 * Tells the ingest pipeline that the device registry changed under it (a plant created or deleted,
 * a gateway bound): the pipeline caches devices with their plant and time zone, so it reloads them.
 * The API awaits the reload before answering, so the next report is stored under the new plant.
 */
export interface RegistryEvents {
  onChange(listener: () => Promise<void>): void;
  changed(): Promise<void>;
}

export function createRegistryEvents(): RegistryEvents {
  const listeners: (() => Promise<void>)[] = [];
  return {
    onChange(listener) {
      listeners.push(listener);
    },
    async changed() {
      await Promise.all(listeners.map((listener) => listener()));
    },
  };
}
