import { describe, expect, it } from 'vitest';
import { datePattern, exactTime, formatSpecificYield, relativeTime, statusStyle } from './format';

describe('plant list formatting', () => {
  it('shows specific yield with two decimals in the user locale', () => {
    expect(formatSpecificYield(1.236, 'en-GB')).toBe('1.24 kWh/kWp');
    expect(formatSpecificYield(1234.5, 'de-DE')).toBe('1.234,50 kWh/kWp');
    expect(formatSpecificYield(null, 'en-GB')).toBe('--');
    expect(formatSpecificYield(0.5, 'en-GB', false)).toBe('0.50');
  });

  it('colours statuses: normal green, offline grey, warning orange, fault red', () => {
    expect(statusStyle(1)).toMatchObject({ key: 'normal', tag: 'success' });
    expect(statusStyle(2)).toMatchObject({ key: 'offline', tag: 'default' });
    expect(statusStyle(3)).toMatchObject({ key: 'warning', tag: 'warning' });
    expect(statusStyle(4)).toMatchObject({ key: 'fault', tag: 'error' });
    expect(statusStyle(99).key).toBe('unknown');
  });

  it('says how long ago a plant last reported, in the user language', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(relativeTime('2025-06-01T11:57:00Z', now, 'en-GB')).toBe('3 minutes ago');
    expect(relativeTime('2025-06-01T11:59:58Z', now, 'en-GB')).toBe('now');
    expect(relativeTime('2025-05-30T12:00:00Z', now, 'en-GB')).toBe('2 days ago');
    expect(relativeTime('2025-06-01T09:00:00Z', now, 'de-DE')).toBe('vor 3 Stunden');
  });

  it('gives the exact time for the tooltip', () => {
    expect(exactTime('2025-06-01T11:57:00Z', 'en-GB')).toMatch(/2025/);
  });
});

describe('date picker patterns', () => {
  it('writes a date the way the locale does, and matches what Intl prints', () => {
    expect(datePattern('de-DE')).toBe('DD.MM.YYYY');
    expect(datePattern('en-GB')).toBe('DD/MM/YYYY');
    expect(datePattern('zh-CN')).toBe('YYYY/MM/DD');
    expect(datePattern('de-DE', 'month')).toBe('MM.YYYY');
    expect(datePattern('zh-CN', 'month')).toBe('YYYY/MM');
    for (const locale of ['en-GB', 'zh-CN', 'vi-VN', 'es-ES', 'de-DE', 'cs-CZ', 'pl-PL', 'tr-TR', 'el-GR', 'pt-PT']) {
      const written = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(2026, 10, 26));
      const pattern = datePattern(locale).replace(/\[([^\]]*)\]/g, '$1');
      expect(pattern.replace('YYYY', '2026').replace('MM', '11').replace('DD', '26'), locale).toBe(written.trim());
    }
  });
});
