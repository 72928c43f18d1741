import type { Language } from '@sunward/contracts/languages';

/** The pages of the shipped documentation (content/<lang>/<topic>.md); `start` is its contents page. */
export const HELP_TOPICS = [
  'start',
  'plants',
  'plant-overview',
  'devices',
  'events',
  'reports',
  'firmware',
  'layout',
  'large-screen',
] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];

export function isHelpTopic(value: unknown): value is HelpTopic {
  return typeof value === 'string' && (HELP_TOPICS as readonly string[]).includes(value);
}

/** Console paths to their help page, most specific first; a page without its own help opens the contents. */
const BY_PATH: [RegExp, HelpTopic][] = [
  [/^\/plants\/overview\//, 'plant-overview'],
  [/^\/plants\/layout\//, 'layout'],
  [/^\/(plants|plant-add)(\/|$)/, 'plants'],
  [/^\/device\/event(\/|$)/, 'events'],
  [/^\/device(\/|$)/, 'devices'],
  [/^\/report(\/|$)/, 'reports'],
  [/^\/firmware(\/|$)/, 'firmware'],
  [/^\/fullscreen(\/|$)/, 'large-screen'],
];

export function helpTopicFor(pathname: string): HelpTopic {
  return BY_PATH.find(([pattern]) => pattern.test(pathname))?.[1] ?? 'start';
}

/** Where the help button leads: the topic of the current page, in the user's language (spec 01 §2: a `lan` parameter). */
export function helpUrl(pathname: string, language: Language): string {
  return `/help/${helpTopicFor(pathname)}?lan=${language}`;
}
