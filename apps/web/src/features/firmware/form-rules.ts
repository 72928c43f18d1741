import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';

/**
 * The validation rules both firmware forms (gateway/inverter and battery) use, in one place so they cannot
 * drift: `required` for typed text, `selectRequired` for choices, `max` and `pattern` with the shared messages.
 */
export function useFirmwareRules() {
  const { t } = useTranslation();
  return {
    required: { required: true, whitespace: true, message: t('firmware.required') } satisfies Rule,
    selectRequired: { required: true, message: t('firmware.required') } satisfies Rule,
    max: (n: number): Rule => ({ max: n, message: t('firmware.tooLong', { max: n }) }),
    pattern: (p: RegExp, text: string): Rule => ({ pattern: p, message: text }),
  };
}
