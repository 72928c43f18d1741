import { hasForbiddenSpecialCharacters, hasSpace } from '@sunward/contracts/validators';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

/** Spec 01 §5 global key rule for text inputs (textareas are exempt): no forbidden special characters. */
export function plainTextRule(t: TFunction): Rule {
  return {
    validator: (_rule, value: unknown) =>
      typeof value === 'string' && hasForbiddenSpecialCharacters(value)
        ? Promise.reject(new Error(t('validation.specialCharacters')))
        : Promise.resolve(),
  };
}

/** Spec 01 §5: a password field rejects spaces. */
export function passwordRule(t: TFunction): Rule {
  return {
    validator: (_rule, value: unknown) =>
      typeof value === 'string' && hasSpace(value) ? Promise.reject(new Error(t('validation.noSpaces'))) : Promise.resolve(),
  };
}
