import { registerTexts } from '../../../lib/feature-texts';
import { deviceTexts } from './devices';
import { eventDescriptionTexts } from './event-descriptions';
import { eventTexts } from './events';
import { logTexts } from './logs';
import { upgradeTexts } from './upgrades';

/** The device screens' texts in one registry: every device page imports this module, which adds them to i18next. */
export const DEVICE_TEXTS = [deviceTexts, eventTexts, upgradeTexts, logTexts, eventDescriptionTexts] as const;

for (const texts of DEVICE_TEXTS) registerTexts(texts);
