import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { renderAlarm } from './alarm-notifier.service.js';
import { ALARM_TEXTS, plantTime } from './alarm-texts.js';
import type { AlarmDevice } from './messages.repository.js';

const device: AlarmDevice = {
  id: 7,
  sn: 'INV0000001',
  alias: null,
  family: 'inverter',
  protocolId: 'sunspec-inverter-1p',
  plantId: 3,
  plantName: 'Harbour',
  timezone: 'Asia/Shanghai',
};
const data = {
  plantId: 3,
  plantName: 'Harbour',
  deviceId: 7,
  deviceSn: 'INV0000001',
  family: 'inverter',
  code: 1001,
  level: 'fault' as const,
  change: 'opened' as const,
  at: '2025-06-01T04:05:06.000Z',
  suppressed: 0,
};

describe('alarm texts', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    expect(catalogueProblems(ALARM_TEXTS.en, ALARM_TEXTS[language])).toEqual([]);
  });

  it('writes times as YYYY-MM-DD HH:mm:ss in the plant’s zone, UTC for an unknown zone', () => {
    expect(plantTime(new Date('2025-06-01T04:05:06Z'), 'Asia/Shanghai')).toBe('2025-06-01 12:05:06 (Asia/Shanghai)');
    expect(plantTime(new Date('2025-06-01T04:05:06Z'), 'Mars/Olympus')).toBe('2025-06-01 04:05:06 (UTC)');
  });

  it('renders an alarm with the event’s description and solution in the reader’s language', () => {
    const en = renderAlarm(data, device, 'en', 600_000);
    expect(en.title).toBe('Fault: Ground fault (insulation resistance too low) on INV0000001');
    expect(en.content).toBe(
      'INV0000001 (SN INV0000001) at plant Harbour reported Ground fault (insulation resistance too low) (code 1001) at 2025-06-01 12:05:06 (Asia/Shanghai).\n' +
        'Suggested action: Check the PV strings and cables for damaged insulation or a short to ground, and measure the insulation resistance before restarting',
    );
    expect(renderAlarm(data, device, 'cn', 600_000).title).toBe('故障：INV0000001 接地故障（绝缘阻抗过低）');
    const pl = renderAlarm(data, device, 'po', 600_000);
    expect(pl.title).toContain('Doziemienie (zbyt niska rezystancja izolacji)');
    expect(pl.content).toContain('Sprawdź łańcuchy PV i przewody');
  });

  it('names an unknown code and says how many changes the throttle held back', () => {
    const cleared = renderAlarm({ ...data, code: 9999, change: 'cleared', suppressed: 3 }, device, 'de', 600_000);
    expect(cleared.title).toBe('Behoben: Ereignis 9999 an INV0000001');
    expect(cleared.content).toContain('in den letzten 10 Minuten 3 weitere Male');
  });
});
