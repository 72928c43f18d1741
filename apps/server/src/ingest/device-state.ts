import { DeviceStatus, type DeviceStatusValue } from '@sunward/contracts/device-status';

/** SunSpec operating states (St) that mean the device protects itself or has failed. */
const SUNSPEC_FAULT = 7;

/**
 * A reporting device's status from its operating state and open events (spec 01 §4): an open fault
 * event or a fault state is Fault, a protect event Protect, a warning Warning, otherwise Normal.
 * Offline is decided by silence elsewhere; Upgrading by remote operation.
 */
export function statusFromReading(operatingState: number | null, activeEvents: readonly { level: string }[]): DeviceStatusValue {
  if (operatingState === SUNSPEC_FAULT || activeEvents.some((e) => e.level === 'fault')) return DeviceStatus.FAULT;
  if (activeEvents.some((e) => e.level === 'protect')) return DeviceStatus.PROTECT;
  if (activeEvents.some((e) => e.level === 'warning')) return DeviceStatus.WARNING;
  return DeviceStatus.NORMAL;
}

/** A device is offline after this many report intervals of silence (a setting; default 3). */
export function isSilent(lastReportAt: Date | null, intervalSeconds: number, multiple: number, now: Date): boolean {
  if (!lastReportAt) return true;
  return now.getTime() - lastReportAt.getTime() > intervalSeconds * multiple * 1000;
}
