import { registerTexts } from '../../feature-texts';
import { listTexts } from './list';
import { overviewTexts } from './overview';
import { wizardTexts } from './wizard';

/** The plant screens' texts in one registry: every plant page imports this module, which adds them to i18next. */
export const PLANT_TEXTS = [listTexts, wizardTexts, overviewTexts] as const;

for (const texts of PLANT_TEXTS) registerTexts(texts);
