import { defineTexts } from '../../../lib/feature-texts';

/** Texts of the plant overview screens (keys prefixed as the feature's brief says). */
export const overviewTexts = defineTexts({
  en: {},
  cn: {},
  vi: {},
  es: {},
  de: {},
  cz: {},
  po: {},
  tr: {},
  el: {},
  pt: {},
});
