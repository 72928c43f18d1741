import { describe, expect, it } from 'vitest';
import { exactTime, formatSpecificYield, relativeTime, statusStyle } from './format';

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
