import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { UiKey } from '../locales/en';

/** Page title from route metadata (spec 01 §2); undefined leaves the title to the page inside. */
export function useDocumentTitle(title: UiKey | undefined) {
  const { t } = useTranslation();
  useEffect(() => {
    if (title) document.title = `${t(title)} · ${t('app.name')}`;
  }, [title, t]);
}
