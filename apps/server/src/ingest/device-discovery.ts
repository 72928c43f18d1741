import type { DeviceRecord } from './telemetry.repository.js';

/**
 * Finding the devices a report names, and registering the new ones (auto-discovery), so that no
 * reading is refused because its device was being registered at that moment: a gateway's first
 * connection sends many reports at once, all naming the same new devices.
 *
 * - A device missing from the cache is looked up once however many reports ask at the same time, and
 *   a report naming a device whose registration is under way waits for it.
 * - A device is registered only from a reading that decoded, once per SN, one registration at a time
 *   per gateway (the per-gateway limit is a count before the insert).
 * - A device a user deleted from this gateway is never registered again (docs/decisions.md).
 */
export function createDeviceDiscovery(deps: {
  cached(sn: string): DeviceRecord | undefined;
  /** Reads the device from the database and caches it. */
  load(sn: string): Promise<DeviceRecord | undefined>;
  isDeleted(gatewayId: number, sn: string): boolean;
  /** Inserts the device unless it may not be added; true when added. */
  register(device: { sn: string; gatewayId: number; protocolId: string; parentSn: string | undefined }): Promise<boolean>;
}) {
  // One lookup or registration per SN at a time; later askers share its promise.
  const inFlight = new Map<string, Promise<DeviceRecord | undefined>>();
  const gatewayTurns = new Map<number, Promise<unknown>>();

  function once(sn: string, work: () => Promise<DeviceRecord | undefined>): Promise<DeviceRecord | undefined> {
    const running = inFlight.get(sn);
    if (running) return running;
    const promise = work().finally(() => inFlight.delete(sn));
    inFlight.set(sn, promise);
    return promise;
  }

  /** Runs `work` after the gateway's previous registration. */
  function inTurn<T>(gatewayId: number, work: () => Promise<T>): Promise<T> {
    const previous = gatewayTurns.get(gatewayId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    gatewayTurns.set(gatewayId, settled);
    void settled.then(() => {
      if (gatewayTurns.get(gatewayId) === settled) gatewayTurns.delete(gatewayId);
    });
    return next;
  }

  return {
    /** Brings every SN of the report into the cache when it exists, waiting for registrations under way. */
    async lookUp(sns: readonly string[]): Promise<void> {
      const missing = [...new Set(sns)].filter((sn) => !deps.cached(sn));
      await Promise.all(missing.map((sn) => once(sn, () => deps.load(sn))));
    },

    /** Whether a reading of this unknown SN may be decoded as a new device of the gateway. */
    mayDiscover(gatewayId: number, sn: string): boolean {
      return !deps.cached(sn) && !deps.isDeleted(gatewayId, sn);
    },

    /** Registers a new device whose reading decoded (once, whoever asks) and caches it. */
    async register(device: { sn: string; gatewayId: number; protocolId: string; parentSn: string | undefined }): Promise<void> {
      // A lookup of the same SN under way may find it (another report registered it): wait for it first.
      for (let running = inFlight.get(device.sn); running; running = inFlight.get(device.sn)) await running.catch(() => undefined);
      if (deps.cached(device.sn) || deps.isDeleted(device.gatewayId, device.sn)) return;
      await once(device.sn, () =>
        inTurn(device.gatewayId, async () => {
          await deps.register(device);
          // Added now or by another server process meanwhile: either way the database has the answer.
          return deps.load(device.sn);
        }),
      );
    },
  };
}

export type DeviceDiscovery = ReturnType<typeof createDeviceDiscovery>;
