import { Code } from '@sunward/contracts/codes';
import type { GatewayCheck } from './api';
import type { GatewayRowValues } from './plant-form-values';

export type GatewayCheckState = { status: 'checking' } | ({ status: 'ok' } & GatewayCheck) | { status: 'refused'; message: string };

/**
 * Which field a gateway refusal belongs beside: 300 (the SN or the key is wrong: the server does not say which,
 * so that it tells nobody which SNs exist) beside the key, the rest beside the serial number.
 */
export function gatewayRefusalField(code: number): 'sn' | 'key' {
  return code === Code.GATEWAY_REGISTRATION_WRONG ? 'key' : 'sn';
}

/** Results are kept per serial number and key, so a row edited after its check reads "not checked" again. */
export function checkKey(row: GatewayRowValues | undefined): string {
  return `${row?.sn ?? ''}\u0000${row?.key ?? ''}`;
}

export function isCheckedOk(states: Readonly<Record<string, GatewayCheckState>>, row: GatewayRowValues | undefined): boolean {
  return Boolean(row?.sn && row.key) && states[checkKey(row)]?.status === 'ok';
}
