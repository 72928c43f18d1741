import type { Language } from './languages.js';
import { cn } from './messages/cn.js';
import { cz } from './messages/cz.js';
import { de } from './messages/de.js';
import { el } from './messages/el.js';
import { en, type MessageCatalogue, type MessageKey } from './messages/en.js';
import { es } from './messages/es.js';
import { po } from './messages/po.js';
import { pt } from './messages/pt.js';
import { tr } from './messages/tr.js';
import { vi } from './messages/vi.js';

export type { MessageKey } from './messages/en.js';

/** The shared catalogue in all ten languages; the MessageCatalogue type makes a missing key a type error. */
export const MESSAGES: Record<Language, MessageCatalogue> = { en, cn, vi, es, de, cz, po, tr, el, pt };

export type MessageParams = Record<string, string | number>;

/** Fills {{name}} placeholders; an absent parameter is left visible rather than silently dropped. */
export function interpolate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function translate(language: Language, key: MessageKey, params?: MessageParams): string {
  return interpolate(MESSAGES[language][key] ?? en[key], params);
}

export function isMessageKey(key: string): key is MessageKey {
  return key in en;
}
