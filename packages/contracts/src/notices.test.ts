import { describe, expect, it } from 'vitest';
import {
  fillNoticeDescription,
  formatNoticeTime,
  formatViewDate,
  NoticeFieldsSchema,
  NoticeStatus,
  noticeStatusChangeAllowed,
  noticeTypeWord,
  parseViewDate,
  scopesSeenBy,
} from './notices.js';

describe('notice view date', () => {
  it('reads YYYY-MM-DD HH:mm:ss as UTC and writes it back', () => {
    const at = parseViewDate('2025-03-30 01:30:05');
    expect(at).toBe(Date.UTC(2025, 2, 30, 1, 30, 5));
    expect(formatViewDate(at ?? 0)).toBe('2025-03-30 01:30:05');
  });

  it('refuses impossible dates and other formats', () => {
    for (const bad of ['2025-02-30 10:00:00', '2025-13-01 10:00:00', '2025-01-01 24:00:00', '2025-01-01T10:00:00', '2025-01-01'])
      expect(parseViewDate(bad)).toBeUndefined();
  });
});

describe('notice texts', () => {
  it('fills every placeholder, suggestions joined in the language’s way', () => {
    const values = { time: '2025-05-01 02:00 (UTC)', type: 'maintenance', duration: '2 hours', suggests: ['save data', 'wait'] };
    expect(fillNoticeDescription('{type} at {time} for {duration}: {suggest}. Again {type}.', values, 'en')).toBe(
      'maintenance at 2025-05-01 02:00 (UTC) for 2 hours: save data; wait. Again maintenance.',
    );
    expect(fillNoticeDescription('建议：{suggest}', { ...values, suggests: ['保存', '等待'] }, 'zh')).toBe('建议：保存；等待');
  });

  it('names type 1 upgrade, 3 notice and anything else maintenance', () => {
    expect(noticeTypeWord(1, 'en')).toBe('upgrade');
    expect(noticeTypeWord(3, 'zh')).toBe('通知');
    expect(noticeTypeWord(2, 'en')).toBe('maintenance');
    expect(noticeTypeWord(9, 'zh')).toBe('维护');
  });

  it('writes the time in the reader’s zone, or in UTC for an unknown zone', () => {
    expect(formatNoticeTime('2025-07-01T00:30:00.000Z', 'Europe/Berlin')).toBe('2025-07-01 02:30 (Europe/Berlin)');
    expect(formatNoticeTime('2025-07-01T00:30:00.000Z', 'Mars/Olympus')).toBe('2025-07-01 00:30 (UTC)');
    expect(formatNoticeTime('2025-07-01T00:30:00.000Z', undefined)).toBe('2025-07-01 00:30 (UTC)');
  });
});

describe('notice rules', () => {
  const base = {
    type: 2,
    scope: '0',
    impact: 1,
    zhDesc: 'x',
    enDesc: 'x',
    zhDuration: '1',
    enDuration: '1',
    suggests: [],
    startTime: '2025-01-01T00:00:00Z',
    endTime: '2025-01-01T04:00:00Z',
    effectiveTime: '2025-01-01T01:00:00Z',
  };
  const problems = (v: object) => NoticeFieldsSchema.safeParse(v).error?.issues.map((i) => `${i.path.join('.')}:${i.message}`) ?? [];

  it('accepts a window with the effective time inside it, from the start on', () => {
    expect(problems(base)).toEqual([]);
    expect(problems({ ...base, effectiveTime: base.startTime })).toEqual([]);
  });

  it('wants the start before the end and the effective time within', () => {
    expect(problems({ ...base, endTime: base.startTime })).toContain('endTime:validation.noticeEndAfterStart');
    expect(problems({ ...base, effectiveTime: '2024-12-31T23:59:59Z' })).toEqual(['effectiveTime:validation.noticeEffectiveAfterStart']);
    expect(problems({ ...base, effectiveTime: base.endTime })).toEqual(['effectiveTime:validation.noticeEffectiveBeforeEnd']);
  });

  it('lets invalid be reached from any status and left for none', () => {
    expect(noticeStatusChangeAllowed(NoticeStatus.UNPUBLISHED, NoticeStatus.PUBLISHING)).toBe(true);
    expect(noticeStatusChangeAllowed(NoticeStatus.PUBLISHING, NoticeStatus.INVALID)).toBe(true);
    expect(noticeStatusChangeAllowed(NoticeStatus.INVALID, NoticeStatus.PUBLISHING)).toBe(false);
    expect(noticeStatusChangeAllowed(NoticeStatus.PUBLISHING, NoticeStatus.PUBLISHING)).toBe(false);
  });

  it('shows the console scopes 0 and 1 and the app 0 and 2', () => {
    expect(scopesSeenBy('0')).toEqual(['0', '1']);
    expect(scopesSeenBy('2')).toEqual(['0', '2']);
  });
});
