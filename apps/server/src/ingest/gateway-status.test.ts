import { describe, expect, it } from 'vitest';
import { recordGatewayStatus } from './gateway-status.js';
import type { TelemetryRepository } from './telemetry.repository.js';

// A status message is dropped for what it carries, never retried forever: through an external broker a
// thrown error drops the connection and the broker redelivers the same message again and again.

function repository(setGatewayInfo: TelemetryRepository['setGatewayInfo'] = async () => undefined) {
  const calls: string[] = [];
  const fake: Partial<TelemetryRepository> = {
    setGatewayPresence: async () => {
      calls.push('presence');
    },
    setGatewayInfo: async (...args) => {
      calls.push('info');
      return setGatewayInfo(...args);
    },
  };
  return { repository: fake as TelemetryRepository, calls };
}

const status = (extra: Record<string, unknown>) => Buffer.from(JSON.stringify({ v: 1, online: true, ...extra }));
const config = { serverAddress: 'iot.example.com:1883', locked: false, digitalOutput: false };

describe('gateway status', () => {
  it('drops a status whose times or strings the database cannot hold, touching nothing', async () => {
    for (const payload of [
      status({ config: { ...config, passwordSetAt: 8_700_000_000_000_000 } }),
      status({ config: { ...config, passwordSetAt: Number.MAX_SAFE_INTEGER } }),
      status({ fw: '2.4\u00001' }),
      status({ config: { ...config, serverAddress: 'iot\u0000:1883' } }),
    ]) {
      const { repository: repo, calls } = repository();
      expect(await recordGatewayStatus(repo, 1, payload, null)).toBe(false);
      expect(calls).toEqual([]);
    }
  });

  it('drops a status the database refuses on its data, and passes a lost connection on', async () => {
    const refused = repository(async () => {
      throw Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('invalid byte sequence'), { code: '22021' }) });
    });
    expect(await recordGatewayStatus(refused.repository, 1, status({ fw: '2.4.1' }), null)).toBe(false);
    const lost = repository(async () => {
      throw new Error('Connection terminated unexpectedly');
    });
    await expect(recordGatewayStatus(lost.repository, 1, status({ fw: '2.4.1' }), null)).rejects.toThrow('Connection terminated');
  });

  it('records a good status', async () => {
    const { repository: repo, calls } = repository();
    expect(
      await recordGatewayStatus(repo, 1, status({ fw: '2.4.1', config: { ...config, passwordSetAt: Date.UTC(2026, 0, 1) } }), '10.0.0.5'),
    ).toBe(true);
    expect(calls).toEqual(['presence', 'info']);
  });
});
