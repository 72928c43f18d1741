import { type CommandResult, CommandResultSchema, type DebugRequest } from '@sunward/contracts/commands';
import { DevicePageSchema } from '@sunward/contracts/devices';
import { apiRequest } from '../../lib/api-client';

/** Codes the toolbox shows as the server words them (offline, upgrading, wrong password, cap, timeout, range). */
const COMMAND_REFUSALS = [1, 4, 135, 601, 603, 604, 708, 709];

/** Inverters the caller may operate whose SN or alias contains the keyword (the send target). */
export const searchInverters = (keyword: string) =>
  apiRequest('/api/v1/inverters', { query: { keyword: keyword || undefined, size: 20 }, schema: DevicePageSchema });

/** A register read or write through the inverter's remote debug (the same call as the device page's console). */
export const sendDebug = (sn: string, request: DebugRequest): Promise<CommandResult> =>
  apiRequest(`/api/v1/inverter/${encodeURIComponent(sn)}/debug`, {
    method: 'POST',
    json: request,
    schema: CommandResultSchema,
    tolerate: COMMAND_REFUSALS,
  });
