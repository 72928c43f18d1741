import type { ComponentType } from 'react';

/**
 * Tabs of personal settings that belong to other areas (bound third-party accounts, alarm e-mails). The
 * app fills them (app/settings-slots.ts), so the account feature shows them without importing another
 * feature; an unfilled slot shows nothing.
 */
export type SettingsSlot = 'bound' | 'notifications';

const slots = new Map<SettingsSlot, ComponentType>();

export function fillSettingsSlot(slot: SettingsSlot, component: ComponentType): void {
  slots.set(slot, component);
}

export function settingsSlot(slot: SettingsSlot): ComponentType | undefined {
  return slots.get(slot);
}
