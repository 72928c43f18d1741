import type { Language } from '@sunward/contracts/languages';
import type { HelpTopic } from './help-topics';

type Pages = Record<string, () => Promise<string>>;

// Each page is its own small chunk, loaded when asked for; the console's bundle carries none of them.
const PAGES: Pages = import.meta.glob<string>('./content/*/*.md', { query: '?raw', import: 'default' });

export const helpPagePath = (language: Language, topic: HelpTopic) => `./content/${language}/${topic}.md`;

/** A help page in the asked language, else in English with `fallback` set (the page says so). */
export async function loadHelpPage(
  topic: HelpTopic,
  language: Language,
  pages: Pages = PAGES,
): Promise<{ source: string; language: Language; fallback: boolean }> {
  const own = pages[helpPagePath(language, topic)];
  if (own) return { source: await own(), language, fallback: false };
  const english = pages[helpPagePath('en', topic)];
  if (!english) throw new Error(`help page ${topic} missing`);
  return { source: await english(), language: 'en', fallback: true };
}
