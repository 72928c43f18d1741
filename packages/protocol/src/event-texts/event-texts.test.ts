import { describe, expect, it } from 'vitest';
import { BUILT_IN_PROTOCOLS } from '../maps/index.js';
import { EVENT_TEXT_TRANSLATIONS, eventTextIn, TRANSLATED_LANGUAGES } from './index.js';

const usedTexts = new Set(BUILT_IN_PROTOCOLS.flatMap((p) => p.events.flatMap((e) => [e.description.en, e.solution.en])));

describe('built-in event texts in ten languages', () => {
  it('translates every description and solution of every built-in map into all eight further languages', () => {
    const missing = [...usedTexts].flatMap((text) =>
      TRANSLATED_LANGUAGES.filter((l) => !EVENT_TEXT_TRANSLATIONS[text]?.[l]?.trim()).map((l) => `${l}: ${text}`),
    );
    expect(missing).toEqual([]);
  });

  it('keeps no translation of a text no map uses any more, and none that is a copy of the English', () => {
    expect(Object.keys(EVENT_TEXT_TRANSLATIONS).filter((text) => !usedTexts.has(text))).toEqual([]);
    const copies = Object.entries(EVENT_TEXT_TRANSLATIONS).flatMap(([en, t]) =>
      TRANSLATED_LANGUAGES.filter((l) => t[l] === en && !/^[A-Z0-9 ()/-]+$/.test(en)).map((l) => `${l}: ${en}`),
    );
    expect(copies).toEqual([]);
  });

  it('answers the map’s Chinese for cn, its English for en, the translation otherwise', () => {
    const text = { en: 'Grid lost', zh: '电网丢失' };
    expect(eventTextIn(text, 'cn')).toBe('电网丢失');
    expect(eventTextIn(text, 'en')).toBe('Grid lost');
    expect(eventTextIn(text, 'de')).toBe('Netzausfall');
    expect(eventTextIn({ en: 'Not in the table', zh: '无' }, 'de')).toBe('Not in the table');
  });
});
