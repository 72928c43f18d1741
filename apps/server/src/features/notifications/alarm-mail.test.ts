import { describe, expect, it } from 'vitest';
import { composeAlarmMail, retryDelayMs, wantsAlarm } from './alarm-mail.service.js';

describe('alarm e-mail rules', () => {
  it('doubles the retry delay from the base, up to an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(20, 30_000)).toBe(3_600_000);
  });

  it('uses a plant’s own levels when it has a rule, else the default levels', () => {
    const settings = {
      levels: ['fault' as const],
      plants: [
        { plantId: 2, levels: ['warning' as const] },
        { plantId: 3, levels: [] },
      ],
    };
    expect(wantsAlarm(settings, 1, 'fault')).toBe(true);
    expect(wantsAlarm(settings, 1, 'warning')).toBe(false);
    expect(wantsAlarm(settings, 2, 'fault')).toBe(false);
    expect(wantsAlarm(settings, 2, 'warning')).toBe(true);
    expect(wantsAlarm(settings, 3, 'fault')).toBe(false);
  });

  it('mails one alarm as itself and several as a digest in the recipient’s language', () => {
    const at = new Date('2025-06-01T08:00:00Z');
    const one = composeAlarmMail('en', 'a@b.cd', 1, [{ title: 'Fault: X', content: 'Details', createdAt: at }]);
    expect(one).toMatchObject({ kind: 'alarm', subject: 'Fault: X', to: 'a@b.cd', userId: 1 });
    expect(one.text).toContain('Details');
    const two = composeAlarmMail('es', 'a@b.cd', 1, [
      { title: 'Fallo: X', content: 'Uno', createdAt: at },
      { title: 'Fallo: Y', content: 'Dos', createdAt: at },
    ]);
    expect(two.kind).toBe('digest');
    expect(two.subject).toBe('2 alarmas de sus plantas');
    expect(two.text).toMatch(/Fallo: X[\s\S]*Uno[\s\S]*Fallo: Y[\s\S]*Dos/);
  });
});
