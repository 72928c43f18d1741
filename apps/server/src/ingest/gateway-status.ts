import { type StatusPayload, StatusPayloadSchema } from '@sunward/contracts/gateway-protocol';
import { isDataError } from './batch-split.js';
import { REPORT_LIMITS } from './report-decoder.js';
import type { TelemetryRepository } from './telemetry.repository.js';

/**
 * Records a gateway's status message (presence, firmware, signal, interval, its own settings), whichever broker it came
 * through. Returns false for a payload that is not a valid status, which is then dropped.
 */
export async function recordGatewayStatus(
  repository: TelemetryRepository,
  gatewayId: number,
  payload: Buffer,
  ip: string | null,
): Promise<boolean> {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return false;
  }
  const parsed = StatusPayloadSchema.safeParse(json);
  if (!parsed.success || !statusInRange(parsed.data)) return false;
  const status = parsed.data;
  try {
    await repository.setGatewayPresence(gatewayId, { online: status.online, at: new Date(), ...(ip ? { ip } : {}) });
    await repository.setGatewayInfo(gatewayId, {
      fw: status.fw,
      hw: status.hw,
      make: status.make,
      model: status.model,
      rssi: status.rssi,
      comm: status.comm,
      iccid: status.iccid,
      interval: status.interval,
      config: status.config,
    });
  } catch (error) {
    // Refused for what it carries: dropped like a malformed status, never redelivered forever (external broker).
    if (isDataError(error)) return false;
    throw error;
  }
  return true;
}

/** Printable text only (PostgreSQL refuses NUL) and a password time a date can hold, from 2000 on. */
function statusInRange(status: StatusPayload): boolean {
  const texts = [status.fw, status.hw, status.make, status.model, status.iccid, status.config?.serverAddress];
  if (texts.some((t) => t !== undefined && [...t].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))) return false;
  const setAt = status.config?.passwordSetAt;
  return setAt === undefined || (setAt >= REPORT_LIMITS.minTs && Number.isFinite(new Date(setAt).getTime()));
}
