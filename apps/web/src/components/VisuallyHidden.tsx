import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { registerTexts } from '../lib/feature-texts';
import { sharedTexts } from './shared-texts';

registerTexts(sharedTexts);

const HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

/** Text for screen readers only (a column header whose cells are icon buttons, a control's context). */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span style={HIDDEN}>{children}</span>;
}

/**
 * The header of an actions column: "Actions" for screen readers, nothing on screen (a table header
 * must never be empty, WCAG 1.3.1).
 */
export function ActionsTitle() {
  const { t } = useTranslation();
  return <VisuallyHidden>{t('shared.actions')}</VisuallyHidden>;
}

/** The header of a table's expand column: "Details" for screen readers, nothing on screen. */
export function ExpandTitle() {
  const { t } = useTranslation();
  return <VisuallyHidden>{t('shared.details')}</VisuallyHidden>;
}
