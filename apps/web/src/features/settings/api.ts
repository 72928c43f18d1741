import {
  type CommandResult,
  CommandResultSchema,
  SettingsDevicePageSchema,
  type SettingsDevicesQuery,
  type SettingsFamily,
} from '@sunward/contracts/commands';
import { apiRequest } from '../../lib/api-client';

/** Codes a settings write explains itself: offline, upgrading, wrong password, cap, timeout, range, no such group. */
export const SETTINGS_REFUSALS = [1, 4, 135, 601, 603, 604, 708, 709];

export const settingsKeys = {
  list: (query: SettingsDevicesQuery) => ['settings', 'devices', query] as const,
  all: ['settings'] as const,
};

export function fetchSettingsDevices(query: SettingsDevicesQuery) {
  return apiRequest('/api/v1/settings/devices', {
    query: {
      scope: query.scope,
      page: query.page,
      size: query.size,
      ...(query.plantId ? { plantId: query.plantId } : {}),
      ...(query.keyword ? { keyword: query.keyword } : {}),
    },
    schema: SettingsDevicePageSchema,
  });
}

/** Writes a family's changed values (the device confirms them in its reply); the password goes once per write. */
export function writeSettings(
  family: SettingsFamily,
  body: { sn: string; values: Record<string, number>; password: string },
): Promise<CommandResult> {
  return apiRequest(`/api/v1/${family}`, {
    method: 'POST',
    json: { ...body, idempotencyKey: crypto.randomUUID() },
    schema: CommandResultSchema,
    tolerate: SETTINGS_REFUSALS,
  });
}
