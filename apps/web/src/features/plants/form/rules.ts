import { type MessageKey, type MessageParams, translate } from '@sunward/contracts/messages';
import { isCapacityKwp, isLatitude, isLongitude, isMoneyValue, isPlantName, isPrice, PLANT_LIMITS } from '@sunward/contracts/plants';
import { isPhone, isPlainText, isSerialNumber } from '@sunward/contracts/validators';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { currentLanguage } from '../../../lib/i18n';

/**
 * antd rules built from the contracts' predicates (the server's own), worded from the shared message
 * catalogue in the user's language. An empty value passes: `required` says whether one is needed.
 */
function predicate<T>(test: (value: T) => boolean, key: MessageKey, params?: MessageParams): Rule {
  return {
    validator: (_, value: T | undefined | null | '') =>
      value === undefined || value === null || value === '' || test(value as T)
        ? Promise.resolve()
        : Promise.reject(new Error(translate(currentLanguage(), key, params))),
  };
}

export function requiredRule(t: TFunction): Rule {
  return { required: true, message: t('plantform.required') };
}

export const plantNameRule = predicate<string>(isPlantName, 'validation.plantName');
export const capacityRule = predicate<number>(isCapacityKwp, 'validation.capacity');
export const priceRule = predicate<number>(isPrice, 'validation.price');
export const moneyRule = predicate<number>(isMoneyValue, 'validation.money');
export const phoneRule = predicate<string>(isPhone, 'validation.phone');
export const serialRule = predicate<string>(isSerialNumber, 'validation.invalidFormat');
/** Spec 02 §8 code 10: both coordinates are judged with the server's wording. */
export const latitudeRule = predicate<number>(isLatitude, 'code.10');
export const longitudeRule = predicate<number>(isLongitude, 'code.10');

/** A single-line text: no forbidden symbols, at most `max` characters. */
export function plainTextRules(max: number = PLANT_LIMITS.textMax): Rule[] {
  return [
    predicate<string>(isPlainText, 'validation.specialCharacters'),
    predicate<string>((v) => [...v].length <= max, 'validation.tooLong', { max }),
  ];
}

export const addressRule = predicate<string>((v) => v.length <= PLANT_LIMITS.addressMax, 'validation.tooLong', {
  max: PLANT_LIMITS.addressMax,
});
