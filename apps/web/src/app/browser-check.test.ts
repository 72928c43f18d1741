import { describe, expect, it } from 'vitest';
import source from '../../public/browser-check.js?raw';

type Win = Record<string, unknown>;
interface Check {
  missingFeatures(w: Win): string[];
  language(w: Win): string;
}

/** What a current browser offers of what the console needs (Node's own where it has them). */
function modernWindow(extra: Win = {}): Win {
  return {
    HTMLScriptElement: { prototype: { noModule: false } },
    Promise,
    fetch,
    AbortController,
    Array,
    Object,
    Intl,
    TextDecoderStream,
    ResizeObserver: class {},
    navigator: { languages: ['en-GB'] },
    localStorage: { getItem: () => null },
    ...extra,
  };
}

/** A document that records the notice; `touched` says whether the script looked at the page at all. */
function fakeDocument() {
  const state = { touched: false, notice: undefined as undefined | { id: string; innerHTML: string; attributes: Record<string, string> } };
  const root = {
    parentNode: {
      replaceChild(notice: typeof state.notice) {
        state.notice = notice;
      },
    },
  };
  const document = {
    getElementById(id: string) {
      state.touched = true;
      return id === 'root' ? root : null;
    },
    createElement() {
      state.touched = true;
      const attributes: Record<string, string> = {};
      return { id: '', innerHTML: '', attributes, setAttribute: (k: string, v: string) => (attributes[k] = v) };
    },
  };
  return { document, state };
}

/** Runs public/browser-check.js as the page would, against a stubbed window and document. */
function run(win: Win) {
  const { document, state } = fakeDocument();
  new Function('window', 'document', source)(win, document);
  return { state, check: win.sunwardBrowserCheck as Check };
}

describe('unsupported-browser check (public/browser-check.js)', () => {
  it('leaves the page alone on a browser that has everything the console uses', () => {
    const { state, check } = run(modernWindow());
    expect(check.missingFeatures(modernWindow())).toEqual([]);
    expect(state.touched).toBe(false);
  });

  it('finds each missing feature by itself, by feature and not by name', () => {
    const without: [string, Win][] = [
      ['modules', { HTMLScriptElement: { prototype: {} } }],
      ['promise', { Promise: { resolve: Promise.resolve } }],
      ['fetch', { fetch: undefined }],
      ['fetch', { AbortController: undefined }],
      ['array.at', { Array: { prototype: { findLast: [].findLast } } }],
      ['object.hasOwn', { Object: {} }],
      ['intl', { Intl: undefined }],
      // Intl from before 2022: formatToParts, but no supportedValuesOf (which comes with full time-zone data).
      ['intl', { Intl: { DateTimeFormat: { prototype: { formatToParts() {} } } } }],
      ['streams', { TextDecoderStream: undefined }],
      ['resizeObserver', { ResizeObserver: undefined }],
    ];
    for (const [feature, lacking] of without) {
      const { state, check } = run(modernWindow(lacking));
      expect(check.missingFeatures(modernWindow(lacking)), feature).toContain(feature);
      expect(state.notice?.id, feature).toBe('unsupported-browser');
    }
    // A browser from before 2022 (Safari 15.3: no Array.prototype.at, findLast or Object.hasOwn) even with a modern name.
    const old = modernWindow({ Array: { prototype: {} }, Object: {}, navigator: { userAgent: 'Chrome/140', languages: ['en'] } });
    expect(run(old).check.missingFeatures(old)).toEqual(['array.at', 'array.findLast', 'object.hasOwn']);
  });

  it("recommends Edge, Chrome, Firefox, Safari and Opera with links, in the user's language", () => {
    const ie = { navigator: { languages: ['de-DE', 'en'] }, Array: { prototype: {} }, Object: {} };
    const { state, check } = run(ie);
    expect(check.missingFeatures(ie)).toContain('modules');
    const html = state.notice?.innerHTML ?? '';
    for (const [name, link] of [
      ['Microsoft Edge', 'https://www.microsoft.com/edge'],
      ['Google Chrome', 'https://www.google.com/chrome/'],
      ['Mozilla Firefox', 'https://www.mozilla.org/firefox/'],
      ['Apple Safari', 'https://www.apple.com/safari/'],
      ['Opera', 'https://www.opera.com/'],
    ])
      expect(html).toContain(`<a href="${link}" rel="noopener">${name}</a>`);
    expect(html).toContain('<h1>Ihr Browser kann diese Konsole nicht ausführen</h1>');
    expect(state.notice?.attributes.lang).toBe('de');
    // The console's stored language first; the spec's aliases; English when nothing matches.
    expect(check.language({ localStorage: { getItem: () => 'cn' }, navigator: { languages: ['de'] } })).toBe('cn');
    expect(check.language({ navigator: { languages: ['cs-CZ'] } })).toBe('cz');
    expect(check.language({ navigator: { language: 'ja-JP' } })).toBe('en');
    const blocked = {
      get localStorage() {
        throw new Error('storage off');
      },
      navigator: { languages: ['pl'] },
    };
    expect(check.language(blocked)).toBe('po');
  });
});
