import { GlobalOutlined } from '@ant-design/icons';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@sunward/contracts/languages';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage } from '../lib/i18n';

/** Language choice for the public pages (a plain select keeps the sign-in bundle small). */
export function LanguagePickerLite() {
  const { t } = useTranslation();
  return (
    <Select
      aria-label={t('shell.language')}
      data-testid="language-select"
      value={currentLanguage()}
      prefix={<GlobalOutlined />}
      variant="borderless"
      popupMatchSelectWidth={false}
      options={LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
      onChange={(value: string) => {
        if (isLanguage(value)) changeLanguage(value);
      }}
    />
  );
}
