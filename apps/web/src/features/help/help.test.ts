import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { helpPagePath, loadHelpPage } from './help-content';
import { HELP_TOPICS, helpTopicFor, helpUrl, isHelpTopic } from './help-topics';
import { parseInline, parseMarkdown, titleOf } from './markdown';

// Every shipped page, by its path (./content/<language>/<topic>.md).
const SHIPPED = import.meta.glob<string>('./content/*/*.md', { query: '?raw', import: 'default', eager: true });

describe('help pages', () => {
  it('reads the help Markdown: headings, paragraphs, lists, bold, code and links', () => {
    const blocks = parseMarkdown(
      '# Title\n\nFirst line\nsame paragraph.\n\n- one **bold**\n  continued\n- two\n\n1. a `x`\n2. [b](topic:plants)\n',
    );
    expect(titleOf(blocks)).toBe('Title');
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list']);
    expect(blocks[1]).toEqual({ kind: 'paragraph', content: [{ kind: 'text', text: 'First line same paragraph.' }] });
    expect(blocks[2]).toEqual({
      kind: 'list',
      ordered: false,
      items: [
        [
          { kind: 'text', text: 'one ' },
          { kind: 'strong', text: 'bold' },
          { kind: 'text', text: ' continued' },
        ],
        [{ kind: 'text', text: 'two' }],
      ],
    });
    expect(blocks[3]).toMatchObject({ ordered: true });
    expect(parseInline('see [Events](topic:events).')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'Events', target: 'topic:events' },
      { kind: 'text', text: '.' },
    ]);
    // Markup is text, never HTML.
    expect(parseInline('<script>x</script>')).toEqual([{ kind: 'text', text: '<script>x</script>' }]);
  });

  it('opens the help of the page on show, in the language asked for', () => {
    expect(helpTopicFor('/plants')).toBe('plants');
    expect(helpTopicFor('/plant-add')).toBe('plants');
    expect(helpTopicFor('/plants/overview/12/1')).toBe('plant-overview');
    expect(helpTopicFor('/plants/layout/12')).toBe('layout');
    expect(helpTopicFor('/device/inverter')).toBe('devices');
    expect(helpTopicFor('/device/event')).toBe('events');
    expect(helpTopicFor('/device/event/description')).toBe('events');
    expect(helpTopicFor('/report')).toBe('reports');
    expect(helpTopicFor('/firmware/batt')).toBe('firmware');
    expect(helpTopicFor('/fullscreen/links')).toBe('large-screen');
    expect(helpTopicFor('/enterprise/user')).toBe('start');
    expect(helpUrl('/device/event', 'de')).toBe('/help/events?lan=de');
  });

  it('falls back to English, saying so, where a page has no translation', async () => {
    const pages = {
      [helpPagePath('en', 'plants')]: async () => '# Plant list',
      [helpPagePath('de', 'plants')]: async () => '# Anlagenliste',
    };
    expect(await loadHelpPage('plants', 'de', pages)).toEqual({ source: '# Anlagenliste', language: 'de', fallback: false });
    expect(await loadHelpPage('plants', 'vi', pages)).toEqual({ source: '# Plant list', language: 'en', fallback: true });
  });

  it('ships every topic in every language; every page is a known topic with a title and links to known topics only', () => {
    // Every page in all ten languages (the English fallback is for pages added later, with a note).
    for (const language of LANGUAGES)
      for (const topic of HELP_TOPICS) expect(SHIPPED[helpPagePath(language, topic)], `${language}/${topic}`).toBeDefined();
    for (const [path, source] of Object.entries(SHIPPED)) {
      const [, language, topic] = /^\.\/content\/([^/]+)\/([^/]+)\.md$/.exec(path) ?? [];
      expect(LANGUAGES).toContain(language);
      expect(isHelpTopic(topic), path).toBe(true);
      expect(titleOf(parseMarkdown(source)), path).toBeTruthy();
      for (const [, target] of source.matchAll(/\]\(topic:([^)]+)\)/g)) expect(isHelpTopic(target), path).toBe(true);
    }
  });
});
