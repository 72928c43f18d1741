import { lazy } from 'react';
import { fillSettingsSlot } from '../lib/settings-slots';

// Personal settings' tabs from other areas, each loaded when its tab opens.
fillSettingsSlot(
  'bound',
  lazy(async () => ({ default: (await import('../features/auth/third-party/BoundAccounts')).BoundAccounts })),
);
fillSettingsSlot(
  'notifications',
  lazy(async () => ({ default: (await import('../features/notifications/NotificationSettings')).NotificationSettings })),
);
