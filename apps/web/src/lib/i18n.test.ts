import { describe, expect, it } from 'vitest';
import { initialLanguage } from './i18n';

describe('initialLanguage (spec 01 §1)', () => {
  it('uses a stored choice first', () => {
    expect(initialLanguage('de', ['zh-CN'])).toBe('de');
  });
  it('is Chinese for a Chinese browser and English otherwise', () => {
    expect(initialLanguage(null, ['zh-CN', 'en'])).toBe('cn');
    expect(initialLanguage(null, ['zh'])).toBe('cn');
    expect(initialLanguage(null, ['de-DE', 'zh-CN'])).toBe('en');
    expect(initialLanguage(null, [])).toBe('en');
  });
  it('ignores a stored value that is not a console language', () => {
    expect(initialLanguage('xx', ['fr'])).toBe('en');
  });
});
