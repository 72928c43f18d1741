import { StatusPayloadSchema } from '@sunward/contracts/gateway-protocol';
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
  if (!parsed.success) return false;
  const status = parsed.data;
  await repository.setGatewayPresence(gatewayId, { online: status.online, at: new Date(), ...(ip ? { ip } : {}) });
  await repository.setGatewayInfo(gatewayId, {
    fw: status.fw,
    hw: status.hw,
    rssi: status.rssi,
    comm: status.comm,
    iccid: status.iccid,
    interval: status.interval,
    config: status.config,
  });
  return true;
}
