import { registerTexts } from '../../../lib/feature-texts';
import { deviceTexts } from './devices';

/** The device screens' texts: every device page imports this module, which adds them to i18next. */
for (const texts of [deviceTexts]) registerTexts(texts);
