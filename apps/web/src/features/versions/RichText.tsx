import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS } from '@sunward/contracts/versions';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import './versions.css';

const ALLOWED_ATTR = [...new Set([...Object.values(RICH_TEXT_ATTRIBUTES).flat(), 'rel', 'target'])];

/**
 * Release-note HTML, sanitised again before it is shown (the server sanitised it on save): the same
 * allow-list of formatting tags, so nothing that runs can reach the page even if the stored text was
 * changed behind the server's back.
 */
export function sanitizeForDisplay(html: string): string {
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...RICH_TEXT_TAGS],
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  });
}

export function RichText({ html, testId }: { html: string; testId?: string }) {
  const clean = useMemo(() => sanitizeForDisplay(html), [html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised just above with the allow-list.
  return <div className="sw-rich-text" data-testid={testId} dangerouslySetInnerHTML={{ __html: clean }} />;
}
