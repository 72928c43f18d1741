import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@sunward/contracts/languages';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage } from '../lib/i18n';

/**
 * Language choice for the public pages. A native select: antd's Select would add ~25 KB (gzip) to
 * the sign-in page, which has a 250 KB budget.
 */
export function LanguagePickerLite() {
  const { t } = useTranslation();
  return (
    <label className="sw-lang-lite">
      <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
        <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path d="M3 12h18M12 3c3 3.2 3 14.8 0 18M12 3c-3 3.2-3 14.8 0 18" fill="none" stroke="currentColor" strokeWidth="1.6" />
      </svg>
      <select
        aria-label={t('shell.language')}
        data-testid="language-select"
        value={currentLanguage()}
        onChange={(event) => {
          if (isLanguage(event.target.value)) changeLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
